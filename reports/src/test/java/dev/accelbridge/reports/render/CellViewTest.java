package dev.accelbridge.reports.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.Fixtures;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cell as the charts and the dashboard read it ({@link Views.CellView}): its fields in the order they have always had,
 * a generation's decoding figures in their place (and no such fields for any other case), its history as
 * {@code [startedAt, p50, runId]} points. The golden reports hold no generation case, so this holds the decoding part.
 */
class CellViewTest {
    @TempDir
    Path dir;

    @Test
    void aGenerationsCellWritesItsDecodingInPlaceAndItsHistoryAsPoints() {
        HostInfo h = Fixtures.host("alpha");
        Matrix m;
        RunResult gen;
        try (MatrixStore s = MatrixStore.open(dir.resolve("v.duckdb"))) {
            String first = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            s.write(Fixtures.generation(first, h, 16));
            s.finishRun(first);
            String second = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            gen = Fixtures.generation(second, h, 16);
            s.write(gen);
            s.finishRun(second);
            m = MatrixBuilder.build(s, Optional.of(second), RegressionDetector.defaults());
        }
        Cell cell = m.cells().get(0);
        ObjectNode o = Views.cell(cell, false);

        List<String> expected = new ArrayList<>(List.of("key", "runId", "row", "col", "ran", "ranked"));
        Dimensions.all().stream().map(Dimension::name).forEach(expected::add);
        expected.addAll(List.of("host", "status", "actual", "score", "grade", "isBrowser", "caveat", "group", "backend",
                "browser", "browserFull", "versions", "glyph", "figure", "software", "reason", "anchor",
                "ttft", "ttftCi", "tokensPerSec", "tokensPerSecCi",
                "speed", "p50", "cpuP50", "vsNative", "vsNativeCi", "p50CiMs", "floored", "trust", "vsNativeLabel",
                "regression", "change", "changePercent", "history"));
        // the grid's model label takes the place of the case's dimension of the same name, as it always has
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactlyElementsOf(expected);

        Decoding d = (Decoding) gen.timings().orElseThrow().figures();
        assertThat(o.get("ttft").asDouble()).isEqualTo(d.ttftP50Ms());
        assertThat(o.get("tokensPerSec").asDouble()).isEqualTo(d.tokensPerSec());
        assertThat(o.get("ttftCi")).hasSize(2);
        assertThat(o.get("isBrowser").asBoolean()).isTrue();
        assertThat(o.get("cpuP50").isNull()).as("no native CPU reference in this store: unknown, not 0").isTrue();
        JsonNode history = o.get("history");
        assertThat(history).hasSize(2);
        assertThat(history.get(0)).hasSize(3);
        assertThat(history.get(0).get(0).isTextual()).isTrue();
        assertThat(history.get(0).get(1).isNumber()).isTrue();
        assertThat(history.get(1).get(2).asText()).isEqualTo(gen.runId());
    }

    @Test
    void aCellThatIsNoGenerationHasNoDecodingFields() {
        HostInfo h = Fixtures.host("alpha");
        Matrix m;
        try (MatrixStore s = MatrixStore.open(dir.resolve("p.duckdb"))) {
            String latest = ReportFixture.fill(s);
            m = MatrixBuilder.build(s, Optional.of(latest), RegressionDetector.defaults());
        }
        ObjectNode o = Views.cell(m.cells().get(0), false);
        assertThat(o.has("speed")).isTrue();
        assertThat(o.has("ttft")).isFalse();
        assertThat(o.has("tokensPerSecCi")).isFalse();
    }
}
