package dev.accelbridge.bisect;

import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.LaneId;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What bisect-versions is asked, read from its options: pure logic, no I/O. */
class VersionRangeTest {
    /** The options as bisect-versions hands them over. */
    private static VersionRange parse(String ortWeb, String browser, String ort, BackendId backend) {
        Map<String, String> byAxis = new HashMap<>();
        byAxis.put("--ort-web", ortWeb);
        byAxis.put("--ort", ort);
        return VersionRange.parse(byAxis, browser, backend);
    }

    @Test
    void eachAxisIsReadWithTheLaneItsOtherPartsStayAt() {
        VersionRange web = parse("1.17.0..1.30.0", null, null, BackendId.WEBGPU);
        assertThat(web.axis().name()).isEqualTo("ortWebVersion");
        assertThat(List.of(web.good(), web.bad())).containsExactly("1.17.0", "1.30.0");
        assertThat(web.browser()).isEqualTo(BrowserSpec.of(BrowserKind.CHROMIUM));
        assertThat(parse("1.17.0..1.30.0", null, null, BackendId.WEBNN_CPU).browser().kind())
                .as("WebNN runs in the shell").isEqualTo(BrowserKind.CHROMIUM_SHELL);
        VersionRange shell = parse("1.22.0", "chromium-shell@141..153", null, BackendId.WEBNN_CPU);
        assertThat(shell.axis().name()).isEqualTo("browserMajor");
        assertThat(List.of(shell.good(), shell.bad(), shell.lane().version("ortWebVersion"))).containsExactly("141", "153", "1.22.0");
        assertThat(shell.at(RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WASM))), "150").build().browserLanes())
                .extracting(LaneId::key).containsExactly("chromium-shell@150+ort-web@1.22.0");
        VersionRange nat = parse(null, null, "1.29.0..1.20.0", BackendId.CPU);
        assertThat(nat.axis().name()).isEqualTo("ortVersion");
        assertThat(nat.good()).as("either end may be the older").isEqualTo("1.29.0");
        assertThat(nat).hasToString("ONNX Runtime 1.29.0..1.20.0");
        assertThat(VersionRange.parse(Map.of("ort-web", "1.17.0..1.18.0"), null, BackendId.WASM).axis().name())
                .as("an axis by its name, as --axis gives it").isEqualTo("ortWebVersion");
    }

    @Test
    void aStepRunsOneLaneOnOneEngine() {
        // with no engine named a plan runs WebGPU on JSEP and on the native EP: a step holds the pinned engine, or the one given
        VersionRange web = parse("1.17.0..1.30.0", null, null, BackendId.WEBGPU);
        assertThat(web.at(RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WEBGPU))), "1.22.0").build().browserLanes())
                .singleElement().satisfies(l -> assertThat(l.version("ortWebEngine")).isEqualTo("jsep"));
        VersionRange ep = VersionRange.parse(Map.of("--ort-web", "1.22.0..1.30.0", "--engines", "webgpu-ep"), null, BackendId.WEBGPU);
        assertThat(ep.at(RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WEBGPU))), "1.22.0").build().browserLanes())
                .extracting(LaneId::key).singleElement().asString().endsWith("+ort-web@1.22.0+engine@webgpu-ep");
    }

    @Test
    void whatCannotBeBisectedIsRefusedNamingTheFix() {
        assertThatThrownBy(() -> parse("1.17.0..1.18.0", null, "1.19.0..1.20.0", BackendId.WASM))
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("exactly one range to bisect, got 2");
        assertThatThrownBy(() -> parse("1.22.0", null, null, BackendId.WASM)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> parse(null, null, "1.19.0..1.20.0", BackendId.WASM))
                .hasMessageContaining("does not run under ONNX Runtime");
        assertThatThrownBy(() -> parse("1.17.0..1.18.0", null, null, BackendId.CPU))
                .hasMessageContaining("does not run under onnxruntime-web");
        assertThatThrownBy(() -> parse(null, "chromium@141..153", null, BackendId.WASM))
                .hasMessageContaining("Only the headless shell");
        assertThatThrownBy(() -> parse("1.22.0;rm", "chromium-shell@141..153", null, BackendId.WASM))
                .hasMessageContaining("not a version");
        assertThatThrownBy(() -> VersionRange.parse(Map.of("colour", "1..2"), null, BackendId.WASM))
                .hasMessageContaining("No version axis is called colour");
    }

    @Test
    void theVersionsBetweenTwoEndsComeInOrderAndAnEndNotAmongThemIsNamed() {
        // from what this machine has: the pinned onnxruntime-web and the build's 1.17.0 and 1.18.0 at least
        assertThat(parse("1.17.0..1.18.0", null, null, BackendId.WASM).walk(false, true)).containsExactly("1.17.0", "1.18.0");
        assertThat(parse("1.18.0..1.17.0", null, null, BackendId.WASM).walk(false, true)).containsExactly("1.18.0", "1.17.0");
        assertThatThrownBy(() -> parse("1.17.0..1.17.9", null, null, BackendId.WASM).walk(false, true))
                .hasMessageContaining("1.17.9 is not among the versions this machine has").hasMessageContaining("nearest: 1.17.0");
    }
}
