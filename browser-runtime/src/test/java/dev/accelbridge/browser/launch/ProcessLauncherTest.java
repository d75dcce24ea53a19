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

import static dev.accelbridge.browser.launch.LauncherTestSupport.major;
import static dev.accelbridge.browser.launch.LauncherTestSupport.requireInstalled;
import static org.assertj.core.api.Assertions.assertThat;

/** Browsers started as plain processes; the page itself reports back, no driver involved. */
@RequiresBrowser
class ProcessLauncherTest {
    private static ReportPage page;
    private final BrowserLauncher launcher = BrowserLaunchers.forDriver(DriverKind.PROCESS);

    @BeforeAll
    static void start() throws Exception {
        page = new ReportPage();
    }

    @AfterAll
    static void stop() {
        if (page != null) {
            page.close();
        }
    }

    @Test
    void chromiumAsAProcessLoadsThePageAndDiesOnKill() throws Exception {
        InstalledBrowser chromium = requireInstalled(BrowserKind.CHROMIUM);
        URI url = page.newUrl();
        try (BrowserHandle h = launcher.launch(LaunchOptions.builder().driver(DriverKind.PROCESS).build(), url)) {
            JsonNode r = page.await(url, Duration.ofSeconds(30));
            assertThat(r.path("ua").asText()).contains("Chrome/" + major(chromium) + ".");
            assertThat(r.path("gpu").path("architecture").asText()).as("%s", r).isEqualTo("swiftshader");
            assertThat(h.version()).isEqualTo(chromium.version());
            assertThat(h.isAlive()).isTrue();
            long pid = h.pid().orElseThrow();
            h.kill();
            assertThat(h.isAlive()).isFalse();
            assertThat(ProcessHandle.of(pid).map(ProcessTrees::alive).orElse(false)).isFalse();
        }
    }

    @Test
    void headlessShellAsAProcessHasWebNnWithUserFeaturesMerged() throws Exception {
        InstalledBrowser shell = requireInstalled(BrowserKind.CHROMIUM_SHELL);
        URI url = page.newUrl();
        // A user's own --enable-features must not replace ours (Chromium keeps only the last such switch).
        try (BrowserHandle h = launcher.launch(LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).driver(DriverKind.PROCESS)
                .addArgs(java.util.List.of("--enable-features=SharedArrayBuffer")).build(), url)) {
            JsonNode r = page.await(url, Duration.ofSeconds(30));
            assertThat(r.path("ua").asText()).contains("Chrome/" + major(shell) + ".");
            assertThat(r.path("ml").path("context").asBoolean()).as("WebNN context: %s", r).isTrue();
            assertThat(h.pid()).isPresent();
        }
    }

    private static boolean lavapipeInstalled() throws java.io.IOException {
        Path icd = Path.of("/usr/share/vulkan/icd.d");
        if (!Files.isDirectory(icd)) {
            return false;
        }
        try (var s = Files.list(icd)) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith("lvp_icd"));
        }
    }

    @Test
    void firefoxAsAProcessWithWebGpuPrefs() throws Exception {
        InstalledBrowser firefox = requireInstalled(BrowserKind.FIREFOX);
        URI url = page.newUrl();
        Path profile;
        try (BrowserHandle h = launcher.launch(LaunchOptions.builder().browser(BrowserKind.FIREFOX).driver(DriverKind.PROCESS).build(), url)) {
            profile = ((LocalBrowserHandle) h).profile();
            JsonNode r = page.await(url, Duration.ofSeconds(45));
            System.out.println("firefox report: " + r);
            assertThat(r.path("ua").asText()).contains("Firefox/" + major(firefox) + ".");
            assertThat(Files.readString(profile.resolve("user.js"))).contains("user_pref(\"dom.webgpu.enabled\", true);");
            assertThat(r.path("gpu").path("api").asBoolean()).as("navigator.gpu with dom.webgpu.enabled: %s", r).isTrue();
            if (lavapipeInstalled()) { // Firefox's WebGPU needs a Vulkan driver; on a GPU-less host that is mesa's lavapipe
                assertThat(r.path("gpu").path("adapter").asBoolean()).as("WebGPU adapter via lavapipe: %s", r).isTrue();
            }
            assertThat(r.path("ml").path("api").asBoolean()).as("Firefox has no WebNN").isFalse();
            assertThat(h.isAlive()).isTrue();
        }
        assertThat(Files.exists(profile)).isFalse();
    }
}
