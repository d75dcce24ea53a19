package dev.accelbridge.browser.provider;

import dev.accelbridge.core.OrtWebEngine;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether a case's engine was observed (pure): found when tried, the engine check passed in silence when the page named no
 * WebAssembly module, so a lane's engine read as observed when it was only the one asked for.
 */
class EngineObservedTest {
    @Test
    void aPageThatNamesNoModuleLeavesTheEngineAsAskedAndSaysSo() {
        assertThat(EngineObserved.unobserved(Optional.of(OrtWebEngine.WEBGPU_EP), List.of())).hasValueSatisfying(w ->
                assertThat(w).contains("named no onnxruntime-web WebAssembly module").contains("(webgpu-ep) is the one asked for, not one observed"));
        assertThat(EngineObserved.unobserved(Optional.of(OrtWebEngine.WEBGPU_EP), List.of("ort-wasm-simd-threaded.asyncify.wasm"))).isEmpty();
        assertThat(EngineObserved.unobserved(Optional.empty(), List.of())).as("no engine asked: nothing to observe").isEmpty();
    }
}
