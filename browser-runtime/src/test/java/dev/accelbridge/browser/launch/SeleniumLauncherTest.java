package dev.accelbridge.browser.launch;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BrowserKind;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;

import static dev.accelbridge.browser.launch.LauncherTestSupport.major;
import static dev.accelbridge.browser.launch.LauncherTestSupport.requireInstalled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Real headless Chromium through Selenium with the system ChromeDriver (no Selenium Manager, no network). */
@RequiresBrowser
class SeleniumLauncherTest {
    private static ReportPage page;

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
    void debianChromiumReportsItsRealUserAgentAndAdapter() throws Exception {
        InstalledBrowser chromium = requireInstalled(BrowserKind.CHROMIUM);
        URI url = page.newUrl();
        BrowserLauncher launcher = BrowserLaunchers.forDriver(DriverKind.SELENIUM);
        try (BrowserHandle h = launcher.launch(LaunchOptions.builder().driver(DriverKind.SELENIUM).build(), url)) {
            JsonNode r = page.await(url, Duration.ofSeconds(30));
            assertThat(h.driver()).isEqualTo(DriverKind.SELENIUM);
            assertThat(h.version()).isEqualTo(chromium.version());
            assertThat(r.path("ua").asText()).contains("Chrome/" + major(chromium) + ".");
            assertThat(r.path("gpu").path("architecture").asText()).as("%s", r).isEqualTo("swiftshader");
            assertThat(r.path("ml").path("error").asText()).contains("not supported on this platform");
            assertThat(h.pid()).isPresent();
            assertThat(h.isAlive()).isTrue();
            h.kill();
            assertThat(h.isAlive()).isFalse();
        }
    }

    @Test
    void chromeDriverRefusesTheHeadlessShellOfAnotherMajor() {
        InstalledBrowser shell = requireInstalled(BrowserKind.CHROMIUM_SHELL);
        String driverVersion = VersionProbe.version(SeleniumLauncher.chromedriver());
        assumeTrue(LaunchSupport.major(driverVersion) != LaunchSupport.major(shell.version()),
                "this ChromeDriver matches the shell's major version, so it may drive it");
        assertThatThrownBy(() -> BrowserLaunchers.forDriver(DriverKind.SELENIUM).launch(
                LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).driver(DriverKind.SELENIUM).build(),
                URI.create("http://127.0.0.1:1/")))
                .isInstanceOf(BrowserLaunchException.class)
                .hasMessageContaining("ChromeDriver " + LaunchSupport.major(driverVersion) + " ")
                .hasMessageContaining("cannot drive chromium-shell " + LaunchSupport.major(shell.version()))
                .satisfies(e -> assertThat(((BrowserLaunchException) e).fix()).contains("--driver playwright"));
    }

    @Test
    void gridWithoutUrlSaysSo() {
        assertThatThrownBy(() -> BrowserLaunchers.forDriver(DriverKind.GRID).launch(
                LaunchOptions.builder().driver(DriverKind.GRID).build(), URI.create("http://127.0.0.1:1/")))
                .isInstanceOf(BrowserLaunchException.class)
                .hasMessageContaining("Grid");
    }
}
