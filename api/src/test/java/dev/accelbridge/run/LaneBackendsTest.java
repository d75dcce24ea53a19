package dev.accelbridge.run;

import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.SamplingDepth;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which lanes a software adapter leaves out of a run, on constructed hosts (with a GPU and without one): pure logic over
 * the plan's targets.
 */
class LaneBackendsTest {
    private static Targets defaults(UnaryOperator<Targets.Builder> more) {
        return more.apply(Targets.builder().setBackends(PlanDefaults.backends(false)).optBrowsers(List.of(BrowserKind.CHROMIUM,
                BrowserKind.CHROMIUM_SHELL, BrowserKind.FIREFOX)).optDriver(DriverKind.PLAYWRIGHT)).build();
    }

    private static List<String> lanes(LaneBackends b) {
        return b.browserLanes().stream().map(l -> l.browser().id() + " " + l.version(OrtWebEngine.AXIS) + " "
                + b.on(l).stream().map(BackendId::id).toList()).toList();
    }

    @Test
    void withNoGpuTheSecondBlinkBuildLeavesWebGpuOutOnEachEngineAndSaysSo() {
        LaneBackends b = LaneBackends.of(defaults(t -> t), SamplingDepth.AUTO, false);
        assertThat(lanes(b)).containsExactly(
                "chromium jsep [webgpu, webnn-gpu, webnn-cpu, webnn-npu, wasm]",
                "chromium webgpu-ep [webgpu]",
                "chromium-shell jsep [webnn-gpu, webnn-cpu, webnn-npu, wasm]",
                // the shell's native-EP lane ran WebGPU alone: it is not launched at all
                "firefox jsep [webgpu, webnn-gpu, webnn-cpu, webnn-npu, wasm]",
                "firefox webgpu-ep [webgpu]");
        assertThat(b.leftOut()).singleElement().asString()
                .startsWith("left out: WebGPU on chromium-shell+ort-web@").contains("+engine@webgpu-ep: ")
                .contains("software adapter (SwiftShader)", "repeats chromium's", "--sampling full runs it");
        // the lane a planned one turns out to be (its browser's version known) is judged by the same key
        LaneId shell = defaults(t -> t).browserLanes().stream().filter(l -> l.browser() == BrowserKind.CHROMIUM_SHELL).findFirst()
                .orElseThrow().with("browserMajor", "153");
        assertThat(b.on(shell)).doesNotContain(BackendId.WEBGPU).contains(BackendId.WASM);
    }

    @Test
    void aHostWithAGpuFullSamplingAndBrowsersElsewhereKeepEveryLaneWhole() {
        List<String> whole = lanes(LaneBackends.of(defaults(t -> t), SamplingDepth.AUTO, true));
        assertThat(whole).hasSize(6).contains("chromium-shell webgpu-ep [webgpu]");
        assertThat(LaneBackends.of(defaults(t -> t), SamplingDepth.AUTO, true).leftOut()).isEmpty();
        assertThat(lanes(LaneBackends.of(defaults(t -> t), SamplingDepth.FULL, false))).isEqualTo(whole);
        assertThat(lanes(LaneBackends.of(defaults(t -> t.optGrid(URI.create("http://grid:4444"))), SamplingDepth.AUTO, false)))
                .isEqualTo(whole);
        assertThat(lanes(LaneBackends.of(defaults(t -> t.optDriver(DriverKind.MANUAL)), SamplingDepth.AUTO, false))).isEqualTo(whole);
        // the verdict's window everywhere still leaves the repeat out
        assertThat(lanes(LaneBackends.of(defaults(t -> t), SamplingDepth.VERDICT, false))).hasSize(5);
    }

    @Test
    void theSoftwareAdapterAskedForOnAGpuHostRepeatsTooAndTheHardwareOneNever() {
        assertThat(lanes(LaneBackends.of(defaults(t -> t.optWebGpuAdapter(WebGpuAdapter.SOFTWARE)), SamplingDepth.AUTO, true))).hasSize(5);
        assertThat(lanes(LaneBackends.of(defaults(t -> t.optWebGpuAdapter(WebGpuAdapter.HARDWARE)), SamplingDepth.AUTO, false))).hasSize(6);
    }

    @Test
    void oneBlinkBuildKeepsItsWebGpuAndSoDoOtherReleases() {
        Targets shellAlone = Targets.builder().setBackends(List.of(BackendId.WEBGPU)).optBrowsers(List.of(BrowserKind.CHROMIUM_SHELL)).build();
        assertThat(lanes(LaneBackends.of(shellAlone, SamplingDepth.AUTO, false))).containsExactly(
                "chromium-shell jsep [webgpu]", "chromium-shell webgpu-ep [webgpu]");
        // the same browser at two onnxruntime-web releases runs two Dawn callers, not a repeat
        Targets releases = Targets.builder().setBackends(List.of(BackendId.WEBGPU)).optBrowsers(List.of(BrowserKind.CHROMIUM))
                .optVersions("ortWebVersion", List.of("1.22.0", "1.23.0")).optVersions(OrtWebEngine.AXIS, List.of("jsep")).build();
        assertThat(LaneBackends.of(releases, SamplingDepth.AUTO, false).browserLanes()).hasSize(2);
        assertThat(LaneBackends.of(releases, SamplingDepth.AUTO, false).leftOut()).isEmpty();
    }
}
