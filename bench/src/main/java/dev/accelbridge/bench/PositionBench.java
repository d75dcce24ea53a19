package dev.accelbridge.bench;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;

import dev.accelbridge.browser.provider.BrowserBackendProvider;

import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.CaseProgress;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Timings;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.text.BertModel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * bench/position/run.sh: does a case's figure depend on where it falls in its lane? The same BERT-style model (6 layers,
 * hidden 384, a 30,522-word vocabulary: 89 MB fp32, the size of a published MiniLM sentence embedder), written N times
 * under N names, run one after the other in ONE fresh lane, each with the harness's sampling; for each variant of the
 * browser's engine flags and of the lane's warm-up. Prints per position p50, its interval, the first inference, the
 * warm-up time and whether the case called itself steady, then the spread of the p50s over the positions. Not a test.
 *
 * <p>Arguments: {@code [positions=3] [variants=default,background-tier-up] [backend=wasm] [warmupSeconds=0.5]}.
 * Variants: {@code default} (Accelbridge's flags: a hot function optimized at once on the thread that runs it);
 * V8's flags {@code background-tier-up} (the browser's own default: hot functions optimized on background threads),
 * {@code no-liftoff} (everything optimized at compile), {@code no-dynamic-tiering} (every function optimized in the
 * background at once), {@code low-budget} (functions count as hot sooner); {@code lane-warmup-N}
 * (N seconds of the first copy's runs, untimed, before the first position, which is then not timed); {@code js:FLAGS}
 * (any V8 flags after Accelbridge's, e.g. {@code js:--no-memory-reducer}).
 */
public final class PositionBench {
    private record Variant(String name, List<String> args, Duration laneWarmup) {
    }

    public static void main(String[] args) throws Exception {
        int positions = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        List<String> names = List.of((args.length > 1 ? args[1] : "default,background-tier-up").split(","));
        BackendId backend = BackendId.parse(args.length > 2 ? args[2] : "wasm");
        Duration warmup = Duration.ofMillis((long) (1000 * Double.parseDouble(args.length > 3 ? args[3] : "0.5")));
        Path dir = Files.createTempDirectory("accelbridge-position");
        List<ModelCase> copies = copies(dir, positions);
        System.out.printf("bench: %s (%.0f MB) on %s in Chromium, %d positions in one fresh lane, warm-ups 3 + %.1f s, timed 10 + 0.5 s; "
                + "host %d cores%n", copies.get(0).model().name(), Files.size(copies.get(0).model().path()) / 1e6, backend, positions,
                warmup.toMillis() / 1000.0, Runtime.getRuntime().availableProcessors());
        for (String name : names) {
            Variant v = switch (name) {
                // default: ChromiumFlags.JS_FLAGS (synchronous tier-up); background-tier-up: the browser's own default
                case "default" -> new Variant(name, List.of(), Duration.ZERO);
                case "background-tier-up" -> new Variant(name, List.of("--js-flags=--no-wasm-sync-tier-up"), Duration.ZERO);
                case "no-liftoff" -> new Variant(name, List.of("--js-flags=--no-liftoff"), Duration.ZERO);
                case "no-dynamic-tiering" -> new Variant(name, List.of("--js-flags=--no-wasm-dynamic-tiering"), Duration.ZERO);
                case "low-budget" -> new Variant(name, List.of("--js-flags=--wasm-tiering-budget=100000"), Duration.ZERO);
                default -> {
                    if (name.startsWith("js:")) { // any V8 flag after ours, e.g. js:--no-memory-reducer
                        yield new Variant(name, List.of("--js-flags=" + name.substring(3)), Duration.ZERO);
                    }
                    if (!name.startsWith("lane-warmup")) {
                        throw new IllegalArgumentException("unknown variant " + name);
                    }
                    // lane-warmup-N: N seconds of the first copy, untimed, before the first position
                    String n = name.replace("lane-warmup", "").replace("-", "");
                    yield new Variant(name, List.of(), Duration.ofMillis((long) (1000 * Double.parseDouble(n.isEmpty() ? "5" : n))));
                }
            };
            try {
                run(v, copies, backend, warmup);
            } catch (RuntimeException e) {
                System.out.printf("%-20s failed: %s%n", v.name(), e.getMessage());
            }
        }
    }

    private static void run(Variant v, List<ModelCase> copies, BackendId backend, Duration warmup) {
        double[] p50s = new double[copies.size()];
        long t0 = System.nanoTime();
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
             BrowserBackendProvider p = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM)
                     .driver(DriverKind.PLAYWRIGHT).addArgs(v.args()).build())) {
            if (!v.laneWarmup().isZero()) {
                long w0 = System.nanoTime();
                p.execute(request(backend, copies.get(0), 0, 1, new MinDurations(v.laneWarmup(), Duration.ZERO)));
                System.out.printf("  [%s] lane warm-up: %.1f s on the first copy%n", v.name(), (System.nanoTime() - w0) / 1e9);
            }
            for (int i = v.laneWarmup().isZero() ? 0 : 1; i < copies.size(); i++) {
                Execution e = p.execute(request(backend, copies.get(i), 3, 10, new MinDurations(warmup, Duration.ofMillis(500))));
                Timings t = e.timings();
                Interval ci = t.quality().p50Ci();
                p50s[i] = t.p50Ms();
                double[] s = t.samplesMs();
                System.out.printf("  [%s] position %d: p50 %7.2f ms [%s], first %7.1f ms, load %6.0f ms, warm-up %5.0f ms (%d runs), %3d samples "
                                + "(first quarter %.2f, last quarter %.2f), steady %s%n", v.name(), i + 1, t.p50Ms(),
                        ci == null ? "no interval" : String.format("%.2f–%.2f", ci.lo(), ci.hi()), t.firstMs(), t.loadMs(),
                        t.quality().warmupMs(), t.warmups(), s.length, quarterMedian(s, 0), quarterMedian(s, 3), t.quality().steady());
            }
        }
        double[] timed = Arrays.stream(p50s).filter(x -> x > 0).toArray();
        double lo = Arrays.stream(timed).min().orElse(Double.NaN);
        double hi = Arrays.stream(timed).max().orElse(Double.NaN);
        System.out.printf("%-20s p50 by position %s; max/min %.2f; lane %.1f s%n", v.name(), Arrays.toString(Arrays.stream(timed)
                .map(x -> Math.round(x * 100) / 100.0).toArray()), hi / lo, (System.nanoTime() - t0) / 1e9);
    }

    private static double quarterMedian(double[] s, int quarter) {
        int n = s.length / 4;
        if (n == 0) {
            return Double.NaN;
        }
        double[] q = Arrays.copyOfRange(s, quarter * n, quarter * n + n);
        Arrays.sort(q);
        return q[q.length / 2];
    }

    private static ExecutionRequest request(BackendId backend, ModelCase mc, int warmups, int iterations, MinDurations d) {
        return new ExecutionRequest(backend, mc, warmups, iterations, Duration.ofMinutes(10), null, Duration.ofMinutes(5), 0, 0,
                CaseProgress.NONE, d);
    }

    /** The model written {@code n} times under {@code n} names, each with the same tokens (128, batch 1). */
    static List<ModelCase> copies(Path dir, int n) throws Exception {
        BertModel.Config c = new BertModel.Config(30522, 384, 6, 12, 1536, 512);
        byte[] bytes = BertModel.build("minilm-like", c, 7L, 1, 128).toBytes();
        long[] ids = new long[128];
        long[] mask = new long[128];
        Random r = new Random(11);
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 1000 + r.nextInt(29000);
            mask[i] = 1;
        }
        List<NamedTensor> inputs = List.of(NamedTensor.ofLongs("input_ids", new long[] {1, 128}, ids),
                NamedTensor.ofLongs("attention_mask", new long[] {1, 128}, mask));
        List<ModelCase> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path f = Files.write(dir.resolve("copy" + (i + 1) + ".onnx"), bytes);
            ModelSpec spec = OnnxModels.inspect(f, ModelFamily.TEXT, "copy" + (i + 1), "generated");
            out.add(new ModelCase(spec, "tokens", inputs, Optional.empty(), Map.of("batch", 1L, "sequence", 128L)));
        }
        return out;
    }
}
