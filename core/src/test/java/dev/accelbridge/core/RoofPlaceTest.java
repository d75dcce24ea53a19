package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** A device's roof and a case's place under it, on constructed figures. */
class RoofPlaceTest {
    private static final double[] TEN_MS = {10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10};

    @Test
    void aGpusRoofIsItsVendorsFigureForThePartItsNameNames() {
        assertThat(DevicePeak.ofGpu("NVIDIA H200")).hasValueSatisfying(p -> {
            assertThat(p.flopsPerSecond()).isEqualTo(67e12);
            assertThat(p.bytesPerSecond()).hasValue(4.8e12);
            assertThat(p.basis()).contains("vendor's figure", "H200 SXM");
        });
        assertThat(DevicePeak.ofGpu("NVIDIA H200 NVL").orElseThrow().flopsPerSecond()).isEqualTo(60e12);
        assertThat(DevicePeak.ofGpu("NVIDIA H100 PCIe").orElseThrow().bytesPerSecond()).hasValue(2.0e12);
        assertThat(DevicePeak.ofGpu("NVIDIA H100 80GB HBM3").orElseThrow().bytesPerSecond()).hasValue(3.35e12);
        assertThat(DevicePeak.ofGpu("Google SwiftShader")).isEmpty();
        assertThat(DevicePeak.ofGpu(null)).isEmpty();
    }

    @Test
    void aCpusRoofIsReckonedFromCoresClockAndVectorWidthAndSaysSo() {
        DevicePeak avx2 = DevicePeak.ofCpu("AMD EPYC", 2, 2.445e9, List.of("avx", "avx2", "fma")).orElseThrow();
        assertThat(avx2.flopsPerSecond()).isCloseTo(2 * 2.445e9 * 32, within(1.0));
        assertThat(avx2.bytesPerSecond()).isEmpty(); // not known from what the host says: unknown, never guessed
        assertThat(avx2.basis()).contains("2 cores", "2.45 GHz", "32 FLOP a cycle", "AVX2 FMA", "boost");
        assertThat(DevicePeak.ofCpu("Intel Xeon", 4, 2e9, List.of("avx2", "fma", "avx512f")).orElseThrow().flopsPerSecond()).isEqualTo(4 * 2e9 * 64);
        assertThat(DevicePeak.ofCpu("AMD EPYC 9654", 4, 2e9, List.of("avx2", "fma", "avx512f")).orElseThrow().flopsPerSecond()).isEqualTo(4 * 2e9 * 32);
        assertThat(DevicePeak.ofCpu("x", 2, Double.NaN, List.of("avx2"))).isEmpty();
        HostInfo host = new HostInfo("h", "fp", "Linux", "amd64", "AMD EPYC", 2, 2, List.of("avx2", "fma"), 1L << 34, List.of(), "21",
                Map.of(HostInfo.CPU_CLOCK_HZ, "2445428000"));
        assertThat(DevicePeak.ofCpu(host).orElseThrow().flopsPerSecond()).isCloseTo(156.5e9, within(0.1e9));
        assertThat(DevicePeak.ofCpu(new HostInfo("h", "fp", "Linux", "amd64", "AMD EPYC", 2, 2, List.of("avx2"), 1, List.of(), "21"))).isEmpty();
    }

    @Test
    void aSinglePassIsPlacedByItsFlopsAtItsBatchOverItsMedian() {
        CaseId id = new CaseId(ModelFamily.TEXT, "bert", "sha", "s", "ids=2x128", Precision.FP32, 2, BackendId.CPU, LaneId.NATIVE);
        RunResult r = RunResult.of("r", Instant.EPOCH, id, new Outcome.Ran(BackendId.CPU, Timings.of(1, 1, 3, TEN_MS), Optional.empty()), Status.PASSED, null, null,
                null, List.of(), List.of());
        DevicePeak cpu = DevicePeak.ofCpu("AMD EPYC", 2, 2.5e9, List.of("avx2", "fma")).orElseThrow(); // 160 GFLOP/s
        RoofPlace p = RoofPlace.of(r, ModelCost.of(0.4e9, 400_000_000L), Optional.of(cpu)).orElseThrow();
        assertThat(p.flopsPerSecond().getAsDouble()).isCloseTo(2 * 0.4e9 / 0.010, within(1.0)); // 80 GFLOP/s
        assertThat(p.weightBytesPerSecond().getAsDouble()).isCloseTo(40e9, within(1.0));
        assertThat(p.computeShare().getAsDouble()).isCloseTo(0.5, within(1e-9));
        assertThat(p.words()).isEqualTo("50 % of the compute roof; memory bandwidth unknown");
        assertThat(RoofPlace.of(r, ModelCost.UNKNOWN, Optional.of(cpu))).isEmpty();
        assertThat(RoofPlace.of(r, ModelCost.of(0.4e9, 1), Optional.empty()).orElseThrow().words()).isEqualTo("no roof known for this device");
    }

    @Test
    void aGenerationIsPlacedByItsTokensAgainstTheBoundItsBandwidthSets() {
        CaseId id = new CaseId(ModelFamily.TEXT_GENERATION, "decoder", "sha", "s", "ids=1x32", Precision.FP32, 1, BackendId.CUDA,
                LaneId.NATIVE);
        double[] itl = new double[15];
        java.util.Arrays.fill(itl, 2.0); // 500 tokens/s
        Decoding d = new Decoding(32, 16, new double[] {20, 20, 20}, itl, 30, 60, OptionalLong.empty(), 3, 3, TokenCheck.NONE, null, Double.NaN);
        Timings t = Timings.of(1, 1, 3, TEN_MS).withDecoding(d);
        Provenance h200 = new Provenance("h", "fp", "Linux", null, null, null, "NVIDIA H200", false, List.of("cuda"), Map.of(), 2);
        RunResult r = RunResult.of("r", Instant.EPOCH, id, new Outcome.Ran(BackendId.CUDA, t, Optional.empty()), Status.PASSED, null, h200, null, List.of(), List.of());
        RoofPlace p = RoofPlace.of(r, ModelCost.of(1e9, 480_000_000L), DevicePeak.ofGpu("NVIDIA H200")).orElseThrow();
        assertThat(p.tokensPerSecond()).hasValue(500.0);
        assertThat(p.flopsPerSecond()).hasValue(500e9);
        assertThat(p.weightBytesPerSecond()).hasValue(240e9);
        assertThat(p.words()).isEqualTo("1 % of the compute roof; 5 % of the memory bandwidth (bound 10000 tokens/s)");
    }

    @Test
    void aFigureThatDoesNotStandAsASpeedIsNotPlaced() {
        CaseId id = new CaseId(ModelFamily.TEXT, "bert", "sha", "s", "ids=1x8", Precision.FP32, 1, BackendId.WEBGPU, LaneId.of(BrowserKind.CHROMIUM));
        Provenance swiftshader = new Provenance("h", "fp", "Linux", "chromium", "156", "playwright", "google swiftshader", true,
                List.of("webgpu"), Map.of(), 2);
        RunResult r = RunResult.of("r", Instant.EPOCH, id, new Outcome.Ran(BackendId.WEBGPU, Timings.of(1, 1, 3, TEN_MS), Optional.empty()), Status.PASSED, null, swiftshader,
                null, List.of(), List.of());
        assertThat(RoofPlace.of(r, ModelCost.of(1e9, 1000), DevicePeak.ofGpu("NVIDIA H200"))).isEmpty();
    }
}
