package dev.accelbridge.run;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.suites.HalfPrecisionModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where half precision ran in the page: onnxruntime-web's wasm backend is ONNX Runtime's CPU provider, which inserts
 * casts to float32 around the nodes it has no float16 kernel for. An fp16 variant that runs there is labelled computed
 * in float32 in part, read off the profiler's node events of one more untimed session; its fp32 original is not checked.
 */
@RequiresBrowser
class HalfPrecisionPageTest {
    @TempDir
    static Path dir;
    static BridgeServer server;
    static BrowserBackendProvider chromium;

    @BeforeAll
    static void start() {
        server = BridgeServer.start(BridgeOptions.defaults());
        chromium = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT).build());
    }

    @AfterAll
    static void stop() {
        chromium.close();
        server.close();
    }

    private static Execution wasm(ModelCase mc) {
        return chromium.execute(new ExecutionRequest(BackendId.WASM, mc, 0, 2, Duration.ofMinutes(1)));
    }

    @Test
    void anFp16VariantOnWasmIsLabelledComputedInFloat32() throws Exception {
        ModelCase fp16 = HalfPrecisionModels.caseOf(HalfPrecisionModels.layerNormFp16(dir), Precision.FP16, 1)
                .withRuntimeOptions(RuntimeOptions.parse("optimization=disabled"));
        Execution e = wasm(fp16);
        assertThat(e.outputs()).isNotEmpty();
        assertThat(e.analysis().computed()).isNotNull();
        assertThat(e.analysis().computed().inFloat32()).isTrue();
        assertThat(e.analysis().computed().insertedCasts()).isEqualTo(5);
        assertThat(e.analysis().computed().basis()).startsWith("onnxruntime-web's session profiler in the page: 5 inserted cast node(s)");
        assertThat(e.analysis().profile()).as("no profile was asked for: only the precision was read").isNull();

        Execution fp32 = wasm(HalfPrecisionModels.caseOf(dir.resolve("ln.onnx"), Precision.FP32, 1));
        assertThat(fp32.analysis().computed()).isNull();
    }
}
