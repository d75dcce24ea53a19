package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.suites.OddModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Will it fit? A declared 1.2 GB intermediate is above SwiftShader's WebGPU buffer limits (1 GiB here): the WebGPU hop
 * is UNSUPPORTED before it loads anything, naming the limit, the adapter and the tensor. Natively it runs; on wasm it
 * fits the estimate but faults at run time, which is reported as a memory fault naming the limit.
 */
class FitCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void aTensorAboveTheAdaptersBufferLimitIsUnsupportedOnWebGpuAtOnceAndRunsOnWasm() throws Exception {
        Path model = OddModels.hugeActivation(tmp.resolve("models"));
        CliRunner.Result r = CliRunner.run("run", "--model", model.toString(), "--backends", "webgpu,wasm,cpu", "--browser", "chromium", "--engines", "jsep",
                "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--no-report", "--no-bisect",
                "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        Map<String, JsonNode> by = new HashMap<>();
        new ObjectMapper().readTree(r.out()).forEach(n -> by.put(n.get("requested").asText(), n));
        JsonNode gpu = by.get("webgpu");
        assumeTrue(gpu.get("status").asText().equals("UNAVAILABLE") == false, "no WebGPU adapter in this Chromium");
        // webgpu's own hop is refused before loading (its chain then moves on to wasm, which meets the next finding)
        assertThat(gpu.get("reason").asText()).contains("webgpu unsupported: fit: ", "activation 'h' has 1,200,000,000 bytes",
                "maxStorageBufferBindingSize of 1,073,741,824 bytes", "swiftshader", model.resolve("model.onnx").toString());
        // within wasm32's 4 GiB by the estimate, onnxruntime-web 1.30's wasm still faults on it: reported as a memory
        // fault naming the limit, not as a bare RuntimeError
        JsonNode wasm = by.get("wasm");
        assertThat(wasm.get("status").asText()).isEqualTo("FAILED");
        assertThat(wasm.get("reason").asText()).contains("run: Out of memory (or a memory fault)", "memory access out of bounds",
                "wasm32 memory is at most 4 GiB");
        assertThat(by.get("cpu").get("status").asText()).isEqualTo("PASSED");
    }
}
