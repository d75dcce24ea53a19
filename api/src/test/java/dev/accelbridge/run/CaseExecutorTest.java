package dev.accelbridge.run;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.nativerunner.HostDetector;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.onnx.GraphBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link CaseExecutor} with real providers: the WebNN-capable Chromium headless shell (real WebNN, real
 * onnxruntime-web) for the requested hop, and native ONNX Runtime through DJL for the reference. The WebNN build
 * in that shell gets some ops wrong and hangs on others (measured; docs/limits.md): those are the real
 * wrong outputs and real failures the fallback policy is tested on.
 */
@RequiresBrowser(BrowserKind.CHROMIUM_SHELL)
class CaseExecutorTest {
    @TempDir
    static Path dir;
    static BridgeServer server;
    static BrowserBackendProvider shell;
    static NativeProviders natives;
    static HostInfo host;

    @BeforeAll
    static void start() {
        server = BridgeServer.start(BridgeOptions.defaults());
        shell = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL)
                .driver(DriverKind.PLAYWRIGHT).build());
        natives = NativeProviders.load();
        host = HostDetector.detect();
    }

    @AfterAll
    static void stop() {
        if (shell != null) {
            shell.close();
        }
        if (server != null) {
            server.close();
        }
        if (natives != null) {
            natives.close();
        }
    }

    /** x[4,8] → Relu → ArgMax(axis 1, select_last_index 1): rows that Relu makes all zero are ties. */
    private static ModelCase argmaxWithTies() throws Exception {
        GraphBuilder g = new GraphBuilder("argmax-ties", 1);
        String x = g.input("x", DType.FLOAT32, 4, 8);
        String w = g.uniform("w", 0.5, 8, 8);
        String h = g.op("MatMul", "mm", List.of(x, w));
        String r = g.op("Relu", "relu", List.of(h));
        g.opInto("ArgMax", "idx", List.of(r), GraphBuilder.attr("axis", 1L), GraphBuilder.attr("keepdims", 1L),
                GraphBuilder.attr("select_last_index", 1L));
        g.output("idx", DType.INT64, 4, 1);
        float[] v = new float[32];
        for (int i = 0; i < v.length; i++) {
            v[i] = i < 16 ? 0f : (float) Math.sin(i); // rows 0-1 all zero: every column ties
        }
        return write(g, "argmax-ties", List.of(NamedTensor.ofFloats("x", new long[]{4, 8}, v)));
    }

    /** MaxPool with dilations, whose WebNN session creation never returns in that build. */
    private static ModelCase dilatedMaxPool() throws Exception {
        GraphBuilder g = new GraphBuilder("maxpool-dilated", 2);
        String x = g.input("x", DType.FLOAT32, 1, 1, 6, 6);
        g.opInto("MaxPool", "y", List.of(x), GraphBuilder.ints("kernel_shape", 2, 2), GraphBuilder.ints("dilations", 2, 2));
        g.output("y", DType.FLOAT32, 1, 1, 4, 4);
        float[] v = new float[36];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) Math.sin(i * 0.7);
        }
        return write(g, "maxpool-dilated", List.of(NamedTensor.ofFloats("x", new long[]{1, 1, 6, 6}, v)));
    }

    /** A small MLP every backend computes right. */
    private static ModelCase mlp() throws Exception {
        GraphBuilder g = new GraphBuilder("mlp", 3);
        String x = g.input("x", DType.FLOAT32, 1, 16);
        String h = g.op("Relu", "relu", List.of(g.op("MatMul", "mm", List.of(x, g.uniform("w1", 0.3, 16, 16)))));
        g.opInto("MatMul", "y", List.of(h, g.uniform("w2", 0.3, 16, 4)));
        g.output("y", DType.FLOAT32, 1, 4);
        float[] v = new float[16];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) Math.cos(i);
        }
        return write(g, "mlp", List.of(NamedTensor.ofFloats("x", new long[]{1, 16}, v)));
    }

    private static ModelCase write(GraphBuilder g, String name, List<NamedTensor> inputs) throws Exception {
        Path p = dir.resolve(name + ".onnx");
        Files.write(p, g.build(name).toByteArray());
        ModelSpec spec = OnnxModels.inspect(p, ModelFamily.OTHER, name, "test");
        return new ModelCase(spec, "fixed", inputs, Optional.empty());
    }

    private Reference reference(ModelCase mc) {
        BackendProvider cpu = natives.forBackend(BackendId.CPU);
        return Reference.nativeCpu(cpu.execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofMinutes(1))).outputs());
    }

    private Map<BackendId, Availability> probes() {
        Map<BackendId, Availability> m = new LinkedHashMap<>();
        for (BackendId b : List.of(BackendId.WEBNN_CPU, BackendId.WASM)) {
            m.put(b, shell.probe(b));
        }
        return m;
    }

    private final Function<BackendId, BackendProvider> providers = b -> shell;

    private CaseContext ctx() {
        Provenance lane = Provenance.of("chromium-shell", shell.browserVersion(), "playwright", null, null, List.of(), Map.of());
        return new CaseContext("test-run", host, lane, LaneId.of(BrowserKind.CHROMIUM_SHELL));
    }

    @Test
    void aRealWrongOutputStaysWrongUnlessThePolicyMovesOn() throws Exception {
        ModelCase mc = argmaxWithTies();
        Reference ref = reference(mc);
        Chain chain = Chain.of(BackendId.WEBNN_CPU, BackendId.WASM);

        CaseExecutor strict = new CaseExecutor(0, 2, Duration.ofSeconds(60), FallbackPolicy.ON_FAILURE, CaseExecutor.CostLookup.NONE);
        RunResult wrong = strict.run(ctx(), mc, chain, probes(), providers, ref).result();
        assertThat(wrong.status()).as(wrong.reason()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(wrong.actual().orElse(null)).isEqualTo(BackendId.WEBNN_CPU);
        assertThat(wrong.parity().orElseThrow().within()).isFalse();
        assertThat(wrong.reason()).contains("outside tolerance");

        CaseExecutor movesOn = new CaseExecutor(0, 2, Duration.ofSeconds(60), FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT,
                CaseExecutor.CostLookup.NONE);
        RunResult fellBack = movesOn.run(ctx(), mc, chain, probes(), providers, ref).result();
        assertThat(fellBack.status()).as(fellBack.reason()).isEqualTo(Status.FELL_BACK);
        assertThat(fellBack.actual().orElse(null)).isEqualTo(BackendId.WASM);
        assertThat(fellBack.parity().orElseThrow().within()).isTrue();
        assertThat(fellBack.fallbackPath()).extracting(FallbackHop::backend).containsExactly(BackendId.WEBNN_CPU, BackendId.WASM);
        assertThat(fellBack.fallbackPath().get(0).reason()).contains("max abs err");
        assertThat(fellBack.id().requested()).isEqualTo(BackendId.WEBNN_CPU);
    }

    @Test
    void aRealHangOnTheFirstHopFailsItAndTheNextHopRunsInAFreshBrowser() throws Exception {
        ModelCase mc = dilatedMaxPool();
        Reference ref = reference(mc);
        int restarts = shell.restarts();
        // the case may take two minutes, but creating a session only six seconds: a hang costs the six
        CaseExecutor ex = new CaseExecutor(0, 2, Duration.ofSeconds(120), FallbackPolicy.ON_FAILURE, CaseExecutor.CostLookup.NONE)
                .withLoadTimeout(Duration.ofSeconds(6));
        long t0 = System.nanoTime();
        RunResult r = ex.run(ctx(), mc, Chain.of(BackendId.WEBNN_CPU, BackendId.WASM), probes(), providers, ref).result();
        assertThat((System.nanoTime() - t0) / 1e9).as("seconds for the whole case").isLessThan(60);
        assertThat(r.status()).as(r.reason()).isEqualTo(Status.FELL_BACK);
        assertThat(r.actual().orElse(null)).isEqualTo(BackendId.WASM);
        assertThat(r.fallbackPath().get(0).reason()).contains("Timed out creating the session");
        assertThat(r.parity().orElseThrow().within()).as("the wasm hop ran in a fresh page and matches native CPU").isTrue();
        assertThat(shell.restarts()).isEqualTo(restarts + 1);
    }

    @Test
    void aFallbackSaysWhatItCostsAgainstTheRequestedBackendsLastWorkingRun() throws Exception {
        ModelCase mc = mlp();
        Reference ref = reference(mc);
        Map<String, Double> history = new LinkedHashMap<>();
        CaseExecutor.CostLookup lookup = id -> Optional.ofNullable(history.get(id.key()));
        CaseExecutor ex = new CaseExecutor(1, 5, Duration.ofSeconds(60), FallbackPolicy.ON_FAILURE, lookup);
        Chain chain = Chain.of(BackendId.WEBNN_CPU, BackendId.WASM);
        RunResult worked = ex.run(ctx(), mc, chain, probes(), providers, ref).result();
        assertThat(worked.status()).as(worked.reason()).isEqualTo(Status.PASSED);
        history.put(worked.id().key(), worked.timings().orElseThrow().p50Ms());

        // the same case when the browser no longer offers WebNN (the probe's answer is the executor's input)
        Map<BackendId, Availability> noWebnn = new LinkedHashMap<>(probes());
        noWebnn.put(BackendId.WEBNN_CPU, Availability.unavailable(BackendId.WEBNN_CPU, "navigator.ml is undefined", "test"));
        RunResult fb = ex.run(ctx(), mc, chain, noWebnn, providers, ref).result();
        assertThat(fb.status()).isEqualTo(Status.FELL_BACK);
        assertThat(fb.id()).isEqualTo(worked.id());
        assertThat(fb.reason()).contains("cost: wasm p50").contains("vs webnn-cpu p50")
                .contains(String.format(java.util.Locale.ROOT, "%.3f ms", worked.timings().orElseThrow().p50Ms()));
    }
}
