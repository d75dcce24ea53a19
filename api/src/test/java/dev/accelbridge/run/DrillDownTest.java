package dev.accelbridge.run;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.OpProfile;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Recreate;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.nativerunner.HostDetector;
import dev.accelbridge.suites.Batching;
import dev.accelbridge.suites.FeedOptions;
import dev.accelbridge.suites.ModelDirectory;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import dev.accelbridge.suites.onnx.GraphBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Why wrong and why slow, with real parts: bisection to the first diverging node on a real divergence (the WebNN build
 * of the headless shell gets ArgMax with {@code select_last_index=1} wrong; SwiftShader's WebGPU differs from native
 * CPU below float32 noise), the repro it writes re-run on the backend, and per-op profiles and re-creation cycles on
 * wasm, WebGPU and native ONNX Runtime.
 */
@Nightly(guardedBy = "BisectionCliTest") // docs/testing.md#the-nightly-tier
@RequiresBrowser
class DrillDownTest {
    @TempDir
    static Path dir;
    static BridgeServer server;
    static BrowserBackendProvider shell;
    static BrowserBackendProvider chromium;
    static NativeProviders natives;
    static HostInfo host;

    @BeforeAll
    static void start() {
        server = BridgeServer.start(BridgeOptions.defaults());
        chromium = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT).build());
        if (BrowserDiscovery.find(BrowserKind.CHROMIUM_SHELL).isPresent()) {
            shell = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL)
                    .driver(DriverKind.PLAYWRIGHT).build());
        }
        natives = NativeProviders.load();
        host = HostDetector.detect();
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {shell, chromium, server, natives}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing what the tests started
            }
        }
    }

    /**
     * x → MatMul → Relu → ArgMax(axis 1, select_last_index 1) → Cast → Mul → y: rows that Relu makes all zero are ties,
     * which ONNX resolves to the last index; the ArgMax sits in the middle of the network.
     */
    private static ModelCase argmaxInTheMiddle() throws Exception {
        GraphBuilder g = new GraphBuilder("argmax-mid", 1);
        String x = g.input("x", DType.FLOAT32, 4, 8);
        String h = g.op("Relu", "relu", List.of(g.op("MatMul", "mm", List.of(x, g.uniform("w", 0.5, 8, 8)))));
        String a = g.op("ArgMax", "argmax", List.of(h), GraphBuilder.attr("axis", 1L), GraphBuilder.attr("keepdims", 1L),
                GraphBuilder.attr("select_last_index", 1L));
        String c = g.op("Cast", "cast", List.of(a), GraphBuilder.attr("to", 1L));
        g.opInto("Mul", "y", List.of(c, g.scalar("half", 0.5f)));
        g.output("y", DType.FLOAT32, 4, 1);
        float[] v = new float[32];
        for (int i = 0; i < v.length; i++) {
            v[i] = i < 16 ? 0f : (float) Math.sin(i);
        }
        Path p = dir.resolve("argmax-mid.onnx");
        Files.write(p, g.build("argmax in the middle").toByteArray());
        return new ModelCase(OnnxModels.inspect(p, ModelFamily.OTHER, "argmax-mid", "test"), "fixed",
                List.of(NamedTensor.ofFloats("x", new long[] {4, 8}, v)), Optional.empty());
    }

    /**
     * The same ArgMax, inside the then-branch of an If whose condition the input decides (max(x) > 0): the branch reads
     * h from the graph around it. Its values are not model outputs, so bisection must inline the taken branch.
     */
    private static ModelCase argmaxInsideAnIf() throws Exception {
        GraphBuilder g = new GraphBuilder("argmax-if", 1);
        String x = g.input("x", DType.FLOAT32, 4, 8);
        String h = g.op("Relu", "relu", List.of(g.op("MatMul", "mm", List.of(x, g.uniform("w", 0.5, 8, 8)))));
        String cond = g.op("Greater", "positive", List.of(g.op("ReduceMax", "max", List.of(x), GraphBuilder.attr("keepdims", 0L)),
                g.scalar("zero", 0f)));
        GraphBuilder then = new GraphBuilder("then", 2);
        String a = then.op("ArgMax", "argmax", List.of(h), GraphBuilder.attr("axis", 1L), GraphBuilder.attr("keepdims", 1L),
                GraphBuilder.attr("select_last_index", 1L));
        then.opInto("Cast", "t_out", List.of(a), GraphBuilder.attr("to", 1L));
        then.output("t_out", DType.FLOAT32, 4, 1);
        GraphBuilder other = new GraphBuilder("else", 3);
        other.opInto("ReduceMax", "e_out", List.of(h), GraphBuilder.ints("axes", 1), GraphBuilder.attr("keepdims", 1L));
        other.output("e_out", DType.FLOAT32, 4, 1);
        String sel = g.op("If", "sel", List.of(cond),
                new GraphBuilder.Attr(dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto.newBuilder().setName("then_branch")
                        .setType(dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto.AttributeType.GRAPH)
                        .setG(then.build("then").getGraph()).build()),
                new GraphBuilder.Attr(dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto.newBuilder().setName("else_branch")
                        .setType(dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto.AttributeType.GRAPH)
                        .setG(other.build("else").getGraph()).build()));
        g.opInto("Mul", "y", List.of(sel, g.scalar("half", 0.5f)));
        g.output("y", DType.FLOAT32, 4, 1);
        float[] v = new float[32];
        for (int i = 0; i < v.length; i++) {
            v[i] = i < 16 ? 0f : (float) Math.sin(i);
        }
        Path p = dir.resolve("argmax-if.onnx");
        Files.write(p, g.build("argmax inside an If").toByteArray());
        return new ModelCase(OnnxModels.inspect(p, ModelFamily.OTHER, "argmax-if", "test"), "fixed",
                List.of(NamedTensor.ofFloats("x", new long[] {4, 8}, v)), Optional.empty());
    }

    private static ModelCase convnet(double tolerance) {
        ModelCase mc = Batching.atBatch(SuiteCatalog.create(new SuiteOptions(dir, ModelSize.SMALL, 42)).cases(ModelFamily.VISION)
                .get(0), 1).orElseThrow();
        return Double.isNaN(tolerance) ? mc : ModelSet.withTolerance(mc, tolerance);
    }

    private static Reference reference(ModelCase mc) {
        return Reference.nativeCpu(natives.forBackend(BackendId.CPU).execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1,
                Duration.ofMinutes(1))).outputs());
    }

    private static RunResult run(BrowserBackendProvider browser, BrowserKind kind, BackendId backend, ModelCase mc,
                                 Reference ref, CaseExecutor ex) {
        Map<BackendId, Availability> probes = Map.of(backend, browser == null ? natives.forBackend(backend).probe(backend)
                : browser.probe(backend));
        LaneId lane = browser == null ? LaneId.NATIVE : LaneId.of(kind);
        CaseContext ctx = new CaseContext("test-run", host, Provenance.of(kind == null ? null : kind.id(), null, "playwright", null,
                null, List.of(), Map.of()), lane);
        return ex.run(ctx, mc, Chain.of(backend), probes, b -> browser == null ? natives.forBackend(b) : browser, ref).result();
    }

    private static Bisections bisections(String sub) {
        return new Bisections(dir.resolve(sub), Duration.ofSeconds(120), null, natives.forBackend(BackendId.CPU), false);
    }

    private static CaseExecutor executor() {
        return new CaseExecutor(0, 2, Duration.ofSeconds(120), FallbackPolicy.ON_FAILURE, CaseExecutor.CostLookup.NONE);
    }

    @Test
    void aWrongArgMaxInTheMiddleOfANetworkIsBisectedToExactlyThatNodeAndItsReproFailsThereAndPassesOnWasm() throws Exception {
        assumeTrue(shell != null, "the @sparticuz/chromium shell is not installed (npm ci in browser-runtime/browsers)");
        ModelCase mc = argmaxInTheMiddle();
        RunResult wrong = run(shell, BrowserKind.CHROMIUM_SHELL, BackendId.WEBNN_CPU, mc, reference(mc), executor());
        assertThat(wrong.status()).as(wrong.reason()).isEqualTo(Status.WRONG_OUTPUT);

        RunResult r = bisections("webnn").apply(wrong, mc, b -> shell);
        Bisection b = r.analysis().bisection();
        assertThat(b.outcome()).as(b.note()).isEqualTo(Bisection.Outcome.FOUND);
        assertThat(b.node()).isEqualTo("argmax/ArgMax_2");
        assertThat(b.opType()).isEqualTo("ArgMax");
        assertThat(b.attributes()).containsEntry("select_last_index", "1");
        assertThat(b.inputShapes()).singleElement().asString().contains("float32[4,8]");
        assertThat(b.path()).extracting(Bisection.Step::opType).containsExactly("ArgMax", "Cast", "Mul");
        assertThat(b.note()).contains("diverges on its own on webnn-cpu");
        Path repro = Path.of(b.reproDir());
        assertThat(repro.resolve("model.onnx")).exists();
        assertThat(repro.resolve("README.md")).content().contains("argmax").contains("onnxruntime-web").contains("webnn-cpu");

        reproWrongOnWebnnRightOnWasm(repro);
    }

    /** Accelbridge on a repro folder, judged against the reference outputs stored in it: wrong on webnn-cpu, right on wasm. */
    private static void reproWrongOnWebnnRightOnWasm(Path repro) {
        ModelCase folder = ModelDirectory.loadAll(repro, Optional.empty(), FeedOptions.none()).get(0).cases().get(0);
        RunResult onWebnn = run(shell, BrowserKind.CHROMIUM_SHELL, BackendId.WEBNN_CPU, folder, null, executor());
        RunResult onWasm = run(shell, BrowserKind.CHROMIUM_SHELL, BackendId.WASM, folder, null, executor());
        assertThat(onWebnn.status()).as(onWebnn.reason()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(onWasm.status()).as(onWasm.reason()).isEqualTo(Status.PASSED);
    }

    @Test
    void aWrongArgMaxInsideAnIfBranchIsBisectedToThatInnerNodeAndItsReproReproduces() throws Exception {
        assumeTrue(shell != null, "the @sparticuz/chromium shell is not installed (npm ci in browser-runtime/browsers)");
        ModelCase mc = argmaxInsideAnIf();
        RunResult wrong = run(shell, BrowserKind.CHROMIUM_SHELL, BackendId.WEBNN_CPU, mc, reference(mc), executor());
        assertThat(wrong.status()).as(wrong.reason()).isEqualTo(Status.WRONG_OUTPUT);

        RunResult r = bisections("webnn-if").apply(wrong, mc, b -> shell);
        Bisection b = r.analysis().bisection();
        assertThat(b.outcome()).as(b.note()).isEqualTo(Bisection.Outcome.FOUND);
        // named at its node inside the taken branch, not at the If
        assertThat(b.node()).isEqualTo("sel/If_4/then/argmax/ArgMax_0");
        assertThat(b.opType()).isEqualTo("ArgMax");
        assertThat(b.attributes()).containsEntry("select_last_index", "1");
        assertThat(b.note()).contains("diverges on its own on webnn-cpu");
        reproWrongOnWebnnRightOnWasm(Path.of(b.reproDir()));
    }

    @Test
    void belowFloat32NoiseWebGpuOnASuiteModelNamesARealFirstNodeWhoseReproDivergesToo() {
        ModelCase mc = convnet(1e-9);
        RunResult wrong = run(chromium, BrowserKind.CHROMIUM, BackendId.WEBGPU, mc, reference(mc), executor());
        assertThat(wrong.status()).as(wrong.reason()).isEqualTo(Status.WRONG_OUTPUT);
        Bisection b = bisections("webgpu").apply(wrong, mc, x -> chromium).analysis().bisection();
        assertThat(b.outcome()).as(b.note()).isEqualTo(Bisection.Outcome.FOUND);
        assertThat(mc.model().ops()).contains(b.opType());
        assertThat(b.maxAbsErr()).isGreaterThan(1e-9);
        assertThat(b.tolerance()).isEqualTo(1e-9);
        assertThat(b.path().get(0).node()).isEqualTo(b.node());
        assertThat(b.note()).contains("diverges on its own on webgpu");
        assertThat(Path.of(b.reproDir()).resolve("accelbridge.json")).content().contains("1.0E-9");
        // the folder, run as a user's model, is WRONG_OUTPUT on webgpu at that tolerance
        ModelCase folder = ModelDirectory.loadAll(Path.of(b.reproDir()), Optional.empty(), FeedOptions.none()).get(0).cases().get(0);
        RunResult again = run(chromium, BrowserKind.CHROMIUM, BackendId.WEBGPU, folder, null, executor());
        assertThat(again.status()).as(again.reason()).isEqualTo(Status.WRONG_OUTPUT);
    }

    @Test
    void perOpProfilesAndRecreationCyclesOnWasmWebGpuAndNative() {
        ModelCase mc = convnet(Double.NaN);
        int timed = 3;
        CaseExecutor ex = new CaseExecutor(1, timed, Duration.ofSeconds(180), FallbackPolicy.ON_FAILURE, CaseExecutor.CostLookup.NONE)
                .withDrillDown(4, 3);
        Reference ref = reference(mc);
        for (RunResult r : List.of(run(chromium, BrowserKind.CHROMIUM, BackendId.WASM, mc, ref, ex),
                run(chromium, BrowserKind.CHROMIUM, BackendId.WEBGPU, mc, ref, ex),
                run(null, null, BackendId.CPU, mc, ref, ex))) {
            assertThat(r.status()).as(r.reason()).isEqualTo(Status.PASSED);
            OpProfile p = r.analysis().profile();
            assertThat(p).as(r.requested().id()).isNotNull();
            // the profile ran on iterations of its own: the timed samples are the timed loop's, untouched
            assertThat(r.timings().orElseThrow().iterations()).isEqualTo(timed);
            assertThat(p.iterations()).isEqualTo(4);
            assertThat(p.ops()).isNotEmpty();
            assertThat(p.ops()).extracting(OpProfile.OpTime::opType).anyMatch(o -> o.contains("Conv"));
            assertThat(p.ops().stream().mapToDouble(OpProfile.OpTime::share).sum()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
            // the stated factor (docs/diagnosis.md): op times sum to between 0.05x and 3x the profiled runs' own wall time (measured 0.6-1.7)
            assertThat(p.totalMs()).as(r.requested().id() + " " + p.describe()).isBetween(0.05 * p.profiledP50Ms(), 3 * p.profiledP50Ms());
            assertThat(p.requestedProvider()).isNotBlank();
            Recreate rec = r.analysis().recreate();
            assertThat(rec.samples()).hasSize(3);
            assertThat(rec.samples()).allSatisfy(c -> {
                assertThat(c.rssBytes()).isPositive();
                assertThat(c.createMs()).isPositive();
            });
            assertThat(r.analysis().coldStart().firstRunMs()).isPositive();
        }
        RunResult gpu = run(chromium, BrowserKind.CHROMIUM, BackendId.WEBGPU, mc, ref, ex);
        assertThat(gpu.analysis().profile().source()).as("SwiftShader has timestamp-query").contains("timestamp");
    }
}
