package dev.accelbridge.reports.recommend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Recommendations from constructed results (test fixtures, not measurements shown to anyone). */
class RecommenderTest {
    private final HostInfo h = host("alpha");

    private List<RunResult> store() {
        return List.of(
                passed("r", t(0), h, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(h), new double[]{2, 2, 2}),
                passed("r", t(1), h, ModelFamily.TEXT, "tiny", BackendId.CPU, nativeProv(h), new double[]{4, 4, 4}),
                passed("r", t(2), h, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(h, false), new double[]{4, 4, 4}),
                passed("r", t(3), h, ModelFamily.TEXT, "tiny", BackendId.WASM, chromiumProv(h, false), new double[]{8, 8, 8}),
                // faster, but wrong on one model of the family: never recommended for the family
                passed("r", t(4), h, ModelFamily.TEXT, "bert", BackendId.WEBGPU, chromiumProv(h, false), new double[]{1, 1, 1}),
                wrong("r", t(5), ModelFamily.TEXT, "tiny", BackendId.WEBGPU, chromiumProv(h, false), new double[]{1, 1, 1}),
                // a fallback ran on wasm: it is wasm's figure, not webnn's
                fellBack("r", t(6), h, ModelFamily.TEXT, "bert", BackendId.WEBNN_CPU, BackendId.WASM, chromiumProv(h, false),
                        new double[]{0.5, 0.5, 0.5}),
                passed("r", t(7), h, ModelFamily.VISION, "convnet", BackendId.WASM, chromiumProv(h, false), new double[]{3, 3, 3}));
    }

    /**
     * Found when tried: on the default store {@code recommend} named {@code cpu [native]} best for every family,
     * with {@code wasm [firefox] … 0.33× native cpu} as the runner-up. A team shipping a web app needs the best backend per
     * browser, a team shipping natively the best native one: one answer per deployment target.
     */
    @Test
    void theFastestBackendThatPassedOnEveryModelOfTheFamilyPerDeploymentTarget() {
        List<Recommendation> recs = Recommender.recommend(store(), false);
        List<Recommendation> text = recs.stream().filter(r -> r.family().equals("text")).toList();
        assertThat(text).extracting(Recommendation::target).containsExactly("native", "chromium");
        Recommendation nat = text.get(0);
        assertThat(nat.best().backend()).isEqualTo("cpu");
        assertThat(nat.best().browser()).isNull();
        assertThat(nat.best().speedupVsCpu()).isCloseTo(1.0, within(1e-9));
        assertThat(nat.runnerUp()).as("no other native backend ran").isNull();
        Recommendation web = text.get(1);
        assertThat(web.best().backend()).as("webgpu was wrong on one model, webnn fell back").isEqualTo("wasm");
        assertThat(web.best().browser()).isEqualTo("chromium");
        assertThat(web.best().speedupVsCpu()).isCloseTo(0.5, within(1e-9));
        assertThat(web.best().speedupVsWasm()).isCloseTo(1.0, within(1e-9));
        assertThat(web.best().p50Ms()).isCloseTo(Math.sqrt(4 * 8), within(1e-9));
        assertThat(web.best().models()).isEqualTo(2);
        assertThat(web.runnerUp()).isNull();
        Recommendation vision = recs.stream().filter(r -> r.family().equals("vision")).findFirst().orElseThrow();
        assertThat(vision.best()).isNull();
        assertThat(vision.note()).contains("not measured");
    }

    /** Found when tried: a speed-up below 1 was printed as "0.33× native cpu"; it is said as slower, with what it is against. */
    @Test
    void aSpeedBelowOneIsSaidAsSlower() {
        var o = new Recommendation.Option("wasm", "firefox", 6.0, 1 / 3.0, 1.0, -1, 3);
        assertThat(RecommendationJson.describe(o)).contains("3.00× slower than native cpu").doesNotContain("0.33×")
                .doesNotContain("than wasm");
        var g = new Recommendation.Option("webgpu", "chromium", 1.0, 2.0, 1.3, -1, 3);
        assertThat(RecommendationJson.describe(g)).contains("2.00× faster than native cpu").contains("1.30× faster than wasm");
        assertThat(RecommendationJson.than(1.001, "native cpu")).isEqualTo("as fast as native cpu");
        assertThat(RecommendationJson.than(Double.NaN, "wasm")).isEqualTo("not compared with wasm");
    }

    @Test
    void perModelTheFasterBackendWinsWhereItPassed() {
        List<Recommendation> recs = Recommender.recommend(store(), true);
        Recommendation bert = recs.stream().filter(r -> "bert".equals(r.model()) && r.target().equals("chromium")).findFirst()
                .orElseThrow();
        assertThat(bert.best().backend()).isEqualTo("webgpu");
        assertThat(bert.best().speedupVsCpu()).isCloseTo(2.0, within(1e-9));
        assertThat(bert.best().speedupVsWasm()).as("wasm ran in the same browser at 4 ms").isCloseTo(4.0, within(1e-9));
        JsonNode json = RecommendationJson.array(recs);
        JsonNode b = json.get(recs.indexOf(bert));
        assertThat(b.get("best").get("backend").asText()).isEqualTo("webgpu");
        assertThat(b.get("runnerUp").get("backend").asText()).as("in the same browser").isEqualTo("wasm");
        assertThat(b.get("target").asText()).isEqualTo("chromium");
        assertThat(b.get("precision").asText()).isEqualTo("fp32");
        assertThat(b.get("host").asText()).isEqualTo("alpha");
    }

    /**
     * A floored figure (Firefox's polled WebGPU readback) is never a candidate; each option carries its speed-up's
     * interval and the Offline figure (items per second at the best batch size measured).
     */
    @Test
    void flooredFiguresAreNoCandidatesAndOptionsCarryTheirIntervalAndOfflineFigure() {
        var ff = new dev.accelbridge.core.Provenance("alpha", "fp-alpha", "linux", "firefox", "153", "process", "lavapipe", true,
                List.of("webgpu"), java.util.Map.of(), null);
        RunResult cpu1 = passed("r", t(0), h, ModelFamily.VISION, "convnet", BackendId.CPU, nativeProv(h), samples(1, 0.02, 60, 1));
        RunResult wasm1 = passed("r", t(1), h, ModelFamily.VISION, "convnet", BackendId.WASM, ff, samples(3, 0.02, 60, 2));
        RunResult gpu1 = passed("r", t(2), h, ModelFamily.VISION, "convnet", BackendId.WEBGPU, ff,
                new double[]{100.0, 100.0, 100.1, 99.9, 100.0, 100.2, 100.0, 100.0, 100.1, 100.0});
        gpu1 = gpu1.withTimings(gpu1.timings().orElseThrow().withClock(0.02, 100.16));
        // the same model at batch 4 on wasm: 8 ms a call is 500 items/s, against 333 at batch 1
        RunResult cpu4 = batch(passed("r", t(3), h, ModelFamily.VISION, "convnet", BackendId.CPU, nativeProv(h), samples(3, 0.02, 60, 3)), 4);
        RunResult wasm4 = batch(passed("r", t(4), h, ModelFamily.VISION, "convnet", BackendId.WASM, ff, samples(8, 0.02, 60, 4)), 4);
        List<Recommendation> recs = Recommender.recommend(List.of(cpu1, wasm1, gpu1, cpu4, wasm4), false);
        Recommendation firefox = recs.stream().filter(r -> r.target().equals("firefox")).findFirst().orElseThrow();
        assertThat(firefox.best().backend()).as("the floored webgpu figure is not ranked").isEqualTo("wasm");
        assertThat(firefox.runnerUp()).isNull();
        var o = firefox.best();
        assertThat(o.speedupVsCpuCi().lo()).isLessThan(o.speedupVsCpu());
        assertThat(o.speedupVsCpuCi().hi()).isGreaterThan(o.speedupVsCpu());
        assertThat(o.offlineBatch()).isEqualTo(4);
        assertThat(o.offlineItemsPerSec()).isCloseTo(4 * 1000.0 / wasm4.timings().orElseThrow().p50Ms(), within(1e-6));
        assertThat(RecommendationJson.describe(o)).containsPattern("slower than native cpu \\[\\d\\.\\d\\d–\\d\\.\\d\\d\\]")
                .containsPattern("offline \\d+ items/s at batch 4");
    }

    private static RunResult batch(RunResult r, int b) {
        var id = r.id();
        return RunResult.of(r.runId(), r.startedAt(), new dev.accelbridge.core.CaseId(id.family(), id.model(), id.modelSha256(),
                id.inputSet(), id.inputShapes(), id.precision(), b, id.requested(), id.lane()), r.outcome(), r.status(), r.reason(),
                r.provenance(), r.memory(), r.fallbackPath(), r.warnings());
    }
}
