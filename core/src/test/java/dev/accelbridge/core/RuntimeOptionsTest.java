package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Session options as a dimension: written and read back, defaults left out, what applies where, and the sweep. */
class RuntimeOptionsTest {
    @Test
    void writtenInTheDeclaredOrderWithDefaultsLeftOutAndReadBack() {
        RuntimeOptions o = new RuntimeOptions(Map.of(RuntimeOption.OPTIMIZATION, "disabled", RuntimeOption.OUTPUTS, "gpu-buffer"));
        assertThat(o.id()).isEqualTo("outputs=gpu-buffer;optimization=disabled");
        assertThat(RuntimeOptions.parse(o.id())).isEqualTo(o);
        assertThat(new RuntimeOptions(Map.of(RuntimeOption.OUTPUTS, "auto", RuntimeOption.OPTIMIZATION, "all"))).isEqualTo(RuntimeOptions.DEFAULT);
        assertThat(RuntimeOptions.DEFAULT.id()).isEqualTo("default");
        assertThat(RuntimeOptions.parse(null)).isEqualTo(RuntimeOptions.DEFAULT);
        assertThat(Dimensions.RUNTIME_OPTIONS.parse(null)).as("a record from before the dimension ran at the defaults")
                .isEqualTo(RuntimeOptions.DEFAULT);
        assertThatThrownBy(() -> RuntimeOptions.parse("outputs=tpu")).isInstanceOf(AccelbridgeException.class).hasMessageContaining("no value");
        assertThatThrownBy(() -> RuntimeOptions.parse("speed=max")).hasMessageContaining("Unknown runtime option");
    }

    @Test
    void anOptionThatDoesNotApplyToABackendLeavesItsCaseTheSame() {
        RuntimeOptions o = RuntimeOptions.parse("outputs=gpu-buffer;optimization=basic");
        assertThat(o.on(BackendId.WEBGPU)).isEqualTo(o);
        assertThat(o.on(BackendId.WASM).id()).isEqualTo("optimization=basic");
        assertThat(RuntimeOptions.parse("outputs=cpu").on(BackendId.CPU)).isEqualTo(RuntimeOptions.DEFAULT);
        ModelSpec spec = new ModelSpec(ModelFamily.TEXT, "m", java.nio.file.Path.of("m.onnx"), "ab", 17, 1, List.of(), List.of(), List.of(), "t", Double.NaN);
        ModelCase mc = new ModelCase(spec, "set", List.of(), java.util.Optional.empty(), Map.of()).withRuntimeOptions(o);
        assertThat(CaseId.of(mc, BackendId.WASM, LaneId.NATIVE).runtimeOptions().id()).isEqualTo("optimization=basic");
        assertThat(CaseId.of(mc, BackendId.WEBGPU, LaneId.NATIVE).key()).contains("/webgpu/outputs=gpu-buffer;optimization=basic/");
        assertThat(CaseId.of(mc.withRuntimeOptions(RuntimeOptions.DEFAULT), BackendId.WEBGPU, LaneId.NATIVE).key())
                .as("a default case keeps the key it always had").doesNotContain("default");
    }

    @Test
    void theSweepIsEveryCombinationInTheOrderGiven() {
        List<RuntimeOptions> s = RuntimeOptions.sweep(Map.of(RuntimeOption.OUTPUTS, List.of("cpu", "gpu-buffer"),
                RuntimeOption.OPTIMIZATION, List.of("all", "disabled")));
        assertThat(s).extracting(RuntimeOptions::id).containsExactly("outputs=cpu", "outputs=cpu;optimization=disabled",
                "outputs=gpu-buffer", "outputs=gpu-buffer;optimization=disabled");
        assertThat(RuntimeOptions.sweep(Map.of())).containsExactly(RuntimeOptions.DEFAULT);
    }
}
