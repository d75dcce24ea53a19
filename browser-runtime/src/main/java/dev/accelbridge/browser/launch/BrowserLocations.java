package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where browsers are installed on the operating systems users run Accelbridge on, and what their layouts say: the
 * standard install locations on Linux, macOS and Windows, the browsers Playwright downloaded ({@code ms-playwright}),
 * Safari's {@code safaridriver}, a Windows browser's version from its install folder and Windows' {@code App Paths}
 * registry answer. Pure: a {@link Host} (its OS, environment, home and what its file system holds) in, paths out, so the
 * macOS and Windows rules are tested on constructed trees where they cannot run.
 */
final class BrowserLocations {
    /** An operating system's family. */
    enum Os {
        LINUX, MAC, WINDOWS;

        /** This JVM's. */
        static Os current() {
            String n = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
            return n.startsWith("mac") || n.contains("darwin") ? MAC : n.startsWith("windows") ? WINDOWS : LINUX;
        }
    }

    /**
     * A host as discovery sees it.
     *
     * @param os         its OS
     * @param env        its environment ({@code LOCALAPPDATA}, {@code ProgramFiles}, {@code PLAYWRIGHT_BROWSERS_PATH}, ...)
     * @param home       the user's home
     * @param executable whether a path is an executable file there
     * @param list       a folder's entries (empty when it is none)
     */
    record Host(Os os, Map<String, String> env, Path home, Predicate<Path> executable, Function<Path, List<Path>> list) {
        /** This machine. */
        static Host current() {
            return new Host(Os.current(), System.getenv(), Path.of(System.getProperty("user.home", ".")),
                    p -> java.nio.file.Files.isExecutable(p) && !java.nio.file.Files.isDirectory(p), BrowserLocations::entries);
        }

        private Optional<Path> envPath(String name) {
            String v = env.get(name);
            return v == null || v.isBlank() ? Optional.empty() : Optional.of(Path.of(v));
        }
    }

    private static final Pattern VERSION_DIR = Pattern.compile("\\d+\\.\\d+\\.\\d+\\.\\d+");
    private static final Pattern REVISION = Pattern.compile("(chromium|firefox|webkit)-(\\d+)");
    private static final Pattern APP_PATH = Pattern.compile("\\(Default\\)\\s+REG_(?:EXPAND_)?SZ\\s+(.+\\.exe)", Pattern.CASE_INSENSITIVE);

    private BrowserLocations() {
    }

    /** The absolute paths a browser of {@code kind} is installed at on {@code host}, best first (its own, then Playwright's). */
    static List<Path> candidates(BrowserKind kind, Host host) {
        List<Path> out = new ArrayList<>(installed(kind, host));
        out.addAll(playwright(kind, host));
        return out;
    }

    /** The standard install locations. */
    static List<Path> installed(BrowserKind kind, Host host) {
        return switch (host.os()) {
            case LINUX -> switch (kind) {
                case CHROMIUM -> List.of(Path.of("/usr/lib/chromium/chromium"), Path.of("/snap/bin/chromium"));
                case CHROME -> List.of(Path.of("/opt/google/chrome/chrome"));
                case EDGE -> List.of(Path.of("/opt/microsoft/msedge/msedge"));
                case WEBKIT -> webKitGtk();
                default -> List.of();
            };
            case MAC -> mac(kind, host);
            case WINDOWS -> windows(kind, host);
        };
    }

    /**
     * WebKitGTK's MiniBrowser, which comes with the library's package in its private folder: Debian's and Ubuntu's
     * multiarch folders, Fedora's and Arch's libexec; the GTK 4 build (webkitgtk-6.0) before the GTK 3 ones.
     */
    private static List<Path> webKitGtk() {
        List<Path> out = new ArrayList<>();
        for (String api : List.of("webkitgtk-6.0", "webkit2gtk-4.1", "webkit2gtk-4.0")) {
            for (String lib : List.of("/usr/lib/x86_64-linux-gnu/", "/usr/lib/aarch64-linux-gnu/", "/usr/libexec/", "/usr/lib/")) {
                out.add(Path.of(lib + api + "/MiniBrowser"));
            }
        }
        return out;
    }

    private static List<Path> mac(BrowserKind kind, Host host) {
        String app = switch (kind) {
            case CHROME -> "Google Chrome.app/Contents/MacOS/Google Chrome";
            case EDGE -> "Microsoft Edge.app/Contents/MacOS/Microsoft Edge";
            case CHROMIUM -> "Chromium.app/Contents/MacOS/Chromium";
            case FIREFOX -> "Firefox.app/Contents/MacOS/firefox";
            default -> null;
        };
        if (kind == BrowserKind.SAFARI) {
            return List.of(Path.of("/usr/bin/safaridriver")); // Safari is driven through its driver, which ships with macOS
        }
        return app == null ? List.of() : List.of(Path.of("/Applications").resolve(app), host.home().resolve("Applications").resolve(app));
    }

    private static List<Path> windows(BrowserKind kind, Host host) {
        String rel = switch (kind) {
            case CHROME -> "Google\\Chrome\\Application\\chrome.exe";
            case EDGE -> "Microsoft\\Edge\\Application\\msedge.exe";
            case CHROMIUM -> "Chromium\\Application\\chrome.exe";
            case FIREFOX -> "Mozilla Firefox\\firefox.exe";
            default -> null;
        };
        if (rel == null) {
            return List.of();
        }
        List<Path> out = new ArrayList<>();
        for (String root : List.of("ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA")) {
            host.envPath(root).ifPresent(r -> out.add(windowsPath(r, rel)));
        }
        return out;
    }

    private static Path windowsPath(Path root, String rel) {
        Path p = root;
        for (String part : rel.split("\\\\")) {
            p = p.resolve(part);
        }
        return p;
    }

    /**
     * The browsers Playwright downloaded ({@code npx playwright install}), newest revision first: under
     * {@code PLAYWRIGHT_BROWSERS_PATH}, else its cache ({@code ~/.cache/ms-playwright}, {@code ~/Library/Caches/ms-playwright},
     * {@code %LOCALAPPDATA%\ms-playwright}). Its Chromium serves the {@code chromium} kind; its Firefox is Playwright's
     * own build (Juggler), which only Playwright drives, and so is not offered as Firefox.
     */
    static List<Path> playwright(BrowserKind kind, Host host) {
        if (kind != BrowserKind.CHROMIUM) {
            return List.of();
        }
        Path cache = host.envPath("PLAYWRIGHT_BROWSERS_PATH").filter(p -> !p.toString().equals("0")).orElseGet(() -> switch (host.os()) {
            case LINUX -> host.home().resolve(".cache").resolve("ms-playwright");
            case MAC -> host.home().resolve("Library").resolve("Caches").resolve("ms-playwright");
            case WINDOWS -> host.envPath("LOCALAPPDATA").orElse(host.home()).resolve("ms-playwright");
        });
        List<Path> revisions = new ArrayList<>(host.list().apply(cache).stream().filter(d -> {
            Matcher m = REVISION.matcher(d.getFileName().toString());
            return m.matches() && m.group(1).equals("chromium");
        }).toList());
        revisions.sort(Comparator.comparingInt((Path d) -> revision(d)).reversed());
        List<Path> out = new ArrayList<>();
        for (Path r : revisions) {
            switch (host.os()) {
                case LINUX -> out.add(r.resolve("chrome-linux").resolve("chrome"));
                case MAC -> {
                    for (String dir : List.of("chrome-mac", "chrome-mac-arm64")) {
                        out.add(r.resolve(dir).resolve("Chromium.app").resolve("Contents").resolve("MacOS").resolve("Chromium"));
                    }
                }
                case WINDOWS -> out.add(r.resolve("chrome-win").resolve("chrome.exe"));
            }
        }
        return out;
    }

    private static int revision(Path dir) {
        Matcher m = REVISION.matcher(dir.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(2)) : -1;
    }

    /** The first candidate {@code host} holds as an executable. */
    static Optional<Path> first(BrowserKind kind, Host host) {
        return candidates(kind, host).stream().filter(host.executable()).findFirst();
    }

    /**
     * A browser's version from its install layout, where asking the binary is not how (a Windows browser answers
     * {@code --version} with nothing: it is a GUI program): the newest version-named folder beside {@code chrome.exe} or
     * {@code msedge.exe} ({@code Application\131.0.6778.86\}).
     */
    static Optional<String> versionFromLayout(Path executable, Host host) {
        Path dir = executable.getParent();
        if (dir == null) {
            return Optional.empty();
        }
        return host.list().apply(dir).stream().map(p -> p.getFileName().toString()).filter(n -> VERSION_DIR.matcher(n).matches())
                .max(Comparator.comparing(BrowserLocations::versionKey));
    }

    private static String versionKey(String v) {
        StringBuilder b = new StringBuilder();
        for (String part : v.split("\\.")) {
            b.append(String.format(Locale.ROOT, "%08d", Long.parseLong(part)));
        }
        return b.toString();
    }

    /**
     * The executable Windows' {@code App Paths} registry key names, from {@code reg query
     * "HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\App Paths\chrome.exe" /ve}'s answer; empty when it names none.
     */
    static Optional<Path> appPath(String regQueryAnswer) {
        Matcher m = APP_PATH.matcher(regQueryAnswer == null ? "" : regQueryAnswer);
        if (!m.find()) {
            return Optional.empty();
        }
        String v = m.group(1).trim();
        if (v.startsWith("\"")) {
            v = v.substring(1);
        }
        return Optional.of(Path.of(v.replace("\"", "")));
    }

    /** The {@code App Paths} registry key naming {@code kind}'s executable on Windows, if it registers one. */
    static Optional<String> appPathKey(BrowserKind kind) {
        String exe = switch (kind) {
            case CHROME -> "chrome.exe";
            case EDGE -> "msedge.exe";
            case FIREFOX -> "firefox.exe";
            default -> null;
        };
        return Optional.ofNullable(exe).map(e -> "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths\\" + e);
    }

    /** Safari's version from its {@code Info.plist} ({@code CFBundleShortVersionString}), as {@code 26.1}. */
    static Optional<String> safariVersion(String infoPlist) {
        Matcher m = Pattern.compile("<key>CFBundleShortVersionString</key>\\s*<string>([0-9.]+)</string>").matcher(
                infoPlist == null ? "" : infoPlist);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static List<Path> entries(Path dir) {
        if (!java.nio.file.Files.isDirectory(dir)) {
            return List.of();
        }
        try (var s = java.nio.file.Files.list(dir)) {
            return s.limit(10_000).toList();
        } catch (java.io.IOException e) {
            return List.of();
        }
    }
}
