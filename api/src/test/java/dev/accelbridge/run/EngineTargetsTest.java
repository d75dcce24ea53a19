package dev.accelbridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.RuntimeOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which engines a plan's browser lanes run and which backends each runs: pure logic over the declared axis. */
class EngineTargetsTest {
    private static Targets targets(Map<String, List<String>> versions) {
        return Targets.builder().setBackends(List.of(BackendId.WEBGPU, BackendId.WASM, BackendId.CPU))
                .optBrowsers(List.of(BrowserKind.CHROMIUM, BrowserKind.FIREFOX)).optVersions(versions).build();
    }

    private static String engineOf(LaneId l) {
        return l.version(OrtWebEngine.AXIS);
    }

    @Test
    void withNoEngineNamedWebGpuRunsOnBothAndEveryOtherBackendOnJsep() {
        Targets t = targets(Map.of());
        assertThat(t.browserLanes()).extracting(l -> l.browser().id() + " " + engineOf(l))
                .containsExactly("chromium jsep", "chromium webgpu-ep", "firefox jsep", "firefox webgpu-ep");
        for (LaneId l : t.browserLanes()) {
            assertThat(t.backendsOn(l)).as(l.id()).isEqualTo(engineOf(l).equals("jsep") ? List.of(BackendId.WEBGPU, BackendId.WASM)
                    : List.of(BackendId.WEBGPU));
        }
        assertThat(t.nativeLanes()).singleElement().satisfies(l -> assertThat(t.backendsOn(l)).containsExactly(BackendId.CPU));
    }

    @Test
    void namedEnginesRunEveryBackendEach() {
        Targets t = targets(Map.of(OrtWebEngine.AXIS, List.of("jsep", "webgpu-ep")));
        assertThat(t.browserLanes()).hasSize(4).allSatisfy(l -> assertThat(t.backendsOn(l)).containsExactly(BackendId.WEBGPU, BackendId.WASM));
        Targets jsep = targets(Map.of(OrtWebEngine.AXIS, List.of("jsep")));
        assertThat(jsep.browserLanes()).extracting(EngineTargetsTest::engineOf).containsOnly("jsep");
    }

    @Test
    void aNativeEpOptionIsRefusedWhereNoLaneRunsTheNativeEpAndDroppedFromJsepCases() {
        Workload.Builder validation = Workload.builder().optRuntimeOptions(List.of(new RuntimeOptions(Map.of(RuntimeOption.VALIDATION, "full"))));
        assertThatThrownBy(() -> RunPlan.builder().workload(w -> w.optRuntimeOptions(validation.build().runtimeOptions()))
                .targets(x -> x.setBackends(List.of(BackendId.WEBGPU)).optVersions(OrtWebEngine.AXIS, List.of("jsep"))).build())
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("validation=full applies to no case of this run");
        // the default engines include the native EP's WebGPU lane: taken
        assertThat(RunPlan.builder().workload(w -> w.optRuntimeOptions(validation.build().runtimeOptions()))
                .targets(x -> x.setBackends(List.of(BackendId.WEBGPU))).build().browserLanes()).hasSize(2);
        RuntimeOptions ro = new RuntimeOptions(Map.of(RuntimeOption.VALIDATION, "full", RuntimeOption.OUTPUTS, "gpu-buffer"));
        LaneId jsep = LaneId.of(BrowserKind.CHROMIUM).with(OrtWebEngine.AXIS, "jsep");
        LaneId ep = LaneId.of(BrowserKind.CHROMIUM).with(OrtWebEngine.AXIS, "webgpu-ep");
        assertThat(ro.on(BackendId.WEBGPU, jsep).id()).isEqualTo("outputs=gpu-buffer");
        assertThat(ro.on(BackendId.WEBGPU, ep).id()).isEqualTo("outputs=gpu-buffer;validation=full");
        assertThat(ro.on(BackendId.WASM, ep).id()).isEqualTo("default");
        // a page opened by hand names no engine: its own engine takes what it takes
        assertThat(ro.on(BackendId.WEBGPU, LaneId.of(BrowserKind.CHROMIUM)).id()).isEqualTo("outputs=gpu-buffer;validation=full");
    }
}
