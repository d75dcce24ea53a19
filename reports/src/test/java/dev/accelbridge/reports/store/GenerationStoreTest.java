package dev.accelbridge.reports.store;

import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.core.Timings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.host;
import static org.assertj.core.api.Assertions.assertThat;

/** A generation case in the store and in the one JSON form: its scenario is part of its identity, its figures come back. */
class GenerationStoreTest {
    @TempDir
    Path dir;

    static RunResult generation(String run, HostInfo h, int newTokens) {
        return dev.accelbridge.reports.Fixtures.generation(run, h, newTokens);
    }

    @Test
    void aGenerationsScenarioIsItsIdentityAndItsFiguresComeBack() {
        HostInfo h = host("alpha");
        try (MatrixStore s = MatrixStore.open(dir.resolve("g.duckdb"))) {
            String run = s.beginRun(h, Map.of(), "{}");
            RunResult n32 = generation(run, h, 32);
            RunResult n16 = generation(run, h, 16);
            s.write(n32);
            s.write(n16);
            s.finishRun(run);
            List<RunResult> back = s.results(run);
            assertThat(back).extracting(r -> r.id().scenario()).containsExactly(ScenarioId.generate(8, 32), ScenarioId.generate(8, 16));
            assertThat(back.get(0).id()).isNotEqualTo(back.get(1).id());
            assertThat(back.get(0).id().key()).endsWith("/b1/generate-p8-n32/wasm/chromium");
            Decoding d = ((dev.accelbridge.core.Decoding) back.get(0).timings().orElseThrow().figures());
            assertThat(d).isEqualTo(((dev.accelbridge.core.Decoding) n32.timings().orElseThrow().figures()));
            assertThat(d.tokensPerSec()).isEqualTo(((dev.accelbridge.core.Decoding) n32.timings().orElseThrow().figures()).tokensPerSec());
            assertThat(d.tokensVerified()).isTrue();
            assertThat(s.completedCases(run)).containsExactlyInAnyOrder(n32.id(), n16.id());
        }
    }

    @Test
    void theJsonFormCarriesTheDerivedFiguresAndTheStepsOnlyWithTheSamples() {
        RunResult r = generation("r1", host("alpha"), 32);
        ObjectNode withSteps = ResultJson.result(r, true);
        ObjectNode without = ResultJson.result(r, false);
        assertThat(withSteps.get("scenario").asText()).isEqualTo("generate p8 n32");
        JsonNode d = without.get("decoding");
        assertThat(d.get("ttftP50Ms").asDouble()).isEqualTo(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()).ttftP50Ms());
        assertThat(d.get("tokensPerSec").asDouble()).isEqualTo(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()).tokensPerSec());
        assertThat(d.get("ttftCiMs")).hasSize(2);
        assertThat(d.get("tokensVerified").asBoolean()).isTrue();
        assertThat(d.has("itlMs")).isFalse();
        assertThat(withSteps.get("decoding").get("itlMs")).hasSize(6 * 31);
        // read back from its JSON form: the same result
        assertThat(ResultJson.result(ResultJson.result(withSteps), true)).isEqualTo(withSteps);
        assertThat(((dev.accelbridge.core.Decoding) ResultJson.result(withSteps).timings().orElseThrow().figures())).isEqualTo(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()));
        // a single pass has none, and reads back as one
        ObjectNode single = ResultJson.result(r.withTimings(Timings.of(1, 2, 0, new double[] {1, 2, 3})), false);
        assertThat(single.get("decoding").isNull()).isTrue();
    }

    @Test
    void anUnknownCacheSizeStaysUnknownAndTheReferencesRepeatsComeBackAsRepeats() {
        RunResult r = generation("r1", host("alpha"), 16);
        Decoding d = ((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures());
        Decoding unknown = new Decoding(d.promptTokens(), d.newTokens(), d.ttftMs(), d.itlMs(), d.coldTtftMs(), d.coldTotalMs(),
                java.util.OptionalLong.empty(), 5, 5, dev.accelbridge.core.TokenCheck.OWN_FIRST, new double[0], d.teacherMs());
        RunResult ref = r.withTimings(r.timings().orElseThrow().withDecoding(unknown));
        ObjectNode json = ResultJson.result(ref, true);
        assertThat(json.get("decoding").get("kvCacheBytes").isNull()).as("unknown, not 0").isTrue();
        assertThat(json.get("decoding").get("tokensChecked").asText()).isEqualTo("own-first");
        assertThat(json.get("decoding").get("tokensVerified").asBoolean()).isFalse();
        Decoding back = ((dev.accelbridge.core.Decoding) ResultJson.result(json).timings().orElseThrow().figures());
        assertThat(back.kvCacheBytes()).isEmpty();
        assertThat(back.check()).isEqualTo(dev.accelbridge.core.TokenCheck.OWN_FIRST);
        assertThat(back.tokensWord()).isEqualTo("repeated 5/5");
        try (MatrixStore s = MatrixStore.open(dir.resolve("k.duckdb"))) {
            String run = s.beginRun(host("alpha"), Map.of(), "{}");
            s.write(RunResult.of(run, ref.startedAt(), ref.id(), ref.outcome(), ref.status(), ref.reason(), ref.provenance(),
                    ref.memory(), ref.fallbackPath(), ref.warnings()));
            s.finishRun(run);
            assertThat(((dev.accelbridge.core.Decoding) s.results(run).get(0).timings().orElseThrow().figures()).kvCacheBytes()).isEmpty();
        }
    }
}
