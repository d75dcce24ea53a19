package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DiagnosticTest {
    private static final CaseId ID = new CaseId(ModelFamily.TEXT, "bert", "sha", "s", "ids=1x8", Precision.FP32, 1,
            BackendId.WEBGPU, LaneId.of(BrowserKind.CHROMIUM));

    private static Provenance chromium(Boolean software) {
        return new Provenance("h", "fp", "Linux", "chromium", "156", "playwright", "google swiftshader", software,
                List.of("webgpu"), Map.of(), 2);
    }

    private static RunResult result(Status status, BackendId actual, Parity parity, List<FallbackHop> hops, List<String> warnings,
                                    MemoryUsage mem, Boolean software) {
        Timings t = status.executed() ? Timings.of(1, 1, 0, new double[]{1, 1, 1, 1, 1, 1}) : null;
        return RunResult.of("r", Instant.EPOCH, ID, t != null ? new Outcome.Ran(actual, t, Optional.ofNullable(parity))
                : actual != null ? new Outcome.Stopped(actual, Optional.ofNullable(parity)) : new Outcome.NotRun(), status, "because", chromium(software), mem, hops, warnings);
    }

    @Test
    void everyProblemBecomesADiagnosticWithSeverityAndAction() {
        Parity bad = new Parity(0.5, 0.5, 0.9, 1e-3, false, "native-cpu");
        List<Diagnostic> wrong = result(Status.WRONG_OUTPUT, BackendId.WEBGPU, bad, List.of(), List.of(), new MemoryUsage(1, 1, 1), true)
                .diagnostics();
        assertThat(wrong.get(0).severity()).isEqualTo(Severity.CRITICAL);
        assertThat(wrong.get(0).code()).isEqualTo("wrong-output");
        assertThat(wrong.get(0).message()).contains("max abs err 0.500");
        assertThat(wrong).extracting(Diagnostic::code).contains("software-adapter");

        assertThat(result(Status.FAILED, null, null, List.of(), List.of(), MemoryUsage.UNKNOWN, null).diagnostics())
                .singleElement().satisfies(d -> {
                    assertThat(d.severity()).isEqualTo(Severity.ERROR);
                    assertThat(d.action()).contains("--verbose");
                });
        assertThat(result(Status.UNAVAILABLE, null, null, List.of(), List.of(), MemoryUsage.UNKNOWN, null).diagnostics())
                .extracting(Diagnostic::severity).containsExactly(Severity.WARNING);

        List<Diagnostic> fb = result(Status.FELL_BACK, BackendId.WASM, new Parity(0, 0, 1, 1e-3, true, "native-cpu"),
                List.of(new FallbackHop(BackendId.WEBGPU, false, "no adapter"), new FallbackHop(BackendId.WASM, true, "ok")),
                List.of("2 nodes not placed on WebGPU"), MemoryUsage.UNKNOWN, null).diagnostics();
        assertThat(fb).extracting(Diagnostic::code).containsExactly("fell-back", "runtime-warning", "memory-unknown");
        assertThat(fb).extracting(Diagnostic::severity).isSorted();
    }

    @Test
    void onlyAWarningAboutPlacementGetsTheOpSupportAction() {
        // found when tried: "webgpu adapter missing", and an observed row's coverage, were told to check the op support
        List<Diagnostic> d = result(Status.PASSED, BackendId.WEBGPU, new Parity(0, 0, 1, 1e-3, true, "native-cpu"), List.of(),
                List.of("2 nodes not placed on WebGPU", "Some nodes were not assigned to the preferred execution providers",
                        "webgpu adapter missing", "its verdict covers 4 of its 8 runs"), new MemoryUsage(1, 1, 1), false).diagnostics();
        assertThat(d).filteredOn(x -> x.code().equals("runtime-warning")).extracting(Diagnostic::action).containsExactly(
                "nodes off the requested provider add copies and cost speed: check the op support of webgpu",
                "nodes off the requested provider add copies and cost speed: check the op support of webgpu",
                "read it with this row's verdict and figures: it qualifies what they say",
                "read it with this row's verdict and figures: it qualifies what they say");
    }

    @Test
    void aCleanPassOnTheCpuReferenceHasNothingToSay() {
        CaseId cpu = new CaseId(ModelFamily.TEXT, "bert", "sha", "s", "ids=1x8", Precision.FP32, 1, BackendId.CPU, LaneId.NATIVE);
        RunResult r = RunResult.of("r", Instant.EPOCH, cpu, new Outcome.Ran(BackendId.CPU, Timings.of(1, 1, 0, new double[]{1, 1, 1, 1, 1, 1}), Optional.empty()), Status.PASSED, null, null, new MemoryUsage(1, 2, 3), List.of(), List.of());
        assertThat(r.diagnostics()).isEmpty();
    }

    /**
     * A half-precision variant its runtime computed in float32 in part gets its own diagnostic saying so; one computed in its
     * declared type, or not checked, gets none.
     */
    @Test
    void aVariantComputedInFloat32IsSaidAsSuch() {
        CaseId fp16 = new CaseId(ModelFamily.TEXT, "bert", "sha", "s", "ids=1x8", Precision.FP16, 1, BackendId.CPU, LaneId.NATIVE);
        RunResult r = RunResult.of("r", Instant.EPOCH, fp16, new Outcome.Ran(BackendId.CPU, Timings.of(1, 1, 0, new double[]{1, 1, 1, 1, 1, 1}), Optional.empty()), Status.PASSED, null, null, new MemoryUsage(1, 2, 3), List.of(), List.of());
        RunResult inFloat32 = r.withAnalysis(Analysis.NONE.withComputed(ComputedPrecision.inFloat32InPart(5, "the optimized graph")));
        assertThat(inFloat32.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.code()).isEqualTo("computed-in-float32");
            assertThat(d.severity()).isEqualTo(Severity.INFO);
            assertThat(d.message()).startsWith("cpu computed in float32 in part: the runtime inserted 5 cast(s)");
        });
        assertThat(r.withAnalysis(Analysis.NONE.withComputed(ComputedPrecision.asDeclared("the optimized graph"))).diagnostics()).isEmpty();
        assertThat(r.diagnostics()).isEmpty();
    }

    @Test
    void aFloorAFewSamplesAndADriftAreSaid() {
        CaseId cpu = new CaseId(ModelFamily.TEXT, "bert", "sha", "s", "ids=1x8", Precision.FP32, 1, BackendId.CPU, LaneId.NATIVE);
        double[] drift = new double[40];
        java.util.Arrays.setAll(drift, i -> i < 20 ? 14 + i % 3 * 0.1 : 10 + i % 3 * 0.1);
        Timings t = Timings.of(1, 1, 0, drift);
        RunResult notSteady = RunResult.of("r", Instant.EPOCH, cpu, new Outcome.Ran(BackendId.CPU, t, Optional.empty()), Status.PASSED, null, null,
                new MemoryUsage(1, 2, 3), List.of(), List.of());
        assertThat(notSteady.diagnostics()).extracting(Diagnostic::code).containsExactly("not-steady");
        RunResult few = RunResult.of("r", Instant.EPOCH, cpu, new Outcome.Ran(BackendId.CPU, Timings.of(1, 1, 0, new double[]{1, 2}), Optional.empty()), Status.PASSED, null, null, new MemoryUsage(1, 2, 3), List.of(), List.of());
        assertThat(few.diagnostics()).extracting(Diagnostic::code).containsExactly("few-samples");
        Timings polled = Timings.of(1, 1, 0, new double[]{100, 100.1, 99.9, 200.2, 100, 100}).withClock(0.02, 100.1);
        RunResult floored = RunResult.of("r", Instant.EPOCH, ID, new Outcome.Ran(BackendId.WEBGPU, polled, Optional.ofNullable(new Parity(0, 0, 1, 1e-3, true, "native-cpu"))), Status.PASSED, null, chromium(false),
                new MemoryUsage(1, 2, 3), List.of(), List.of());
        assertThat(floored.diagnostics()).filteredOn(d -> d.code().equals("latency-floor")).singleElement()
                .satisfies(d -> {
                    assertThat(d.severity()).isEqualTo(Severity.WARNING);
                    assertThat(d.message()).contains("100.1 ms").contains("compute time unknown");
                });
    }

    @Test
    void accelerationIsDecidedFromEvidenceNotFromTheBackendName() {
        assertThat(Acceleration.of(BackendId.WEBGPU, chromium(true))).isEqualTo(Acceleration.SOFTWARE_ADAPTER);
        assertThat(Acceleration.of(BackendId.WEBGPU, chromium(false))).isEqualTo(Acceleration.HARDWARE);
        assertThat(Acceleration.of(BackendId.WEBGPU, chromium(null))).as("an adapter that says nothing is not hardware")
                .isEqualTo(Acceleration.UNVERIFIED_DEVICE);
        // found when tried: an adapter that named nothing ("unnamed adapter") was hardware, and so was every native EP
        // whatever its device (OpenVINO on its default device runs on the CPU)
        Provenance unnamed = new Provenance("h", "fp", "Linux", "chromium", "156", "playwright", Acceleration.UNNAMED, false,
                List.of("webgpu"), Map.of(), 2);
        assertThat(Acceleration.of(BackendId.WEBGPU, unnamed)).isEqualTo(Acceleration.UNVERIFIED_DEVICE);
        assertThat(Acceleration.evidence(BackendId.WEBGPU, unnamed)).isEqualTo("the WebGPU adapter did not say what device it is");
        Provenance openvino = Provenance.of(null, null, "djl", "OpenVINO (default device)", null, List.of("OpenVINOExecutionProvider"), Map.of());
        assertThat(Acceleration.of(BackendId.OPENVINO, openvino)).isEqualTo(Acceleration.UNVERIFIED_DEVICE);
        assertThat(Acceleration.evidence(BackendId.OPENVINO, openvino))
                .isEqualTo("the openvino execution provider did not name the device it ran on (OpenVINO (default device))");
        assertThat(Acceleration.of(BackendId.CUDA, Provenance.of(null, null, "djl", "CUDA device 0", null, List.of(), Map.of())))
                .as("a CUDA device the host does not name").isEqualTo(Acceleration.UNVERIFIED_DEVICE);
        assertThat(Acceleration.of(BackendId.CUDA, Provenance.of(null, null, "djl", "CUDA device 0: NVIDIA H200", false, List.of(), Map.of())))
                .isEqualTo(Acceleration.HARDWARE);
        // native Dawn is judged as a browser's adapter is: SwiftShader's Vulkan given to it is a software adapter, Dawn's own
        // choice on a GPU host, which the EP does not name, is unverified (found when tried: the software one was "unverified")
        assertThat(Acceleration.of(BackendId.NATIVE_WEBGPU, Provenance.of(null, null, "djl", "SwiftShader Device (Vulkan) (software adapter)",
                true, List.of(), Map.of()))).isEqualTo(Acceleration.SOFTWARE_ADAPTER);
        assertThat(Acceleration.of(BackendId.NATIVE_WEBGPU, Provenance.of(null, null, "djl", "Dawn's default adapter (unnamed)", null,
                List.of(), Map.of()))).isEqualTo(Acceleration.UNVERIFIED_DEVICE);
        // found when tried: Chromium on Linux runs every WebNN device type on LiteRT's CPU; a gpu or npu cell there said only
        // "device unverified"
        assertThat(Acceleration.of(BackendId.WEBNN_GPU, chromium(null))).isEqualTo(Acceleration.BROWSER_CPU);
        assertThat(Acceleration.evidence(BackendId.WEBNN_NPU, chromium(null))).contains("Chromium on Linux (Linux) runs every WebNN "
                + "device type on LiteRT's CPU delegate (XNNPACK): the npu device type asked for ran on the CPU");
        Provenance windows = new Provenance("h", "fp", "Windows 11", "chromium", "156", "playwright", null, null, List.of("webnn"), Map.of(), 2);
        assertThat(Acceleration.of(BackendId.WEBNN_GPU, windows)).isEqualTo(Acceleration.UNVERIFIED_DEVICE);
        RunResult npu = RunResult.of("r", Instant.EPOCH, ID.withRequested(BackendId.WEBNN_NPU), new Outcome.Ran(BackendId.WEBNN_NPU, Timings.of(1, 1, 0, new double[]{1, 1, 1, 1, 1, 1}), Optional.empty()), Status.PASSED, null,
                chromium(null), MemoryUsage.UNKNOWN, List.of(), List.of());
        assertThat(npu.diagnostics()).anySatisfy(d -> {
            assertThat(d.code()).isEqualTo("device-is-cpu");
            assertThat(d.message()).contains("ran on the CPU");
        });
        assertThat(Acceleration.of(BackendId.WASM, chromium(null))).isEqualTo(Acceleration.CPU);
        assertThat(Acceleration.of(null, null)).isEqualTo(Acceleration.NONE);
    }
}
