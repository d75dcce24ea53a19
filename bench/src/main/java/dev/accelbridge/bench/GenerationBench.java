package dev.accelbridge.bench;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.ModelRegistry;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.bridge.protocol.FrameCodec;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.GenerationCheck;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.suites.GenerateOptions;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;

import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * bench/generation/run.sh: the harness's decode loops against bare ones on the same decoder, prompt and tokens, in one run:
 * the page's generation job against a bare page's loop, and the native NativeGeneration against a bare OrtSession loop.
 * Prints TTFT p50 and tokens/s with the harness/bare ratios. Real browser, real onnxruntime-web and ONNX Runtime. Not a test.
 *
 * <p>Arguments: {@code [backend=wasm] [iterations=10] [size=small] [newTokens=32]}.
 */
public final class GenerationBench {
    public static void main(String[] args) throws Exception {
        BackendId backend = BackendId.parse(args.length > 0 ? args[0] : "wasm");
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        ModelSize size = args.length > 2 && args[2].equalsIgnoreCase("large") ? ModelSize.LARGE : ModelSize.SMALL;
        Integer newTokens = args.length > 3 ? Integer.valueOf(args[3]) : null;
        OrtWebEngine engine = OrtWebEngine.of(args.length > 4 ? args[4] : "jsep");
        int warmups = 2;
        ModelCase mc = SuiteCatalog.create(new SuiteOptions(Path.of("target", "suite-cache-" + size.name().toLowerCase(Locale.ROOT))
                .toAbsolutePath(), size, SuiteOptions.DEFAULT_SEED)).cases(ModelFamily.TEXT_GENERATION).get(0);
        mc = new GenerateOptions(false, null, newTokens).applyTo(mc);
        DecoderLayout layout = ((Generation) mc.scenario()).layout();
        System.out.printf("bench: %s (%s), %s on %s, %d warm-up + %d timed generations, host %d cores%n", mc.key(), mc.scenario(), backend,
                engine.description(),
                warmups, iterations, Runtime.getRuntime().availableProcessors());

        // [2] first, natively: the harness's loop, then a bare OrtSession loop in this process
        // (three rounds, alternating, the last one kept: the first round of either side also warms this JVM's JIT)
        DjlOnnxRuntimeProvider cpu = new DjlOnnxRuntimeProvider();
        Decoding nh = null;
        Bare nb = null;
        Map<String, long[][]> tokens = new LinkedHashMap<>();
        for (int round = 0; round < 3; round++) {
            var native0 = cpu.execute(new ExecutionRequest(BackendId.CPU, mc, warmups, iterations, Duration.ofMinutes(30)));
            nh = ((Decoding) native0.timings().figures());
            tokens.put("harness NativeGeneration", harnessTokens(native0.outputs()));
            nb = bareNative(mc, layout, warmups, iterations);
            tokens.put("bare OrtSession loop", nb.tokens());
        }

        Decoding ph;
        Bare pb;
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
             BrowserBackendProvider chromium = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM)
                     .driver(DriverKind.PLAYWRIGHT).build(), BrowserLaunchers.forDriver(DriverKind.PLAYWRIGHT),
                     OrtWebBuild.pinned().withEngine(engine))) {
            var e = chromium.execute(new ExecutionRequest(backend, mc, warmups, iterations, Duration.ofMinutes(30)));
            ph = ((Decoding) e.timings().figures());
            tokens.put("harness generation job", harnessTokens(e.outputs()));
            pb = barePage(server, mc, layout, backend, warmups, iterations, e.provenance().threads(), engine);
            tokens.put("bare page loop", pb.tokens());
        }
        // the ratios compare the same work only if every loop decoded the same tokens
        String differs = differs(tokens);
        if (differs != null) {
            System.err.println("bench: the loops did not decode the same tokens, so their times are not comparable: " + differs);
            System.exit(2);
        }
        System.out.printf("same tokens: every generation of the four loops, %d tokens each, checked%n", ((Generation) mc.scenario()).newTokens());
        System.out.printf("%n[1] in the page (%s): TTFT p50 and tokens/s (1000 / mean inter-token latency)%n", backend);
        line("harness generation job", ph);
        line("bare page loop", pb.decoding());
        System.out.printf("    harness/bare: TTFT p50 ×%.3f, time per token ×%.3f%n", ph.ttftP50Ms() / pb.decoding().ttftP50Ms(),
                pb.decoding().tokensPerSec() / ph.tokensPerSec());
        System.out.printf("%n[2] native ONNX Runtime %s%n", DjlOnnxRuntimeProvider.environment().ortVersion());
        line("harness NativeGeneration", nh);
        line("bare OrtSession loop", nb.decoding());
        System.out.printf("    harness/bare: TTFT p50 ×%.3f, time per token ×%.3f%n", nh.ttftP50Ms() / nb.decoding().ttftP50Ms(),
                nb.decoding().tokensPerSec() / nh.tokensPerSec());
        System.exit(0); // the shared Playwright launcher keeps a non-daemon thread until its shutdown hook runs
    }

    private static void line(String what, Decoding d) {
        System.out.printf(Locale.ROOT, "    %-26s TTFT p50 %9.3f ms   %9.1f tokens/s   inter-token p50 %8.3f ms%n", what, d.ttftP50Ms(),
                d.tokensPerSec(), d.itlP50Ms());
    }

    /** A bare loop's figures and the tokens each of its timed generations decoded. */
    record Bare(Decoding decoding, long[][] tokens) {
    }

    /** The harness's generations' tokens ({@link Generation#TOKENS}: the cold generation, the warm-ups' and the timed ones). */
    static long[][] harnessTokens(List<NamedTensor> outputs) {
        NamedTensor t = outputs.stream().filter(o -> o.name().equals(Generation.TOKENS)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the harness gave no " + Generation.TOKENS + " output"));
        int n = (int) t.shape()[1];
        long[] all = t.toLongs();
        long[][] rows = new long[all.length / n][];
        for (int g = 0; g < rows.length; g++) {
            rows[g] = Arrays.copyOfRange(all, g * n, (g + 1) * n);
        }
        return rows;
    }

    /** Null when every generation of every loop holds the first one's tokens; else where the first difference is. */
    static String differs(Map<String, long[][]> tokens) {
        long[] first = null;
        for (Map.Entry<String, long[][]> e : tokens.entrySet()) {
            if (e.getValue().length == 0) {
                return e.getKey() + " gave no generation";
            }
            for (int g = 0; g < e.getValue().length; g++) {
                long[] t = e.getValue()[g];
                if (first == null) {
                    first = t;
                }
                int at = Arrays.mismatch(first, t);
                if (at >= 0) {
                    return e.getKey() + ", generation " + g + ", step " + at + ": " + (at < t.length ? t[at] : "none") + " where the first has "
                            + (at < first.length ? first[at] : "none");
                }
            }
        }
        return null;
    }

    /** Greedy decoding through ONNX Runtime's Java API alone: a session, a loop, nothing of the harness. */
    static Bare bareNative(ModelCase mc, DecoderLayout l, int warmups, int iterations) throws Exception {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        long[] prompt = mc.inputs().get(0).toLongs();
        int n = ((Generation) mc.scenario()).newTokens();
        List<double[]> timed = new ArrayList<>();
        List<long[]> decoded = new ArrayList<>();
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions();
             OrtSession s = env.createSession(mc.model().path().toString(), so)) {
            for (int g = 0; g < warmups + iterations; g++) {
                Map<String, OnnxTensor> past = new LinkedHashMap<>();
                for (DecoderLayout.Cache c : l.cache()) {
                    past.put(c.past(), OnnxTensor.createTensor(env, FloatBuffer.allocate(0), new long[] {1, l.kvHeads(), 0, l.headDim()}));
                }
                OrtSession.Result prev = null;
                long[] ids = prompt;
                int pos = 0;
                double[] steps = new double[n];
                long[] took = new long[n];
                long t = System.nanoTime();
                for (int k = 0; k < n; k++) {
                    int total = pos + ids.length;
                    long[] mask = new long[total];
                    Arrays.fill(mask, 1);
                    long[] p = new long[ids.length];
                    for (int i = 0; i < p.length; i++) {
                        p[i] = pos + i;
                    }
                    Map<String, OnnxTensor> feeds = new HashMap<>(past);
                    feeds.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(ids), new long[] {1, ids.length}));
                    feeds.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(mask), new long[] {1, total}));
                    feeds.put("position_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(p), new long[] {1, p.length}));
                    OrtSession.Result res = s.run(feeds);
                    OnnxTensor logits = (OnnxTensor) res.get("logits").orElseThrow();
                    int vocab = (int) logits.getInfo().getShape()[2];
                    float[] row = new float[vocab];
                    logits.getFloatBuffer().position((ids.length - 1) * vocab).get(row);
                    int next = GenerationCheck.argmax(row, 0, vocab);
                    long now = System.nanoTime();
                    steps[k] = (now - t) / 1e6;
                    t = now;
                    took[k] = next;
                    for (String name : List.of("input_ids", "attention_mask", "position_ids")) {
                        feeds.get(name).close();
                    }
                    if (prev != null) {
                        prev.close();
                    }
                    prev = res;
                    past = new LinkedHashMap<>();
                    for (DecoderLayout.Cache c : l.cache()) {
                        past.put(c.past(), (OnnxTensor) res.get(c.present()).orElseThrow());
                    }
                    ids = new long[] {next};
                    pos = total;
                }
                if (prev != null) {
                    prev.close();
                }
                if (g >= warmups) {
                    timed.add(steps);
                    decoded.add(took);
                }
            }
        }
        return new Bare(Decoding.of(prompt.length, n, timed.toArray(new double[0][]), new double[0], java.util.OptionalLong.empty()),
                decoded.toArray(new long[0][]));
    }

    /** The same greedy loop in a bare page (bare.html?generate=...), served by the same bridge, in a plain Playwright Chromium. */
    static Bare barePage(BridgeServer server, ModelCase mc, DecoderLayout l, BackendId backend, int warmups, int iterations,
                             Integer threads, OrtWebEngine engine) throws Exception {
        Path tmp = Files.createTempDirectory("accelbridge-bench-gen");
        Path inputs = Files.write(tmp.resolve("inputs.abf"), FrameCodec.encode(new ObjectMapper().createObjectNode().put("v", 1)
                .put("type", "inputs"), mc.inputs()));
        ModelRegistry.ModelRef m = ModelRegistry.of(server).register(mc.model().path());
        ModelRegistry.ModelRef in = ModelRegistry.of(server).register(inputs);
        ObjectNode spec = new ObjectMapper().createObjectNode().put("newTokens", ((Generation) mc.scenario()).newTokens()).put("kvHeads", l.kvHeads())
                .put("headDim", l.headDim());
        var cache = spec.putArray("cache");
        l.cache().forEach(c -> cache.addObject().put("past", c.past()).put("present", c.present()));
        Map<String, String> env = new HashMap<>();
        env.put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
        if (Files.isExecutable(Path.of("/usr/bin/node"))) {
            env.put("PLAYWRIGHT_NODEJS_PATH", "/usr/bin/node");
        }
        try (Playwright pw = Playwright.create(new Playwright.CreateOptions().setEnv(env));
             Browser browser = pw.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(
                     BrowserDiscovery.require(BrowserKind.CHROMIUM).executable()).setHeadless(true)
                     .setArgs(ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.PLAYWRIGHT, true, List.of())))) {
            Page page = browser.newPage();
            page.navigate(server.baseUrl() + "/bare.html?model=" + m.urlPath() + "&inputs=" + in.urlPath() + "&ep="
                    + (backend == BackendId.WEBGPU ? "webgpu" : "wasm") + "&warmups=" + warmups + "&iterations=" + iterations
                    + (threads == null ? "" : "&threads=" + threads) + "&ortEntry=" + engine.bundle()
                    + "&generate=" + java.net.URLEncoder.encode(spec.toString(), java.nio.charset.StandardCharsets.UTF_8));
            page.waitForFunction("() => window.benchResult !== undefined", null, new Page.WaitForFunctionOptions().setTimeout(1_800_000));
            JsonNode r = new ObjectMapper().readTree(String.valueOf(page.evaluate("() => JSON.stringify(window.benchResult)")));
            if (r.has("error")) {
                throw new IllegalStateException("bare page failed: " + r.get("error").asText());
            }
            double[][] steps = new double[r.path("generations").size()][];
            long[][] decoded = new long[steps.length][];
            for (int g = 0; g < steps.length; g++) {
                JsonNode s = r.path("generations").get(g).path("steps");
                JsonNode t = r.path("generations").get(g).path("tokens");
                steps[g] = new double[s.size()];
                decoded[g] = new long[t.size()];
                for (int k = 0; k < steps[g].length; k++) {
                    steps[g][k] = s.get(k).asDouble();
                }
                for (int k = 0; k < decoded[g].length; k++) {
                    decoded[g][k] = t.get(k).asLong();
                }
            }
            return new Bare(Decoding.of((int) mc.inputs().get(0).shape()[1], ((Generation) mc.scenario()).newTokens(), steps, new double[0],
                    java.util.OptionalLong.empty()), decoded);
        }
    }
}
