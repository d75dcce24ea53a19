package dev.accelbridge.bridge;

import dev.accelbridge.browser.provider.BrowserBackendProvider;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A bridge serving HTTPS with a certificate made at start, which no CA signed: each browser Accelbridge launches trusts
 * exactly that key (Chromium by its SPKI pin, Firefox by a certificate override in its profile), so its page is a secure
 * context with cross-origin isolation; a browser not told of the key does not reach the page at all.
 */
class TrustedTlsTest {
    static BridgeServer server;

    @BeforeAll
    static void start() {
        server = BridgeServer.start(BridgeOptions.builder().tls(TlsIdentity.selfSigned(List.of("localhost")))
                .joinTimeout(Duration.ofSeconds(20)).build());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @RequiresBrowser
    @Test
    void chromiumTrustsTheBridgesKeyAndItsPageIsASecureIsolatedContext() {
        assertThat(server.baseUrl().getScheme()).isEqualTo("https");
        try (BrowserBackendProvider p = new BrowserBackendProvider(server,
                LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT).build())) {
            assertThat(p.pageProbe().secureContext()).isTrue();
            assertThat(p.pageProbe().crossOriginIsolated()).isTrue();
            assertThat(p.pageProbe().wasm().threads()).isTrue();
        }
    }

    @RequiresBrowser(BrowserKind.FIREFOX)
    @Test
    void firefoxTrustsTheBridgesCertificateByItsOverride() {
        try (BrowserBackendProvider p = new BrowserBackendProvider(server,
                LaunchOptions.builder().browser(BrowserKind.FIREFOX).driver(DriverKind.PROCESS).build())) {
            assertThat(p.pageProbe().secureContext()).isTrue();
            assertThat(p.pageProbe().crossOriginIsolated()).isTrue();
        }
    }

    @RequiresBrowser
    @Test
    void aBrowserNotToldOfTheKeyNeverReachesThePage() {
        BridgeServer other = BridgeServer.start(BridgeOptions.builder().tls(TlsIdentity.selfSigned(List.of()))
                .joinTimeout(Duration.ofSeconds(5)).build());
        try (other) {
            // the pin of another key: this bridge's certificate is refused, and the page never joins
            LaunchOptions wrong = LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.PROCESS).build()
                    .withTrust(server.trustedCertificate().orElseThrow());
            try (var h = dev.accelbridge.browser.launch.BrowserLaunchers.forDriver(DriverKind.PROCESS).launch(wrong, other.pageUrl("s1"))) {
                assertThatThrownBy(() -> other.awaitPage("s1", Duration.ofSeconds(5))).hasMessageContaining("s1");
            }
        }
    }
}
