package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChromiumFlagsTest {
    @Test
    void everyLaunchGetsTheBaseFlagsWebGpuAndWebNn() {
        for (DriverKind d : List.of(DriverKind.PLAYWRIGHT, DriverKind.SELENIUM, DriverKind.PROCESS, DriverKind.GRID)) {
            List<String> f = ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, d, true, List.of());
            assertThat(f).containsAll(ChromiumFlags.BASE).contains("--enable-unsafe-webgpu", "--no-sandbox")
                    .doesNotContain("--use-angle=vulkan");
            assertThat(f.stream().filter(a -> a.startsWith("--enable-features="))).singleElement().asString()
                    .contains("WebMachineLearningNeuralNetwork");
        }
    }

    @Test
    void featureSwitchesAreMergedBecauseChromiumKeepsOnlyTheLast() {
        List<String> f = ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.SELENIUM, true,
                List.of("--enable-features=Foo,Bar", "--disable-features=Bar", "--lang=en"));
        assertThat(f).contains("--enable-features=WebMachineLearningNeuralNetwork,Foo",
                "--disable-features=" + String.join(",", ChromiumFlags.DISABLED_FEATURES) + ",Bar", "--lang=en");
        assertThat(f.stream().filter(a -> a.startsWith("--enable-features="))).hasSize(1);
        assertThat(f.stream().filter(a -> a.startsWith("--disable-features="))).hasSize(1);
    }

    @Test
    void v8FlagsAreOneSwitchWithTheUsersAfterOursBecauseBothKeepOnlyTheLast() {
        for (DriverKind d : List.of(DriverKind.PLAYWRIGHT, DriverKind.SELENIUM, DriverKind.PROCESS, DriverKind.GRID)) {
            assertThat(ChromiumFlags.forLaunch(BrowserKind.CHROMIUM_SHELL, d, true, List.of()))
                    .filteredOn(a -> a.startsWith("--js-flags=")).containsExactly("--js-flags=--wasm-sync-tier-up");
        }
        List<String> f = ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.SELENIUM, true,
                List.of("--js-flags=--no-wasm-sync-tier-up", "--lang=en", "--js-flags= --max-old-space-size=512"));
        assertThat(f).filteredOn(a -> a.startsWith("--js-flags="))
                .containsExactly("--js-flags=--wasm-sync-tier-up --no-wasm-sync-tier-up --max-old-space-size=512");
        assertThat(f).contains("--lang=en");
    }

    @Test
    void headlessModeFollowsBrowserAndDriver() {
        assertThat(ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.PROCESS, true, List.of())).contains("--headless=new");
        assertThat(ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.PROCESS, false, List.of()))
                .noneMatch(a -> a.startsWith("--headless"));
        assertThat(ChromiumFlags.forLaunch(BrowserKind.CHROMIUM_SHELL, DriverKind.PROCESS, false, List.of())).contains("--headless");
        // Playwright adds --headless itself, and its own --disable-features list, which ours (coming last) repeats
        List<String> pw = ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.PLAYWRIGHT, true, List.of());
        assertThat(pw).noneMatch(a -> a.startsWith("--headless"));
        assertThat(pw.stream().filter(a -> a.startsWith("--disable-features=")).findFirst().orElseThrow())
                .contains(String.join(",", ChromiumFlags.PLAYWRIGHT_DISABLED_FEATURES)).contains("NetworkTimeServiceQuerying");
        assertThat(pw).contains("--enable-features=WebMachineLearningNeuralNetwork,CDPScreenshotNewSurface");
    }

    @Test
    void firefoxIsNotAChromium() {
        assertThatThrownBy(() -> ChromiumFlags.forLaunch(BrowserKind.FIREFOX, DriverKind.PROCESS, true, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void firefoxPrefsAreValidUserJsValues() {
        assertThat(FirefoxPrefs.PREFS).containsEntry("dom.webgpu.enabled", true).containsEntry("gfx.webgpu.ignore-blocklist", true)
                .containsEntry("app.update.enabled", false).containsEntry("network.captive-portal-service.enabled", false);
        assertThat(FirefoxPrefs.js("a\"b")).isEqualTo("\"a\\\"b\"");
        assertThat(FirefoxPrefs.js(0)).isEqualTo("0");
    }
}
