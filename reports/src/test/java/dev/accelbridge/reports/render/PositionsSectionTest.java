package dev.accelbridge.reports.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The same work measured apart in one run is said in every form of the report, with its range. */
class PositionsSectionTest {
    static final HostInfo H = Fixtures.host("alpha");

    private static Matrix matrix(double first, double second) {
        RunResult a = Fixtures.fellBack("r1", Fixtures.t(0), H, ModelFamily.TEXT, "bert-mini", BackendId.WEBNN_GPU, BackendId.WASM,
                Fixtures.chromiumProv(H, false), Fixtures.samples(first, 0.01, 300, 1));
        RunResult b = Fixtures.passed("r1", Fixtures.t(1), H, ModelFamily.TEXT, "bert-mini", BackendId.WASM,
                Fixtures.chromiumProv(H, false), Fixtures.samples(second, 0.01, 300, 2));
        return new Matrix("r1", Fixtures.t(2), List.of(a, b).stream().map(r -> new Cell(r, dev.accelbridge.reports.score.Scorer.score(r,
                Double.NaN), Double.NaN, Double.NaN, null, List.of(), null, null)).toList(), Map.of(), Map.of());
    }

    @Test
    void copiesMeasuredApartAreASectionAndEachCellCarriesTheRange() {
        Matrix m = matrix(0.58, 0.36);
        Section s = Sections.positions(m);
        assertThat(s.hidden()).isFalse();
        assertThat(s.table().rows()).singleElement().satisfies(r -> assertThat(r.cells()).extracting(Section.Entry::text)
                .contains("text/bert-mini").anySatisfy(t -> assertThat(t).startsWith("webnn-gpu 0.58").contains(" · wasm 0.36")));
        assertThat(MarkdownRenderer.render(m)).contains("Figures that depend on where they fell in the run");
        JsonNode doc = JsonRenderer.render(m);
        assertThat(doc.get("positionDependent").asInt()).isEqualTo(1);
        assertThat(doc.get("cells")).allSatisfy(c -> {
            assertThat(c.at("/positionSpread/copies").asInt()).isEqualTo(2);
            assertThat(c.at("/positionSpread/highMs").asDouble() / c.at("/positionSpread/lowMs").asDouble()).isBetween(1.5, 1.7);
        });
    }

    @Test
    void copiesThatAgreeSayNothing() {
        Matrix m = matrix(0.50, 0.51);
        assertThat(Sections.positions(m).hidden()).isTrue();
        assertThat(MarkdownRenderer.render(m)).doesNotContain("where they fell");
        JsonNode doc = JsonRenderer.render(m);
        assertThat(doc.get("positionDependent").asInt()).isZero();
        assertThat(doc.get("cells")).allSatisfy(c -> assertThat(c.has("positionSpread")).isFalse());
    }
}
