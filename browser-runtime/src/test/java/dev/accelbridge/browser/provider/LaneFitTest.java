package dev.accelbridge.browser.provider;


import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.suites.ModelFootprint;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fit rule on constructed footprints and probe answers (pure logic: no model, no browser). */
class LaneFitTest {
    private static PageProbe probe(long maxBuffer, long maxBinding) throws Exception {
        return PageProbe.parse(new ObjectMapper().readTree("{\"userAgent\":\"x\",\"webgpu\":{\"present\":true,\"adapterFound\":true,"
                + "\"vendor\":\"google\",\"architecture\":\"swiftshader\",\"isFallbackAdapter\":true,\"features\":[],"
                + "\"limits\":{\"maxBufferSize\":" + maxBuffer + ",\"maxStorageBufferBindingSize\":" + maxBinding + "}}}"));
    }

    @Test
    void wasm32sFourGibibytesBoundEveryBrowserBackend() throws Exception {
        ModelFootprint fp = new ModelFootprint(1_000, 3_000_000_000L, List.of(
                new ModelFootprint.Tensor("w", "weight", 3_000_000_000L), new ModelFootprint.Tensor("a", "activation", 1_500_000_000L),
                new ModelFootprint.Tensor("x", "input", 4)), true);
        for (BackendId b : List.of(BackendId.WASM, BackendId.WEBNN_CPU, BackendId.WEBGPU)) {
            assertThat(LaneFit.problem(fp, b, probe(1L << 40, 1L << 40))).get().asString()
                    .contains("4,500,001,004 bytes in onnxruntime-web's wasm32 memory", "largest activation 'a' 1,500,000,000",
                            "4,294,967,296 bytes (4 GiB)");
        }
        assertThatThrownBy(() -> LaneFit.check(fp, BackendId.WASM, probe(1, 1), " [chromium]"))
                .isInstanceOf(UnsupportedModelException.class)
                .satisfies(e -> assertThat(((BackendException) e).phase()).isEqualTo(BackendException.Phase.FIT));
    }

    @Test
    void onWebGpuTheLargestTensorMustFitTheAdaptersBufferLimits() throws Exception {
        ModelFootprint fp = new ModelFootprint(1_000, 300_000_000L, List.of(new ModelFootprint.Tensor("w", "weight", 300_000_000L)), false);
        assertThat(LaneFit.problem(fp, BackendId.WEBGPU, probe(1L << 30, 128L << 20))).get().asString()
                .contains("weight 'w' has 300,000,000 bytes, above the WebGPU adapter's maxStorageBufferBindingSize of 134,217,728");
        assertThat(LaneFit.problem(fp, BackendId.WEBGPU, probe(256L << 20, 1L << 30))).get().asString().contains("maxBufferSize of 268,435,456");
        assertThat(LaneFit.problem(fp, BackendId.WEBGPU, probe(1L << 30, 1L << 30))).isEmpty();
        assertThat(LaneFit.problem(fp, BackendId.WASM, probe(1, 1))).as("buffer limits are WebGPU's only").isEmpty();
    }
}
