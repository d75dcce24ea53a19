package dev.accelbridge.bridge.run;

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
                .setBackends(List.of(BackendId.WEBGPU, BackendId.WASM, BackendId.CPU))
                .optSuites(List.of(ModelFamily.TEXT))
                .optUserModels(List.of(Path.of("/models/a")))
                .optUserFamily(ModelFamily.VISION)
                .optLargeModels(true)
                .optSeed(7)
                .optChains(Chains.defaults().with(Chains.parse("webgpu,wasm")))
                .optPolicy(FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT)
                .optBrowsers(List.of(BrowserKind.CHROMIUM, BrowserKind.FIREFOX))
                .optDriver(DriverKind.SELENIUM)
                .optExposure(Exposure.of("0.0.0.0", URI.create("http://10.0.0.5:8765")).withTls(new Exposure.Tls(false,
                        java.util.Optional.of(Path.of("/keys/bridge.p12")), java.util.Optional.of(Path.of("/keys/password")))))
                .optParallel(3)
                .optRetries(2)
                .optMaxResultBytes(5L << 20)
                .optHeadless(false)
                .optWarmups(1)
                .optIterations(7)
                .optCaseTimeout(Duration.ofSeconds(90))
                .optModelCache(Path.of("/tmp/cache"))
                .optThreads(2)
                .optPrecisions(List.of(Precision.FP32, Precision.FP16))
                .optBatchSizes(List.of(1, 4))
                .optFeed(new FeedOptions(Map.of("batch", 2L), Map.of("x", new long[] {2, 3}), Map.of("sr", "16000"), -1.0, 1.0, 1e-3,
                        Path.of("/models")))
                .optLoadTimeout(Duration.ofSeconds(40))
                .optDrillDown(false, 7, 3)
                .optShard(Shard.parse("2/3"))
                .build();
        String recorded = PlanJson.record(plan, "cli", "nightly");
        RunPlan back = PlanJson.stored(recorded).orElseThrow();
        assertThat(back).usingRecursiveComparison().ignoringFields("feed").isEqualTo(plan);
        assertThat(back.feed().shapes().get("x")).containsExactly(2, 3);
        assertThat(back.feed().dims()).isEqualTo(plan.feed().dims());
        assertThat(back.feed().inputs()).isEqualTo(plan.feed().inputs());
        assertThat(back.feed().tolerance()).isEqualTo(1e-3);
        assertThat(PlanJson.write(back)).isEqualTo(PlanJson.write(plan));
        assertThat(ResultJson.parse(recorded).get("origin").asText()).isEqualTo("cli");
        assertThat(ResultJson.parse(recorded).get("label").asText()).isEqualTo("nightly");
    }

    @Test
    void remoteBrowsersSurviveTheStoredFormAndTheirOptionsAreCheckedTogether() {
        RunPlan grid = RunPlan.builder().setBackends(List.of(BackendId.WEBGPU)).optGrid(URI.create("http://10.0.0.9:4444"))
                .optRemote(new RemoteBrowsers(java.util.Map.of("accelbridge:gpu", "hardware"), java.util.Optional.empty())).build();
        assertThat(PlanJson.read(PlanJson.write(grid))).usingRecursiveComparison().ignoringFields("feed").isEqualTo(grid);
        RunPlan server = RunPlan.builder().setBackends(List.of(BackendId.WEBGPU))
                .optRemote(new RemoteBrowsers(java.util.Map.of(), java.util.Optional.of(URI.create("ws://10.0.0.7:3000/")))).build();
        assertThat(PlanJson.read(PlanJson.write(server)).remote().connect()).contains(URI.create("ws://10.0.0.7:3000/"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RunPlan.builder().setBackends(List.of(BackendId.WEBGPU))
                .optRemote(new RemoteBrowsers(java.util.Map.of("accelbridge:gpu", "hardware"), java.util.Optional.empty())).build())
                .hasMessageContaining("--grid-capability").hasMessageContaining("no --grid");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RunPlan.builder().setBackends(List.of(BackendId.WEBGPU))
                .optGrid(URI.create("http://10.0.0.9:4444"))
                .optRemote(new RemoteBrowsers(java.util.Map.of(), java.util.Optional.of(URI.create("ws://10.0.0.7:3000/")))).build())
                .hasMessageContaining("--connect").hasMessageContaining("--grid");
    }

    @Test
    void theDefaultsReadBackAsDefaultsAndAPlanBeforePlansWereDataIsNone() {
        RunPlan plan = RunPlan.builder().setBackends(List.of(BackendId.CPU)).build();
        RunPlan back = PlanJson.read(PlanJson.write(plan));
        assertThat(back).usingRecursiveComparison().isEqualTo(plan);
        assertThat(back.batchSizes()).isEmpty();
        assertThat(PlanJson.stored("{\"args\":[\"--native\"]}")).isEmpty();
        assertThat(PlanJson.stored("not json")).isEmpty();
        assertThat(PlanJson.stored(null)).isEmpty();
    }

    @Test
    void aStoredPlanIsCheckedAsANewOneIs() {
        var o = PlanJson.write(RunPlan.builder().setBackends(List.of(BackendId.CPU)).build());
        o.put("iterations", 0);
        assertThatThrownBy(() -> PlanJson.read(o)).isInstanceOf(AccelbridgeException.class).hasMessageContaining("--iterations");
        o.put("iterations", "many");
        assertThatThrownBy(() -> PlanJson.read(o)).isInstanceOf(AccelbridgeException.class).hasMessageContaining("stored plan");
        o.put("iterations", 3).putArray("backends").add("quantum");
        assertThatThrownBy(() -> PlanJson.read(o)).isInstanceOf(AccelbridgeException.class).hasMessageContaining("quantum");
    }
}
