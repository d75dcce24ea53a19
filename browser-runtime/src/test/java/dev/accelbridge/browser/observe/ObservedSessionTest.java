package dev.accelbridge.browser.observe;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.OrtWebEngine;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which backend and engine an observed session names, from what the page appended (pure logic, no page). */
class ObservedSessionTest {
    private static Observed.Session session(List<String> providers, List<Map<String, String>> options, String engine) {
        return onContext(providers, options, engine, Map.of());
    }

    private static Observed.Session onContext(List<String> providers, List<Map<String, String>> options, String engine, Map<String, String> context) {
        return new Observed.Session(1, null, 0, providers, options, engine, null, null, true, false, 0, false, List.of(), Map.of(), context,
                null, null, null, null, List.of());
    }

    @Test
    void theProvidersTheAppAppendedNameTheBackend() {
        assertThat(session(List.of(), List.of(), "wasm").backend()).contains(BackendId.WASM);
        assertThat(session(List.of("JS"), List.of(Map.of()), "jsep").backend()).contains(BackendId.WEBGPU);
        assertThat(session(List.of("WebGPU"), List.of(Map.of()), "webgpu-ep").backend()).contains(BackendId.WEBGPU);
    }

    @Test
    void aWebNnSessionIsOnTheDeviceTypeTheAppGaveItAndCpuWhenItGaveNone() {
        assertThat(session(List.of("WebNN"), List.of(Map.of("deviceType", "gpu")), "wasm").backend()).contains(BackendId.WEBNN_GPU);
        assertThat(session(List.of("WebNN"), List.of(Map.of("deviceType", "npu")), "wasm").backend()).contains(BackendId.WEBNN_NPU);
        assertThat(session(List.of("WebNN"), List.of(Map.of()), "wasm").backend()).contains(BackendId.WEBNN_CPU);
        assertThat(session(List.of("WebNN"), List.of(Map.of("deviceType", "tpu")), "wasm").backend()).as("a type not known").isEmpty();
    }

    @Test
    void aWebNnSessionIsOnTheDeviceOfTheContextItRanOn() {
        // found when tried: a session on the app's own MLContext for the GPU was judged as webnn-cpu
        assertThat(onContext(List.of("WebNN"), List.of(Map.of()), "wasm", Map.of("deviceType", "gpu")).backend()).contains(BackendId.WEBNN_GPU);
        assertThat(onContext(List.of("WebNN"), List.of(Map.of()), "wasm", Map.of("gpuDevice", "true")).backend()).contains(BackendId.WEBNN_GPU);
        // the context's device over the options': onnxruntime-web runs the session on the context it was handed
        assertThat(onContext(List.of("WebNN"), List.of(Map.of("deviceType", "npu")), "wasm", Map.of("deviceType", "cpu")).backend())
                .contains(BackendId.WEBNN_CPU);
        assertThat(onContext(List.of("WebNN"), List.of(Map.of()), "wasm", Map.of("powerPreference", "high-performance")).backend())
                .as("a context made for no device type: Chromium's default").contains(BackendId.WEBNN_CPU);
    }

    @Test
    void theEngineIsTheBuildsAndPlainWasmHasNone() {
        assertThat(session(List.of(), List.of(), "jsep").ortWebEngine()).contains(OrtWebEngine.JSEP);
        assertThat(session(List.of(), List.of(), "webgpu-ep").ortWebEngine()).contains(OrtWebEngine.WEBGPU_EP);
        assertThat(session(List.of(), List.of(), "wasm").ortWebEngine()).isEmpty();
    }
}
