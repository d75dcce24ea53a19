package dev.accelbridge.reports;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.browser.launch.BrowserMajorAxis;
import dev.accelbridge.browser.page.OrtWebAxis;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.nativerunner.process.OrtAxis;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.ScenarioId;

import java.util.Optional;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Hand-constructed inputs for store and renderer tests. These are test fixtures, not results shown to a user:
 * the sample values are chosen (seeded) so the code under test has something to store and render.
 */
public final class Fixtures {
    private Fixtures() {
    }

    public static HostInfo host(String name) {
        return new HostInfo(name, "fp-" + name, "Linux 6.1", "amd64", "Test CPU", 2, 2, List.of("avx", "avx2"),
                24L << 30, List.of(), "17.0.15");
    }

    public static Provenance nativeProv(HostInfo h) {
        return new Provenance(h.hostname(), h.fingerprint(), h.os(), null, null, "djl", "cpu", null, List.of("CPU"),
                Map.of("onnxruntime", "1.29.0", "djl", "0.38.0"), 2);
    }

    /** A Chromium page whose WebGPU adapter is SwiftShader ({@code software}) or a GPU's that says it is hardware. */
    public static Provenance chromiumProv(HostInfo h, boolean software) {
        return new Provenance(h.hostname(), h.fingerprint(), h.os(), "chromium", "156.0.8078.73", "playwright",
                software ? "google swiftshader (software adapter)" : "nvidia ampere", software, List.of("webgpu"),
                Map.of("onnxruntime-web", "1.30.0"), 2);
    }

    /** Samples around {@code median} with relative noise {@code noise}, seeded. */
    public static double[] samples(double median, double noise, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = median * (1 + noise * (r.nextDouble() * 2 - 1));
        }
        return s;
    }

    /**
     * The identity of a fixture case: input set "default", sha "sha-MODEL", the lane of the provenance with the versions it
     * names (the browser's major, onnxruntime-web's or ONNX Runtime's), as a real run's lane has them.
     */
    public static CaseId id(ModelFamily suite, String model, BackendId requested, Provenance p) {
        LaneId lane = p == null ? LaneId.NATIVE : p.browser() == null ? nativeLane(p.runtimeVersions().get("onnxruntime"))
                : browserLane(BrowserKind.fromName(p.browser()), LaneId.majorOf(p.browserVersion()), p.runtimeVersions().get("onnxruntime-web"));
        return new CaseId(suite, model, "sha-" + model, "default", "x=1x4", Precision.FP32, 1, requested, lane);
    }

    /** The lane of {@code browser} at major {@code major} with onnxruntime-web {@code ortWeb} (either null: unknown). */
    public static LaneId browserLane(BrowserKind browser, String major, String ortWeb) {
        return LaneId.of(browser).with(BrowserMajorAxis.DIMENSION.name(), major).with(OrtWebAxis.DIMENSION.name(), ortWeb);
    }

    /** The native lane with ONNX Runtime {@code ort} (null: unknown). */
    public static LaneId nativeLane(String ort) {
        return LaneId.NATIVE.with(OrtAxis.DIMENSION.name(), ort);
    }

    /** Chromium's provenance with onnxruntime-web {@code ortWeb}. */
    public static Provenance chromiumProv(HostInfo h, String ortWeb) {
        return new Provenance(h.hostname(), h.fingerprint(), h.os(), "chromium", "156.0.8078.73", "playwright", null, null,
                List.of("wasm"), Map.of("onnxruntime-web", ortWeb), 2);
    }

    /** A WebGPU case's memory as a page measures it: the GPU ledger, the heaps, the renderer and GPU process. */
    public static final MemoryUsage MEASURED_MEMORY = new MemoryUsage(1_000, 2_000, 3_000, new dev.accelbridge.core.GpuLedger(6_355_600,
            6_371_992, 80, 4_194_304, 12, 1L << 30, 1L << 30), 34_930_688, 5_832_704, 19_299_316, List.of(
            new dev.accelbridge.core.ProcessPeak("gpu-process", 171_147_264), new dev.accelbridge.core.ProcessPeak("renderer", 682_094_592)));

    public static Instant t(int minutes) {
        return Instant.parse("2026-11-20T10:00:00Z").plus(minutes, ChronoUnit.MINUTES);
    }

    public static RunResult passed(String runId, Instant at, HostInfo h, ModelFamily suite, String model, BackendId backend,
                                   Provenance p, double[] samples) {
        Parity parity = backend == BackendId.CPU ? null : new Parity(2e-7, 1e-6, 0.9999999, 1e-3, true, "native-cpu");
        return RunResult.of(runId, at, id(suite, model, backend, p), new Outcome.Ran(backend, Timings.of(120.5, 20.25, 3, samples), Optional.ofNullable(parity)), Status.PASSED, null, p, new MemoryUsage(100, 200, 250),
                List.of(new FallbackHop(backend, true, "available: ok")), List.of());
    }

    public static RunResult fellBack(String runId, Instant at, HostInfo h, ModelFamily suite, String model, BackendId requested,
                                     BackendId actual, Provenance p, double[] samples) {
        return RunResult.of(runId, at, id(suite, model, requested, p), new Outcome.Ran(actual, Timings.of(50, 10, 3, samples), Optional.ofNullable(new Parity(3e-7, 2e-6, 0.99999, 1e-3, true, "native-cpu"))), Status.FELL_BACK,
                "fell back " + requested + " → " + actual, p, MemoryUsage.UNKNOWN,
                List.of(new FallbackHop(requested, false, "unavailable: No available adapters."),
                        new FallbackHop(actual, true, "available: wasm")), List.of("webgpu adapter missing"));
    }

    public static RunResult notRun(String runId, Instant at, ModelFamily suite, String model, BackendId requested, Status status,
                                   String reason, Provenance p) {
        return RunResult.of(runId, at, id(suite, model, requested, p), new Outcome.NotRun(), status, reason, p,
                MemoryUsage.UNKNOWN, List.of(new FallbackHop(requested, false, reason)), List.of());
    }

    public static RunResult wrong(String runId, Instant at, ModelFamily suite, String model, BackendId backend, Provenance p,
                                  double[] samples) {
        return RunResult.of(runId, at, id(suite, model, backend, p), new Outcome.Ran(backend, Timings.of(80, 30, 3, samples), Optional.ofNullable(new Parity(0.5, 2.0, 0.93, 1e-3, false, "native-cpu"))), Status.WRONG_OUTPUT,
                "max abs err 0.5 > tolerance 0.001", p, MemoryUsage.UNKNOWN, List.of(new FallbackHop(backend, true, "available: ok")),
                List.of());
    }

    /** A wasm generation case in Chromium ({@code llama-tiny}, 8 tokens of prompt, six timed generations), PASSED. */
    public static RunResult generation(String run, HostInfo h, int newTokens) {
        double[][] steps = new double[6][];
        for (int g = 0; g < 6; g++) {
            steps[g] = new double[newTokens];
            steps[g][0] = 12 + g;
            for (int i = 1; i < newTokens; i++) {
                steps[g][i] = 2 + 0.01 * ((g * 7 + i * 3) % 11);
            }
        }
        Decoding d = Decoding.of(8, newTokens, steps, new double[] {400, 30, 20}, java.util.OptionalLong.of(4992))
                .withVerified(dev.accelbridge.core.TokenCheck.REFERENCE, 10, 10);
        double[] totals = java.util.Arrays.stream(steps).mapToDouble(s -> java.util.Arrays.stream(s).sum()).toArray();
        CaseId id = new CaseId(ModelFamily.TEXT_GENERATION, "llama-tiny", "ab".repeat(32), "prompt-sentence", "input_ids=1x8", Precision.FP32,
                1, BackendId.WASM, LaneId.of(BrowserKind.CHROMIUM), ScenarioId.generate(8, newTokens));
        return RunResult.of(run, Instant.parse("2026-11-24T10:00:00Z"), id, new Outcome.Ran(BackendId.WASM, Timings.of(30, 450, 3, totals).withDecoding(d), Optional.ofNullable(new Parity(1e-6, 1e-7, 1, 1e-4, true, "native-cpu, teacher-forced logits"))), Status.PASSED, null,
                chromiumProv(h, false), new MemoryUsage(-1, -1, -1), List.of(), List.of());
    }
}
