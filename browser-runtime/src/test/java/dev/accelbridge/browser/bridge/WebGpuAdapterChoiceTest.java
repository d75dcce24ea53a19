package dev.accelbridge.browser.bridge;

import dev.accelbridge.browser.bridge.provider.BrowserBackendProvider;
import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adapter choice on the real headless shell, on a host whose only WebGPU adapter is SwiftShader: asked for the GPU's,
 * the lane tries every hardware flag set, refuses the software adapter each gave, and says so as WebGPU's evidence
 * (wasm still runs); asked for software, it gets SwiftShader by the flag that forces it.
 */
@RequiresBrowser(BrowserKind.CHROMIUM_SHELL)
class WebGpuAdapterChoiceTest {
    static BridgeServer server;

    @BeforeAll
    static void start() {
        server = BridgeServer.start(BridgeOptions.defaults());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void askedForTheGpusAdapterALaneRefusesSoftwareWithWhatEachFlagSetGave() {
        try (BrowserBackendProvider p = provider(WebGpuAdapter.HARDWARE)) {
            Availability gpu = p.probe(BackendId.WEBGPU);
            assertThat(gpu.available()).isFalse();
            assertThat(gpu.evidence()).startsWith("no hardware WebGPU adapter (--webgpu-adapter hardware): ");
            for (var set : ChromiumFlags.HARDWARE_WEBGPU) {
                assertThat(gpu.evidence()).contains(String.join(" ", set) + " gave google swiftshader (software adapter)");
            }
            ModelCase mc = SuiteFixtures.cases(ModelFamily.VISION).get(0);
            SuiteFixtures.runAndCompare(p, BackendId.WASM, mc);
        }
    }

    @Test
    void askedForSoftwareALaneGetsSwiftShader() {
        try (BrowserBackendProvider p = provider(WebGpuAdapter.SOFTWARE)) {
            Availability gpu = p.probe(BackendId.WEBGPU);
            assertThat(gpu.available()).as(gpu.evidence()).isTrue();
            assertThat(p.pageProbe().webgpu().software()).isTrue();
            assertThat(p.pageProbe().webgpu().architecture()).isEqualTo("swiftshader");
        }
    }

    private static BrowserBackendProvider provider(WebGpuAdapter adapter) {
        return new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).driver(DriverKind.PLAYWRIGHT)
                .webGpuAdapter(adapter).build());
    }
}
