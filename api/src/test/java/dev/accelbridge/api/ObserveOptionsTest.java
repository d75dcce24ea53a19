package dev.accelbridge.api;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Where an app can be observed, as docs/observe.md says: in this machine's Chromium or the headless shell only (the
 * builds the observer is tested in); Firefox, WebKit and the branded Chromium builds are refused naming the browsers that
 * can, never observed as if nothing ran there.
 */
class ObserveOptionsTest {
    @ParameterizedTest
    @EnumSource(BrowserKind.class)
    void anAppIsObservedInAChromiumBuildAndEveryOtherBrowserIsRefusedNamingThem(BrowserKind browser) {
        ObserveOptions.Builder b = ObserveOptions.builder(URI.create("http://127.0.0.1:5173/")).optBrowser(browser);
        if (browser == BrowserKind.CHROMIUM || browser == BrowserKind.CHROMIUM_SHELL) {
            assertThat(b.build().browser()).isEqualTo(browser);
        } else {
            assertThatThrownBy(b::build).isInstanceOf(AccelbridgeException.class).hasMessageContaining(browser.id())
                    .satisfies(e -> assertThat(((AccelbridgeException) e).oneLine()).contains("--browser chromium"));
        }
    }
}
