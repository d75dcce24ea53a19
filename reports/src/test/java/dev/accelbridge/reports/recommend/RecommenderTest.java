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

    @Test
    void theFastestBackendThatPassedOnEveryModelOfTheFamily() {
        List<Recommendation> recs = Recommender.recommend(store(), false);
        Recommendation text = recs.stream().filter(r -> r.family().equals("text")).findFirst().orElseThrow();
        assertThat(text.best().backend()).isEqualTo("cpu");
        assertThat(text.best().browser()).isNull();
        assertThat(text.best().speedupVsCpu()).isCloseTo(1.0, within(1e-9));
        assertThat(text.runnerUp().backend()).isEqualTo("wasm");
        assertThat(text.runnerUp().browser()).isEqualTo("chromium");
        assertThat(text.runnerUp().speedupVsCpu()).isCloseTo(0.5, within(1e-9));
        assertThat(text.runnerUp().speedupVsWasm()).isCloseTo(1.0, within(1e-9));
        assertThat(text.runnerUp().p50Ms()).isCloseTo(Math.sqrt(4 * 8), within(1e-9));
        assertThat(text.runnerUp().models()).isEqualTo(2);
        Recommendation vision = recs.stream().filter(r -> r.family().equals("vision")).findFirst().orElseThrow();
        assertThat(vision.best()).isNull();
        assertThat(vision.note()).contains("not measured");
    }

    @Test
    void perModelTheFasterBackendWinsWhereItPassed() {
        List<Recommendation> recs = Recommender.recommend(store(), true);
        Recommendation bert = recs.stream().filter(r -> "bert".equals(r.model())).findFirst().orElseThrow();
        assertThat(bert.best().backend()).isEqualTo("webgpu");
        assertThat(bert.best().speedupVsCpu()).isCloseTo(2.0, within(1e-9));
        assertThat(bert.best().speedupVsWasm()).as("wasm ran in the same browser at 4 ms").isCloseTo(4.0, within(1e-9));
        JsonNode json = RecommendationJson.array(recs);
        JsonNode b = json.get(recs.indexOf(bert));
        assertThat(b.get("best").get("backend").asText()).isEqualTo("webgpu");
        assertThat(b.get("runnerUp").get("backend").asText()).isEqualTo("cpu");
        assertThat(b.get("precision").asText()).isEqualTo("fp32");
        assertThat(b.get("host").asText()).isEqualTo("alpha");
    }
}
