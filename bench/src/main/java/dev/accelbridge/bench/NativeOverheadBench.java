package dev.accelbridge.bench;

import dev.accelbridge.nativerunner.TinyOnnx;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.nativerunner.HostDetector;
import dev.accelbridge.nativerunner.NativeRunnerOptions;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.Timings;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Benchmark (not a test): on one model and one input, the native runner's reported p50 (DJL predictor with
 * the OnnxRuntime engine, timed around ONNX Runtime's own {@code session.run}) against a bare ONNX Runtime Java API loop
 * ({@code OrtSession.run}, same session options, same warm-up and iteration counts), and the ratio. Rounds
 * alternate which goes first (the round says: {@code 1r} the runner, {@code 2b} the bare loop), so neither always runs on a cooler or warmer machine, or while the JVM still compiles. Run by
 * {@code bench/native/run.sh}.
 *
 * <pre>
 * args: [--model PATH.onnx]... [--warmups N=50] [--iterations M=500] [--rounds R=3] [--threads T] [--dim D=1]
 *       [--sampler-ms MS=5 (the runner's RSS sampler interval, 0 = off)]
 * without --model: two built-in MLPs written to a temp dir (tiny 4-3-2, and 256-512x4-10 at batch 16)
 * </pre>
 */
public final class NativeOverheadBench {
    private NativeOverheadBench() {
    }

    public static void main(String[] args) throws Exception {
        List<Path> models = new ArrayList<>();
        int warmups = 50;
        int iterations = 500;
        int rounds = 3;
        Integer threads = null;
        int dynamicDim = 1;
        long samplerMs = 5;
        double warmupSeconds = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--model" -> models.add(Path.of(args[++i]));
                case "--warmups" -> warmups = Integer.parseInt(args[++i]);
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--dim" -> dynamicDim = Integer.parseInt(args[++i]);
                case "--sampler-ms" -> samplerMs = Long.parseLong(args[++i]);
                case "--warmup-seconds" -> warmupSeconds = Double.parseDouble(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("usage: run.sh [--model PATH.onnx]... [--warmups N] [--iterations M] [--rounds R]"
                            + " [--threads T] [--dim D (size for dynamic dims)] [--sampler-ms MS (RSS sampler, 0 = off)]"
                            + " [--warmup-seconds S (warm-ups go on until S seconds have passed, both loops; a run's default is 0.5)]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "' (try --help)");
            }
        }
        List<Object[]> cases = new ArrayList<>(); // {name, path, batch for built-ins or -1}
        if (models.isEmpty()) {
            Path dir = Files.createTempDirectory("accelbridge-bench");
            cases.add(new Object[] {"mlp-tiny(4-3-2,b=1)", TinyOnnx.write(TinyOnnx.small(), dir, "mlp-tiny").path(), 1});
            cases.add(new Object[] {"mlp-256-512x4-10(b=16)",
                    TinyOnnx.write(TinyOnnx.mlp(256, 512, 10, 4, 11L), dir, "mlp-medium").path(), 16});
        } else {
            for (Path m : models) {
                cases.add(new Object[] {m.getFileName().toString(), m, dynamicDim});
            }
        }

        DjlOnnxRuntimeProvider provider = new DjlOnnxRuntimeProvider(
                new NativeRunnerOptions(Duration.ofMillis(samplerMs), threads, null, null));
        var env = DjlOnnxRuntimeProvider.environment(); // starts DJL's engine first: it owns ORT's environment
        System.out.printf("host: %s | ORT %s %s | DJL %s | threads %s | warm-ups %d and %.1f s, iterations %d, rounds %d, RSS sampler %s%n",
                HostDetector.detect().cpuModel() + " x" + HostDetector.detect().logicalCores(), env.ortVersion(),
                env.ortProviders(), DjlOnnxRuntimeProvider.runtimeVersions().get("djl"),
                threads == null ? "ORT default" : threads, warmups, warmupSeconds, iterations, rounds,
                samplerMs == 0 ? "off" : samplerMs + " ms");
        System.out.printf("%-26s %5s %12s %12s %12s %12s %8s %10s%n", "model", "round", "runner p50", "bare p50",
                "runner p90", "bare p90", "ratio", "max|diff|");
        for (Object[] c : cases) {
            String name = (String) c[0];
            Path path = (Path) c[1];
            int dim = (Integer) c[2];
            List<NamedTensor> inputs = inputsFor(path, dim);
            ModelSpec spec = new ModelSpec(ModelFamily.OTHER, name, path, "-", 0, 0, List.of(), List.of(), List.of(),
                    "bench", 1e-4);
            ModelCase mc = new ModelCase(spec, "bench", inputs, Optional.empty());
            List<Double> ratios = new ArrayList<>();
            List<Double> deltas = new ArrayList<>();
            for (int r = 1; r <= rounds; r++) {
                // the two loops take turns going first: a figure that depends on going first (the JVM's compilers still at
                // work, a cold cache) is the position's, not the harness's, and shows as such
                boolean runnerFirst = r % 2 == 1;
                Duration warm = Duration.ofNanos((long) (warmupSeconds * 1e9));
                Bare bare = runnerFirst ? null : bareLoop(path, inputs, warmups, warm, iterations, threads);
                Execution e = provider.execute(new ExecutionRequest(BackendId.CPU, mc, warmups, iterations,
                        Duration.ofMinutes(10), null, null, 0, 0, null, new MinDurations(warm, Duration.ZERO)));
                if (runnerFirst) {
                    bare = bareLoop(path, inputs, warmups, warm, iterations, threads);
                }
                double diff = maxAbsDiff(e.outputs(), bare.outputs);
                double ratio = e.timings().p50Ms() / bare.timings.p50Ms();
                ratios.add(ratio);
                deltas.add((e.timings().p50Ms() - bare.timings.p50Ms()) * 1000);
                System.out.printf("%-26s %5s %9.4f ms %9.4f ms %9.4f ms %9.4f ms %7.3fx %10.2e%n", name, r + (runnerFirst ? "r" : "b"),
                        e.timings().p50Ms(), bare.timings.p50Ms(), e.timings().p90Ms(), bare.timings.p90Ms(), ratio, diff);
            }
            double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            // the median's own interval: whether the ratio can be told from 1 (or from a goal) at this host's spread
            Interval ci = SampleStats.quantileCi(sorted, 0.5);
            System.out.printf("%-26s median ratio runner/bare p50 = %.3fx over %d rounds (95 %% interval %s)%n", name,
                    Timings.percentile(sorted, 50), rounds, ci == null ? "- under 6 rounds" : ci.format(3));
            double[] d = deltas.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf("%-26s median delta runner-bare p50 = %+.1f us over %d rounds%n", name,
                    Timings.percentile(d, 50), rounds);
        }
    }

    private record Bare(Timings timings, List<NamedTensor> outputs) {
    }

    /** The bare ORT Java API loop: one session, tensors made once, nanoTime around each {@code run}. */
    private static Bare bareLoop(Path model, List<NamedTensor> inputs, int warmups, Duration warm, int iterations, Integer threads)
            throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions()) {
            if (threads != null) {
                so.setIntraOpNumThreads(threads);
            }
            long l0 = System.nanoTime();
            try (OrtSession session = env.createSession(model.toString(), so)) {
                double loadMs = (System.nanoTime() - l0) / 1e6;
                Map<String, OnnxTensor> feed = new LinkedHashMap<>();
                try {
                    for (NamedTensor t : inputs) {
                        feed.put(t.name(), toOrt(env, t));
                    }
                    long f0 = System.nanoTime();
                    session.run(feed).close();
                    double firstMs = (System.nanoTime() - f0) / 1e6;
                    long warmUntil = System.nanoTime() + warm.toNanos();
                    for (int i = 0; i < warmups || System.nanoTime() < warmUntil; i++) {
                        session.run(feed).close();
                    }
                    double[] samples = new double[iterations];
                    List<NamedTensor> outs = List.of();
                    for (int i = 0; i < iterations; i++) {
                        long a = System.nanoTime();
                        OrtSession.Result res = session.run(feed);
                        long b = System.nanoTime();
                        samples[i] = (b - a) / 1e6;
                        if (i == iterations - 1) {
                            outs = fromOrt(res);
                        }
                        res.close();
                    }
                    return new Bare(Timings.of(loadMs, firstMs, warmups, samples), outs);
                } finally {
                    feed.values().forEach(OnnxTensor::close);
                }
            }
        }
    }

    /** Seeded inputs from the model's own input info; dynamic dimensions get {@code dim}. */
    private static List<NamedTensor> inputsFor(Path model, int dim) throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        SplittableRandom rnd = new SplittableRandom(42);
        List<NamedTensor> out = new ArrayList<>();
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions();
             OrtSession s = env.createSession(model.toString(), so)) {
            for (Map.Entry<String, NodeInfo> e : s.getInputInfo().entrySet()) {
                if (!(e.getValue().getInfo() instanceof TensorInfo ti)) {
                    throw new IllegalArgumentException("input '" + e.getKey() + "' is not a tensor");
                }
                long[] shape = ti.getShape().clone();
                for (int i = 0; i < shape.length; i++) {
                    shape[i] = shape[i] < 0 ? dim : shape[i];
                }
                DType dt = switch (ti.type) {
                    case FLOAT -> DType.FLOAT32;
                    case DOUBLE -> DType.FLOAT64;
                    case INT64 -> DType.INT64;
                    case INT32 -> DType.INT32;
                    case INT8 -> DType.INT8;
                    case UINT8 -> DType.UINT8;
                    case BOOL -> DType.BOOL;
                    default -> throw new IllegalArgumentException("input '" + e.getKey() + "' has type " + ti.type
                            + ", which the bench does not generate");
                };
                int n = (int) NamedTensor.elementCount(shape);
                ByteBuffer b = ByteBuffer.allocate(n * dt.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < n; i++) {
                    switch (dt) {
                        case FLOAT32 -> b.putFloat((float) (rnd.nextDouble() * 2 - 1));
                        case FLOAT64 -> b.putDouble(rnd.nextDouble() * 2 - 1);
                        case INT64 -> b.putLong(1); // valid as a token id and as an attention mask
                        case INT32 -> b.putInt(1);
                        default -> b.put((byte) 1);
                    }
                }
                out.add(new NamedTensor(e.getKey(), dt, shape, b.array()));
            }
        }
        return out;
    }

    private static OnnxTensor toOrt(OrtEnvironment env, NamedTensor t) throws OrtException {
        ByteBuffer direct = ByteBuffer.allocateDirect(t.data().length).order(ByteOrder.LITTLE_ENDIAN);
        direct.put(t.data()).rewind();
        OnnxJavaType jt = switch (t.dtype()) {
            case FLOAT32 -> OnnxJavaType.FLOAT;
            case FLOAT64 -> OnnxJavaType.DOUBLE;
            case INT64 -> OnnxJavaType.INT64;
            case INT32 -> OnnxJavaType.INT32;
            case INT8 -> OnnxJavaType.INT8;
            case UINT8 -> OnnxJavaType.UINT8;
            case BOOL -> OnnxJavaType.BOOL;
            case FLOAT16 -> OnnxJavaType.FLOAT16;
        };
        return OnnxTensor.createTensor(env, direct, t.shape(), jt);
    }

    private static List<NamedTensor> fromOrt(OrtSession.Result res) {
        List<NamedTensor> outs = new ArrayList<>();
        res.forEach(e -> {
            if (e.getValue() instanceof OnnxTensor t && t.getInfo().type == OnnxJavaType.FLOAT) {
                float[] v = new float[(int) t.getInfo().getNumElements()];
                t.getFloatBuffer().get(v);
                outs.add(NamedTensor.ofFloats(e.getKey(), t.getInfo().getShape(), v));
            }
        });
        return outs;
    }

    private static double maxAbsDiff(List<NamedTensor> a, List<NamedTensor> b) {
        double m = 0;
        int compared = 0;
        for (NamedTensor x : a) {
            for (NamedTensor y : b) {
                if (x.name().equals(y.name())) {
                    double[] p = x.toDoubles();
                    double[] q = y.toDoubles();
                    compared++;
                    for (int i = 0; i < Math.min(p.length, q.length); i++) {
                        m = Math.max(m, Math.abs(p[i] - q[i]));
                    }
                }
            }
        }
        return compared == 0 ? Double.NaN : m; // NaN: no float output to compare
    }
}
