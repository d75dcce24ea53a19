package com.example;

import dev.accelbridge.api.CaseResult;
import dev.accelbridge.junit5.AccelbridgeTest;
import dev.accelbridge.junit5.Backends;
import dev.accelbridge.junit5.Browsers;
import dev.accelbridge.junit5.Iterations;
import dev.accelbridge.junit5.Model;
import dev.accelbridge.junit5.Tolerance;
import org.junit.jupiter.api.Tag;

import static dev.accelbridge.core.BackendId.WASM;
import static dev.accelbridge.junit5.AccelbridgeAssertions.assertThat;

/**
 * "My model gives the native answer on WebGPU and WASM in headless Chromium, within 2e-3": each method runs once per
 * backend (in each browser), and its invocations are named where they ran, e.g. {@code webgpu [chromium 156]}; WebGPU runs
 * on onnxruntime-web's native WebGPU EP too unless {@code @Engine} pins one ({@code webgpu [chromium 156 webgpu-ep]}).
 */
@AccelbridgeTest
@Browsers("chromium")
class ModelCompatibilityTest {

    /** A built-in suite model (a small convnet). WebNN is not in Debian's Chromium: that invocation is skipped, with why. */
    @Backends({"webgpu", "webnn-gpu", "wasm", "cpu"})
    @Model(suite = "vision")
    @Tolerance(2e-3)
    void visionModelMatchesNativeCpu(CaseResult result) {
        assertThat(result).ranAsRequested().matchesReference();
    }

    /** Your own model folder: scalar and state inputs, fed as its accelbridge.json says. */
    @Backends({"webgpu", "wasm", "cpu"})
    @Model("models/vad-like")
    @Tolerance(2e-3)
    void myModelMatchesNativeCpu(CaseResult result) {
        assertThat(result).ranAsRequested().matchesReference();
    }

    /** Along WebNN's fallback chain: where WebNN is missing the invocation says so in its name, "webnn-gpu → wasm [...]". */
    @Backends(value = "webnn-gpu", fallback = true)
    @Model("models/vad-like")
    void myModelRunsSomewhereOnTheWebNnChain(CaseResult result) {
        assertThat(result).matchesReference();
        if (result.fellBack()) {
            assertThat(result).fellBackTo(WASM);
        }
    }

    /**
     * A timing bound, against the native CPU run of the same run: run it on a quiet machine with {@code -Pperf} (the
     * default build leaves timing out). On a 2-core VM this 64×64 convnet measured 12× on wasm: the call overhead of the
     * page dominates a model this small; set the bound your own model and hardware call for.
     */
    @Tag("perf")
    @Backends("wasm")
    @Model(suite = "vision")
    @Iterations(value = 50, warmups = 10)
    void wasmIsWithinTwentyTimesNativeCpu(CaseResult result) {
        assertThat(result).ranAsRequested().p50AtMost(20.0).timesNative();
    }
}
