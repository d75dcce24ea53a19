package dev.accelbridge.browser.launch;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BrowserKind;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static dev.accelbridge.browser.launch.LauncherTestSupport.major;
import static dev.accelbridge.browser.launch.LauncherTestSupport.requireInstalled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Real headless browsers through Playwright for Java. */
@RequiresBrowser
class PlaywrightLauncherTest {
    private static final Duration REPORT = Duration.ofSeconds(30);
    private static ReportPage page;
    private static PlaywrightLauncher launcher;

    @BeforeAll
    static void start() throws Exception {
        page = new ReportPage();
        launcher = new PlaywrightLauncher();
    }

    @AfterAll
    static void stop() {
        if (launcher != null) {
            launcher.close();
        }
        if (page != null) {
            page.close();
        }
    }

    @Test
    void debianChromiumHasSoftwareWebGpuButNoWebNnBackend() throws Exception {
        InstalledBrowser chromium = requireInstalled(BrowserKind.CHROMIUM);
        URI url = page.newUrl();
        Path profile;
        try (BrowserHandle h = launcher.launch(LaunchOptions.builder().build(), url)) {
            JsonNode r = page.await(url, REPORT);
            assertThat(h.driver()).isEqualTo(DriverKind.PLAYWRIGHT);
            assertThat(h.version()).isEqualTo(chromium.version());
            assertThat(r.path("ua").asText()).contains("Chrome/" + major(chromium) + ".");
            assertThat(r.path("gpu").path("adapter").asBoolean()).as("WebGPU adapter with --enable-unsafe-webgpu: %s", r).isTrue();
            assertThat(r.path("gpu").path("architecture").asText()).isEqualTo("swiftshader");
            assertThat(r.path("ml").path("api").asBoolean()).as("navigator.ml with the WebNN feature flag").isTrue();
            // the V8 flags reach the renderers, where the page's WebAssembly runs (ChromiumFlags.JS_FLAGS)
            List<String> renderers = ProcessHandle.of(h.pid().orElseThrow()).orElseThrow().descendants()
                    .map(PlaywrightLauncherTest::cmdline)
                    .filter(a -> a.contains("--type=renderer")).toList();
            assertThat(renderers).isNotEmpty().allMatch(a -> a.contains("--js-flags=--wasm-sync-tier-up"));
            assertThat(r.path("ml").path("context").asBoolean()).isFalse();
            assertThat(r.path("ml").path("error").asText()).contains("not supported on this platform");

            assertThat(h.pid()).isPresent();
            assertThat(ProcessHandle.of(h.pid().getAsLong()).flatMap(p -> p.info().command()).orElseThrow())
                    .isEqualTo(chromium.executable().toRealPath().toString());
            profile = ((LocalBrowserHandle) h).profile();
            assertThat(profile).isDirectory();
            assertThat(h.isAlive()).isTrue();
            h.kill();
            assertThat(h.isAlive()).isFalse();
        }
        assertThat(Files.exists(profile)).as("profile deleted on close").isFalse();
    }

    /** A process's command line from /proc (Chromium's children rewrite theirs, which ProcessHandle then cannot split). */
    private static String cmdline(ProcessHandle p) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).replace('\0', ' ');
        } catch (java.io.IOException e) {
            return ""; // it ended
        }
    }

    @Test
    void aPageThatNeverReachesItsServerSaysWhatWentWrong() throws Exception {
        requireInstalled(BrowserKind.CHROMIUM);
        // a page whose bridge is not there: what it logs and which request failed are the evidence of why it never joined
        URI url = new URI("data", "text/html,<script>console.error('no bridge here');fetch('http://127.0.0.1:9/join')"
                + ".catch(()=>{})</script>", null);
        try (BrowserHandle h = launcher.launch(LaunchOptions.builder().build(), url)) {
            String said = "";
            for (int i = 0; i < 50 && !said.contains("request failed"); i++) {
                said = h.pageEvidence().orElse("");
                Thread.sleep(100);
            }
            assertThat(said).startsWith("the page is at data:text/html").contains("console error: no bridge here",
                    "request failed: http://127.0.0.1:9/join net::ERR_");
        }
    }

    @Test
    void chromiumShellHasARealWebNnBackend() throws Exception {
        InstalledBrowser shell = requireInstalled(BrowserKind.CHROMIUM_SHELL);
        URI url = page.newUrl();
        try (BrowserHandle h = launcher.launch(LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).build(), url)) {
            JsonNode r = page.await(url, REPORT);
            assertThat(h.version()).isEqualTo(shell.version());
            assertThat(r.path("ua").asText()).contains("Chrome/" + major(shell) + ".");
            assertThat(r.path("ml").path("context").asBoolean()).as("WebNN cpu context in the headless shell: %s", r).isTrue();
            assertThat(r.path("gpu").path("architecture").asText()).isEqualTo("swiftshader");
            assertThat(h.isAlive()).isTrue();
        }
    }

    @Test
    void firefoxIsRefusedWithTheFix() {
        assertThatThrownBy(() -> launcher.launch(LaunchOptions.builder().browser(BrowserKind.FIREFOX).build(), URI.create("http://127.0.0.1:1/")))
                .isInstanceOf(BrowserLaunchException.class)
                .satisfies(e -> assertThat(((BrowserLaunchException) e).fix()).contains("--driver process"));
    }

    @Test
    void aBrokenExecutableNamesPathAndFix() throws Exception {
        Path notABrowser = Files.createTempFile("accelbridge-not-a-browser", ".sh");
        try {
            Files.writeString(notABrowser, "#!/bin/sh\necho 'Chromium 1.2.3'\nexit 3\n");
            notABrowser.toFile().setExecutable(true);
            assertThatThrownBy(() -> launcher.launch(LaunchOptions.builder().executable(notABrowser)
                    .launchTimeout(Duration.ofSeconds(10)).build(), URI.create("http://127.0.0.1:1/")))
                    .isInstanceOf(BrowserLaunchException.class)
                    .hasMessageContaining(notABrowser.toString())
                    .hasMessageContaining("1.2.3");
        } finally {
            Files.deleteIfExists(notABrowser);
        }
    }
}
