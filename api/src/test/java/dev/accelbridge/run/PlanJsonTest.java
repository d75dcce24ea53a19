package dev.accelbridge.run;

import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.suites.FeedOptions;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A plan stored as data reads back as the same plan: what --resume and the dashboard's launched run rely on. */
class PlanJsonTest {
    @Test
    void everyFieldOfAPlanSurvivesTheStoredForm() {
        RunPlan plan = RunPlan.builder()
                .workload(w -> w.optSuites(List.of(ModelFamily.TEXT)).optUserModels(List.of(Path.of("/models/a"))).optUserFamily(ModelFamily.VISION)
                        .optSize(dev.accelbridge.suites.ModelSize.REAL).optSweep(true).optSeed(7).optModelCache(Path.of("/tmp/cache")).optPrecisions(List.of(Precision.FP32, Precision.FP16))
                        .optBatchSizes(List.of(1, 4)).optFeed(new FeedOptions(Map.of("batch", 2L), Map.of("x", new long[] {2, 3}),
                                Map.of("sr", "16000"), -1.0, 1.0, 1e-3, Path.of("/models"))).optShard(Shard.parse("2/3")))
                .targets(t -> t.setBackends(List.of(BackendId.WEBGPU, BackendId.WASM, BackendId.CPU))
                        .optChains(Chains.defaults().with(Chains.parse("webgpu,wasm"))).optPolicy(FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT)
                        .optBrowsers(List.of(BrowserKind.CHROMIUM, BrowserKind.FIREFOX)).optDriver(DriverKind.SELENIUM)
                        .optVersions(Map.of("ort-web", List.of("1.22.0"), "ortVersion", List.of("1.22.0")))
                        .optExposure(Exposure.of("0.0.0.0", URI.create("http://10.0.0.5:8765")).withTls(new Exposure.Tls(false,
                                java.util.Optional.of(Path.of("/keys/bridge.p12")), java.util.Optional.of(Path.of("/keys/password")))))
                        .optParallel(3).optHeadless(false).optWebGpuAdapter(dev.accelbridge.browser.launch.WebGpuAdapter.HARDWARE))
                .sampling(s -> s.optWarmups(1).optIterations(7))
                .limits(l -> l.optRetries(2).optMaxResultBytes(5L << 20).optCaseTimeout(Duration.ofSeconds(90)).optThreads(2)
                        .optLoadTimeout(Duration.ofSeconds(40)))
                .drillDown(d -> d.optBisect(false).optProfileIterations(7).optRecreate(3))
                .build();
        String recorded = PlanJson.record(plan, "cli", "nightly");
        RunPlan back = PlanJson.stored(recorded).orElseThrow();
        assertThat(back).usingRecursiveComparison().ignoringFields("workload.feed").isEqualTo(plan);
        assertThat(back.workload().feed().shapes().get("x")).containsExactly(2, 3);
        assertThat(back.workload().feed().dims()).isEqualTo(plan.workload().feed().dims());
        assertThat(back.workload().feed().inputs()).isEqualTo(plan.workload().feed().inputs());
        assertThat(back.workload().feed().tolerance()).isEqualTo(1e-3);
        assertThat(PlanJson.write(back)).isEqualTo(PlanJson.write(plan));
        assertThat(PlanJson.write(plan).toString()).contains("\"webGpuAdapter\":\"hardware\"");
        assertThat(ResultJson.parse(recorded).get("origin").asText()).isEqualTo("cli");
        assertThat(ResultJson.parse(recorded).get("label").asText()).isEqualTo("nightly");
    }

    @Test
    void remoteBrowsersSurviveTheStoredFormAndTheirOptionsAreCheckedTogether() {
        RunPlan grid = RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WEBGPU)).optGrid(URI.create("http://10.0.0.9:4444")).optRemote(new RemoteBrowsers(java.util.Map.of("accelbridge:gpu", "hardware"), java.util.Optional.empty()))).build();
        assertThat(PlanJson.read(PlanJson.write(grid))).usingRecursiveComparison().ignoringFields("workload.feed").isEqualTo(grid);
        RunPlan server = RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WEBGPU)).optRemote(new RemoteBrowsers(java.util.Map.of(), java.util.Optional.of(URI.create("ws://10.0.0.7:3000/"))))).build();
        assertThat(PlanJson.read(PlanJson.write(server)).targets().remote().connect()).contains(URI.create("ws://10.0.0.7:3000/"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WEBGPU)).optRemote(new RemoteBrowsers(java.util.Map.of("accelbridge:gpu", "hardware"), java.util.Optional.empty()))).build())
                .hasMessageContaining("--grid-capability").hasMessageContaining("no --grid");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WEBGPU)).optGrid(URI.create("http://10.0.0.9:4444")).optRemote(new RemoteBrowsers(java.util.Map.of(), java.util.Optional.of(URI.create("ws://10.0.0.7:3000/"))))).build())
                .hasMessageContaining("--connect").hasMessageContaining("--grid");
    }

    @Test
    void theDefaultsReadBackAsDefaultsAndAPlanBeforePlansWereDataIsNone() {
        RunPlan plan = RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.CPU))).build();
        RunPlan back = PlanJson.read(PlanJson.write(plan));
        assertThat(back).usingRecursiveComparison().isEqualTo(plan);
        assertThat(back.workload().batchSizes()).isEmpty();
        assertThat(PlanJson.stored("{\"args\":[\"--native\"]}")).isEmpty();
        assertThat(PlanJson.stored("not json")).isEmpty();
        assertThat(PlanJson.stored(null)).isEmpty();
    }

    @Test
    void aStoredPlanIsCheckedAsANewOneIs() {
        var o = PlanJson.write(RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.CPU))).build());
        var sampling = (com.fasterxml.jackson.databind.node.ObjectNode) o.get("sampling");
        sampling.put("iterations", 0);
        assertThatThrownBy(() -> PlanJson.read(o)).isInstanceOf(AccelbridgeException.class).hasMessageContaining("--iterations");
        sampling.put("iterations", "many");
        assertThatThrownBy(() -> PlanJson.read(o)).isInstanceOf(AccelbridgeException.class).hasMessageContaining("cannot be read")
                .hasMessageContaining("sampling.iterations");
        sampling.put("iterations", 3);
        ((com.fasterxml.jackson.databind.node.ObjectNode) o.get("targets")).putArray("backends").add("quantum");
        assertThatThrownBy(() -> PlanJson.read(o)).isInstanceOf(AccelbridgeException.class).hasMessageContaining("quantum");
    }

    /** What the store holds for runs started before plans were groups (version 1, one flat object), as that version wrote it. */
    static final String V1 = """
            {"version":1,"suites":["text"],"models":["/models/a"],"family":"vision","largeModels":true,"seed":7,
             "backends":["webgpu","wasm","cpu"],"chains":{"cpu":["cpu"],"wasm":["wasm"],"webgpu":["webgpu","wasm"]},
             "policy":"ON_FAILURE_AND_WRONG_OUTPUT","browsers":["chromium","firefox"],"ortWeb":["1.22.0"],"ort":["1.22.0"],
             "driver":"selenium","grid":null,"headless":false,"warmups":1,"iterations":7,"minDurationMs":0,"warmupDurationMs":0,
             "caseTimeoutMs":90000,"modelCache":"/tmp/cache","feed":{"dims":{"batch":2},"shapes":{"x":[2,3]},"inputs":{"sr":"16000"},
             "rangeLo":-1.0,"rangeHi":1.0,"tolerance":0.001,"baseDir":"/models"},"loadTimeoutMs":40000,"threads":2,
             "precisions":["fp32","fp16"],"batchSizes":[1,4],"drillDown":{"bisect":false,"bisectAlways":false,"profileIterations":7,
             "recreate":3},"shard":"2/3","bridgeHost":"0.0.0.0","advertise":"http://10.0.0.5:8765","parallel":3,"retries":2,
             "maxResultBytes":5242880,"noTls":false,"tlsKeystore":"/keys/bridge.p12","tlsPasswordFile":"/keys/password",
             "gridCapabilities":null,"connect":null,"connectExecutable":null}""";

    /** A run stored before sampling had a depth settled every case: resumed, it does so again, not today's default. */
    @Test
    void aPlanStoredBeforeSamplingHadADepthResumesSettlingEveryCase() throws Exception {
        String stored = "{\"origin\":\"cli\",\"plan\":" + V1 + "}";
        assertThat(PlanJson.stored(stored).orElseThrow().sampling().depth()).isEqualTo(dev.accelbridge.core.SamplingDepth.FULL);
        String v3 = "{\"origin\":\"cli\",\"plan\":{\"version\":3,\"targets\":{\"backends\":[\"wasm\"]},\"sampling\":{\"warmups\":1}}}";
        assertThat(PlanJson.stored(v3).orElseThrow().sampling().depth()).isEqualTo(dev.accelbridge.core.SamplingDepth.FULL);
        RunPlan now = PlanJson.read(ResultJson.MAPPER.readTree(V1));
        assertThat(PlanJson.stored(PlanJson.record(now, "cli", null)).orElseThrow().sampling().depth())
                .as("stored now: its own depth").isEqualTo(dev.accelbridge.core.SamplingDepth.AUTO);
    }

    @Test
    void theSweepAloneIsAWorkloadAndNoSuiteRunsBesideItUnlessNamed() {
        Workload alone = Workload.builder().optSweep(true).build();
        assertThat(alone.suites()).isEmpty();
        assertThat(alone.sweep()).isTrue();
        assertThat(Workload.builder().optSweep(true).optSuites(List.of(ModelFamily.TEXT)).build().suites()).containsExactly(ModelFamily.TEXT);
        assertThat(Workload.builder().build().suites()).isEqualTo(Workload.DEFAULT_SUITES);
    }

    @Test
    void aPlanStoredBeforePlansWereGroupsReadsBackAsTheSamePlan() throws Exception {
        RunPlan v1 = PlanJson.read(ResultJson.MAPPER.readTree(V1));
        RunPlan plan = PlanJson.stored(PlanJson.record(v1, "cli", null)).orElseThrow();
        assertThat(PlanJson.write(plan)).isEqualTo(PlanJson.write(v1));
        assertThat(v1.workload().suites()).containsExactly(ModelFamily.TEXT);
        assertThat(v1.workload().size()).as("stored as largeModels: true").isEqualTo(dev.accelbridge.suites.ModelSize.LARGE);
        assertThat(v1.workload().shard()).contains(Shard.parse("2/3"));
        assertThat(v1.workload().feed().shapes().get("x")).containsExactly(2, 3);
        assertThat(v1.targets().chainOf(BackendId.WEBGPU).hops()).containsExactly(BackendId.WEBGPU, BackendId.WASM);
        assertThat(v1.targets().versions()).isEqualTo(Map.of("ortWebVersion", List.of("1.22.0"), "ortVersion", List.of("1.22.0")));
        assertThat(v1.targets().exposure().tls().keystore()).contains(Path.of("/keys/bridge.p12"));
        assertThat(v1.targets().parallel()).isEqualTo(3);
        assertThat(v1.sampling()).isEqualTo(new Sampling(1, 7, Duration.ZERO, Duration.ZERO, dev.accelbridge.core.SamplingDepth.AUTO));
        assertThat(v1.limits().caseTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(v1.limits().loadTimeout()).contains(Duration.ofSeconds(40));
        assertThat(v1.drillDown()).isEqualTo(new DrillDown(false, false, 7, 3));
    }

    @Test
    void aPlanStoredWhenVersionsWereRuntimesReadsBackWithThemOnTheirAxes() throws Exception {
        RunPlan v2 = PlanJson.read(ResultJson.MAPPER.readTree("""
                {"version":2,"targets":{"backends":["wasm","cpu"],"runtimes":{"ortWeb":["1.22.0"],"ort":["1.19.0"]}}}"""));
        assertThat(v2.targets().versions()).isEqualTo(Map.of("ortWebVersion", List.of("1.22.0"), "ortVersion", List.of("1.19.0")));
        assertThat(PlanJson.write(v2).get("version").asInt()).isEqualTo(PlanJson.VERSION);
        assertThat(PlanJson.write(v2).get("targets").get("versions").get("ortWebVersion").get(0).asText()).isEqualTo("1.22.0");
        assertThat(PlanJson.read(PlanJson.write(v2))).isEqualTo(v2);
        // an axis that is not on the class path is named, with the ones that are
        assertThatThrownBy(() -> PlanJson.read(ResultJson.MAPPER.readTree("""
                {"version":3,"targets":{"backends":["wasm"],"versions":{"colour":["1"]}}}"""))).hasMessageContaining("No version axis is called")
                .isInstanceOfSatisfying(dev.accelbridge.core.AccelbridgeException.class, e -> assertThat(e.fix()).contains("ortWebVersion"));
    }
}
