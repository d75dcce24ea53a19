package dev.accelbridge.browser.observe;

import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The observer's browser reads its WebGPU adapter as a lane's page probe does, on its blank page before the app is
 * opened: what the hardware search ({@code HardwareAdapterSearch}, the lanes' own, tested on constructed adapters there)
 * decides on. Here, asked for the software adapter, it reads SwiftShader's, a software adapter, and is not refused.
 */
@RequiresBrowser
class ObserverBrowserTest {
    @Test
    void theBlankPagesAdapterIsReadAsALanesProbeReadsIt() {
        ObserverBrowser.Opened opened = ObserverBrowser.open(BrowserKind.CHROMIUM, WebGpuAdapter.SOFTWARE);
        try (var visit = opened.visit()) {
            assertThat(opened.refused()).isEmpty();
            PageProbe.WebGpu g = ObserverBrowser.adapter(visit);
            assertThat(g.adapterFound()).as(g.evidence()).isTrue();
            assertThat(g.software()).isTrue();
            assertThat(g.label()).isEqualTo("google swiftshader (software adapter)");
        }
    }
}
