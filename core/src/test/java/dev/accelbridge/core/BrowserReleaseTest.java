package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A browser's release, as a lane names it: the major for Chromium and Firefox, major and minor for WebKitGTK. */
class BrowserReleaseTest {
    @Test
    void aReleaseIsTheMajorOrWebKitGtksMajorAndMinor() {
        assertThat(BrowserKind.CHROMIUM.release("156.0.8078.79")).isEqualTo("156");
        assertThat(BrowserKind.FIREFOX.release("153.7.0esr")).isEqualTo("153");
        assertThat(BrowserKind.WEBKIT.release("2.50.6")).isEqualTo("2.50");
        assertThat(BrowserKind.WEBKIT.release("2")).isEqualTo("2");
        assertThat(BrowserKind.WEBKIT.release(null)).isNull();
    }

    @Test
    void aBrowserIsAskedForAtItsReleaseForm() {
        assertThat(BrowserSpec.parse("webkit@2.50").id()).isEqualTo("webkit@2.50");
        assertThat(BrowserSpec.parse("chromium-shell@141").major()).isEqualTo("141");
        assertThatThrownBy(() -> BrowserSpec.parse("webkit@2")).hasMessageContaining("WebKitGTK's major.minor (webkit@2.50)");
        assertThatThrownBy(() -> BrowserSpec.parse("chromium@156.0")).hasMessageContaining("its major version (chromium-shell@141)");
        assertThatThrownBy(() -> BrowserSpec.parse("webkit@2.50.6")).isInstanceOf(AccelbridgeException.class);
    }

    @Test
    void webKitGtkSaysSafariInItsUserAgentButIsItsOwnBrowser() {
        assertThat(BrowserKind.fromName("webkit")).isEqualTo(BrowserKind.WEBKIT);
        assertThat(BrowserKind.parse("webkit").launchable()).isTrue();
        assertThat(BrowserKind.WEBKIT.chromium()).isFalse();
        assertThat(BrowserKind.EDGE.chromium()).isTrue();
    }
}
