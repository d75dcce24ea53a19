package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Discovery's rules for the systems this machine is not (macOS, Windows) and for Playwright's downloaded browsers, on
 * constructed hosts: which files exist and what folders hold are given, nothing is read. What was run for real is said in
 * docs/limits.md.
 */
class BrowserLocationsTest {
    private static BrowserLocations.Host host(BrowserLocations.Os os, Map<String, String> env, Set<String> files,
                                              Map<String, List<String>> folders) {
        return new BrowserLocations.Host(os, env, Path.of("/home/ana"), p -> files.contains(p.toString()),
                dir -> folders.getOrDefault(dir.toString(), List.of()).stream().map(dir::resolve).toList());
    }

    @Test
    void macOsBrowsersAreFoundInEitherApplicationsFolderAndSafariThroughItsDriver() {
        var mac = host(BrowserLocations.Os.MAC, Map.of(), Set.of("/home/ana/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
                "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge", "/usr/bin/safaridriver"), Map.of());
        assertThat(BrowserLocations.first(BrowserKind.CHROME, mac)).contains(Path.of("/home/ana/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"));
        assertThat(BrowserLocations.first(BrowserKind.EDGE, mac)).contains(Path.of("/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"));
        assertThat(BrowserLocations.first(BrowserKind.SAFARI, mac)).contains(Path.of("/usr/bin/safaridriver"));
        assertThat(BrowserLocations.first(BrowserKind.FIREFOX, mac)).isEmpty();
        assertThat(BrowserLocations.safariVersion("<dict>\n  <key>CFBundleShortVersionString</key>\n  <string>26.1</string>\n</dict>"))
                .contains("26.1");
        assertThat(BrowserLocations.safariVersion("<dict></dict>")).isEmpty();
    }

    @Test
    void windowsBrowsersAreFoundUnderEachProgramRootAndTheirVersionIsTheirInstallFolders() {
        Map<String, String> env = Map.of("ProgramFiles", "/c/Program Files", "ProgramFiles(x86)", "/c/Program Files (x86)",
                "LOCALAPPDATA", "/c/Users/ana/AppData/Local");
        String chrome = "/c/Users/ana/AppData/Local/Google/Chrome/Application/chrome.exe";
        String edge = "/c/Program Files (x86)/Microsoft/Edge/Application/msedge.exe";
        var win = host(BrowserLocations.Os.WINDOWS, env, Set.of(chrome, edge), Map.of(
                "/c/Users/ana/AppData/Local/Google/Chrome/Application", List.of("130.0.6723.117", "131.0.6778.86", "SetupMetadata", "chrome.exe"),
                "/c/Program Files (x86)/Microsoft/Edge/Application", List.of("msedge.exe")));
        assertThat(BrowserLocations.first(BrowserKind.CHROME, win)).contains(Path.of(chrome));
        assertThat(BrowserLocations.first(BrowserKind.EDGE, win)).contains(Path.of(edge));
        assertThat(BrowserLocations.installed(BrowserKind.FIREFOX, win)).first().hasToString("/c/Program Files/Mozilla Firefox/firefox.exe");
        assertThat(BrowserLocations.versionFromLayout(Path.of(chrome), win)).contains("131.0.6778.86");
        assertThat(BrowserLocations.versionFromLayout(Path.of(edge), win)).as("no version folder: unknown, asked of the binary").isEmpty();
        assertThat(BrowserLocations.appPath("""
                HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths\\chrome.exe
                    (Default)    REG_SZ    "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe"
                    Path    REG_SZ    C:\\Program Files\\Google\\Chrome\\Application
                """)).hasValueSatisfying(p -> assertThat(p.toString()).endsWith("chrome.exe").doesNotContain("\""));
        assertThat(BrowserLocations.appPath("ERROR: The system was unable to find the specified registry key or value.")).isEmpty();
        assertThat(BrowserLocations.appPathKey(BrowserKind.EDGE)).contains("HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths\\msedge.exe");
        assertThat(BrowserLocations.appPathKey(BrowserKind.CHROMIUM)).isEmpty();
    }

    @Test
    void playwrightsDownloadedChromiumIsTakenNewestRevisionFirstAndItsOwnFirefoxIsNot() {
        Map<String, List<String>> cache = Map.of("/home/ana/.cache/ms-playwright",
                List.of("chromium-1140", "chromium-1181", "firefox-1465", "webkit-2104", "ffmpeg-1010", "chromium_headless_shell-1181"));
        var linux = host(BrowserLocations.Os.LINUX, Map.of(), Set.of("/home/ana/.cache/ms-playwright/chromium-1140/chrome-linux/chrome"), cache);
        assertThat(BrowserLocations.playwright(BrowserKind.CHROMIUM, linux)).containsExactly(
                Path.of("/home/ana/.cache/ms-playwright/chromium-1181/chrome-linux/chrome"),
                Path.of("/home/ana/.cache/ms-playwright/chromium-1140/chrome-linux/chrome"));
        assertThat(BrowserLocations.first(BrowserKind.CHROMIUM, linux)).as("the newest that is there")
                .contains(Path.of("/home/ana/.cache/ms-playwright/chromium-1140/chrome-linux/chrome"));
        assertThat(BrowserLocations.playwright(BrowserKind.FIREFOX, linux)).isEmpty();

        var moved = host(BrowserLocations.Os.MAC, Map.of("PLAYWRIGHT_BROWSERS_PATH", "/opt/pw"), Set.of(),
                Map.of("/opt/pw", List.of("chromium-1181")));
        assertThat(BrowserLocations.playwright(BrowserKind.CHROMIUM, moved)).contains(
                Path.of("/opt/pw/chromium-1181/chrome-mac-arm64/Chromium.app/Contents/MacOS/Chromium"));
        var win = host(BrowserLocations.Os.WINDOWS, Map.of("LOCALAPPDATA", "/c/Local"), Set.of(),
                Map.of("/c/Local/ms-playwright", List.of("chromium-1181")));
        assertThat(BrowserLocations.playwright(BrowserKind.CHROMIUM, win)).containsExactly(
                Path.of("/c/Local/ms-playwright/chromium-1181/chrome-win/chrome.exe"));
    }

    @Test
    void onLinuxDebiansRealBinaryComesBeforeAnythingElse() {
        var linux = host(BrowserLocations.Os.LINUX, Map.of(), Set.of(), Map.of());
        assertThat(BrowserLocations.installed(BrowserKind.CHROMIUM, linux)).first().hasToString("/usr/lib/chromium/chromium");
        assertThat(BrowserLocations.installed(BrowserKind.SAFARI, linux)).isEmpty();
    }
}
