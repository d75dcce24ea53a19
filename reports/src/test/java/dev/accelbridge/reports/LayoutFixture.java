package dev.accelbridge.reports;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;

import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.*;

/**
 * Results shaped like the runs people read, for the reports' layout tests: the default matrix (six models of five
 * families on five backends in three browsers and native CPU: 96 cells, with the fallbacks, software adapters, wrong
 * outputs and long reasons a real default run has on a machine without a GPU) and the op suite (1,077 single-op
 * models on five columns: 5,385 cells). Their figures are seeded samples: only the layout is under test.
 */
public final class LayoutFixture {
    private static final List<String[]> MODELS = List.of(new String[] {"text", "bert-mini"}, new String[] {"vision", "convnet-small"},
            new String[] {"audio", "whisper-enc-mini"}, new String[] {"audio", "whisper-mini generate p4 n12"},
            new String[] {"multimodal", "clip-mini"}, new String[] {"text-generation", "llama-tiny generate p8 n16"});
    private static final List<BackendId> BROWSER_BACKENDS = List.of(BackendId.WEBGPU, BackendId.WEBNN_GPU, BackendId.WEBNN_CPU,
            BackendId.WEBNN_NPU, BackendId.WASM);

    private LayoutFixture() {
    }

    /** A browser's provenance on {@code h}: its build, a WebGPU adapter (SwiftShader's, software) and onnxruntime-web 1.30.0. */
    public static Provenance browser(HostInfo h, String browser, String version, boolean webgpu) {
        return new Provenance(h.hostname(), h.fingerprint(), h.os(), browser, version, "playwright",
                webgpu ? "google swiftshader (software adapter)" : null, webgpu ? Boolean.TRUE : null, List.of(webgpu ? "webgpu" : "wasm"),
                Map.of("onnxruntime-web", "1.30.0"), 2);
    }

    /** The default matrix's 96 results of run {@code runId}. */
    public static List<RunResult> defaultRun(String runId, HostInfo h) {
        List<RunResult> out = new ArrayList<>();
        String[][] browsers = {{"chromium", "156.0.8078.79"}, {"chromium-shell", "153.0.8010.0"}, {"firefox", "153.0"}};
        int minute = 0;
        long seed = 1;
        for (String[] m : MODELS) {
            ModelFamily f = ModelFamily.parse(m[0]);
            double base = 0.2 + m[1].length() / 10.0;
            out.add(passed(runId, t(minute++), h, f, m[1], BackendId.CPU, nativeProv(h), samples(base, 0.03, 30, seed++)));
            for (String[] b : browsers) {
                boolean shell = b[0].equals("chromium-shell");
                for (BackendId backend : BROWSER_BACKENDS) {
                    Provenance p = browser(h, b[0], b[1], backend == BackendId.WEBGPU);
                    if (backend == BackendId.WEBGPU && m[1].startsWith("whisper-mini")) {
                        out.add(RunResult.of(runId, t(minute++), id(f, m[1], backend, p), new Outcome.Ran(backend, Timings.of(80, 30, 3, samples(300, 0.05, 30, seed++)), Optional.ofNullable(new Parity(0.598, 5.08, 0.999276, 1e-3, false, "native-cpu"))), Status.WRONG_OUTPUT,
                                "max abs err 0.598, max rel err 5.08, cosine 0.999276 (tolerance webgpu: abs 1e-3, rel 1e-5, against "
                                        + "native-cpu, teacher-forced logits); bisection on webgpu: not localized (all 139 intermediate "
                                        + "tensors are within tolerance when exposed)", p,
                                MemoryUsage.UNKNOWN,
                                List.of(new FallbackHop(backend, true, "available: ok")), List.of()));
                    } else if (backend.id().startsWith("webnn") && !shell) {
                        String why = b[0].equals("firefox") ? "unavailable: navigator.ml undefined [firefox 153.0]"
                                : "unavailable: navigator.ml.createContext({\"deviceType\":\"" + backend.id().substring(6) + "\"}) failed: "
                                + "NotSupportedError: Failed to execute 'createContext' on 'ML': WebNN is not supported on this platform.";
                        out.add(RunResult.of(runId, t(minute++), id(f, m[1], backend, p), new Outcome.Ran(BackendId.WASM, Timings.of(50, 10, 3, samples(base * 3, 0.05, 30, seed++)), Optional.ofNullable(new Parity(3e-7, 2e-6, 0.99999, 1e-3, true, "native-cpu"))), Status.FELL_BACK,
                                "fell back " + backend + " → wasm", p,
                                MemoryUsage.UNKNOWN,
                                List.of(new FallbackHop(backend, false, why), new FallbackHop(BackendId.WASM, true, "available: wasm")),
                                List.of("the timed samples' second half differs from the first by -" + (seed % 30) + " %")));
                    } else {
                        double p50 = backend == BackendId.WEBGPU ? base * 600 : base * 2.5;
                        out.add(passed(runId, t(minute++), h, f, m[1], backend, p, samples(p50, 0.04, 30, seed++)));
                    }
                }
            }
        }
        return out;
    }

    /** The op suite's 5,385 results of run {@code runId}: 1,077 single-op models on five columns. */
    public static List<RunResult> opSuite(String runId, HostInfo h) {
        List<RunResult> out = new ArrayList<>();
        String[] ops = {"Abs", "Add", "AveragePool", "BatchNormalization", "Cast", "Concat", "Conv", "ConvTranspose", "Cos", "CumSum",
                "DequantizeLinear", "Div", "Einsum", "Erf", "Expand", "Gather", "GatherElements", "Gemm", "GlobalAveragePool",
                "InstanceNormalization", "LayerNormalization", "LeakyRelu", "MatMul", "MatMulInteger", "Max", "MaxPool", "Mul",
                "Pad", "Pow", "QuantizeLinear", "ReduceMean", "ReduceSum", "Relu", "Reshape", "Resize", "ScatterND", "Sigmoid",
                "Slice", "Softmax", "Split", "Sqrt", "Squeeze", "Sub", "Tanh", "Tile", "TopK", "Transpose", "Unsqueeze", "Where"};
        int minute = 0;
        for (int i = 0; i < 1077; i++) {
            String model = ops[i % ops.length] + "-v" + (i / ops.length) + (i % 7 == 0 ? "-float16-broadcast-rank4" : "-float32");
            out.add(passed(runId, t(minute++), h, ModelFamily.OPS, model, BackendId.CPU, nativeProv(h), samples(0.02, 0.03, 8, i)));
            Provenance chromium = browser(h, "chromium", "156.0.8078.79", false);
            Provenance gpu = browser(h, "chromium", "156.0.8078.79", true);
            Provenance shell = browser(h, "chromium-shell", "153.0.8010.0", false);
            Provenance firefox = browser(h, "firefox", "153.0", false);
            out.add(passed(runId, t(minute++), h, ModelFamily.OPS, model, BackendId.WASM, chromium, samples(0.05, 0.03, 8, i + 1)));
            out.add(i % 23 == 0 ? wrong(runId, t(minute++), ModelFamily.OPS, model, BackendId.WEBGPU, gpu, samples(2, 0.05, 8, i + 2))
                    : passed(runId, t(minute++), h, ModelFamily.OPS, model, BackendId.WEBGPU, gpu, samples(1.5, 0.03, 8, i + 2)));
            out.add(i % 11 == 0 ? notRun(runId, t(minute++), ModelFamily.OPS, model, BackendId.WEBNN_CPU, Status.UNSUPPORTED,
                    "WebNN has no " + ops[i % ops.length] + " for this data type (opSupportLimits says float32 only)", shell)
                    : passed(runId, t(minute++), h, ModelFamily.OPS, model, BackendId.WEBNN_CPU, shell, samples(0.06, 0.03, 8, i + 3)));
            out.add(passed(runId, t(minute++), h, ModelFamily.OPS, model, BackendId.WASM, firefox, samples(0.07, 0.03, 8, i + 4)));
        }
        return out;
    }
}
