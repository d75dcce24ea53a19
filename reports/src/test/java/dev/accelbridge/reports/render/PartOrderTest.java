package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.Fixtures;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.score.Scorer;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** report.html and report.md both write {@link Part}'s parts in its one order, each leaving out only what its part says. */
class PartOrderTest {
    @TempDir
    Path dir;

    /** Where each drawn part starts in report.html. */
    private static final Map<Part, String> HTML_DRAWN = Map.of(Part.OVERVIEW, "<section id=\"overview\">", Part.MATRIX,
            "<h2 id=\"matrix\">", Part.BROWSER_VS_NATIVE, "id=\"sec-ratio\"", Part.GENERATION_CHARTS, "id=\"sec-gen-charts\"",
            Part.HISTORY, "id=\"sec-history\"", Part.DRILL_DOWN, "id=\"drill-down\"", Part.CELLS, "id=\"sec-cells\"");
    /** Where each drawn part starts in report.md. */
    private static final Map<Part, String> MARKDOWN_DRAWN = Map.of(Part.MATRIX, "## Matrix — host ", Part.DRILL_DOWN, "## Drill-down");

    @Test
    void bothRenderersFollowTheOneOrder() {
        Matrix m = matrix();
        Map<Part, Integer> html = positions(HtmlRenderer.render(m), m, Part::html, HTML_DRAWN, s -> "id=\"sec-" + s.id() + "\"");
        Map<Part, Integer> md = positions(MarkdownRenderer.render(m), m, Part::markdown, MARKDOWN_DRAWN, s -> "## " + Text.markdown(s.title()) + "\n");
        // each format shows its parts in the list's order; what it leaves out, it leaves out by its parts' Form
        assertThat(html.keySet()).containsExactly(Part.OVERVIEW, Part.MATRIX, Part.BROWSER_VS_NATIVE, Part.HISTORY, Part.MEMORY,
                Part.CHANGES, Part.POSITIONS, Part.VERSIONS, Part.DRILL_DOWN, Part.DIAGNOSTICS, Part.FALLBACKS, Part.CELLS);
        assertThat(List.copyOf(html.values())).as("report.html's parts where they start: %s", html).isSorted();
        assertThat(md.keySet()).containsExactly(Part.OVERVIEW, Part.MATRIX, Part.BROWSER_VS_NATIVE, Part.MEMORY, Part.CHANGES, Part.POSITIONS,
                Part.VERSIONS, Part.RECOMMENDATIONS, Part.DRILL_DOWN, Part.DIAGNOSTICS, Part.FALLBACKS, Part.NOT_RUN, Part.PROVENANCE);
        assertThat(List.copyOf(md.values())).as("report.md's parts where they start: %s", md).isSorted();
    }

    @Test
    void everyPartShowsSomewhereAndAWrittenPartHasSections() {
        Matrix m = matrix();
        for (Part p : Part.values()) {
            assertThat(p.html() != Part.Form.LEFT_OUT || p.markdown() != Part.Form.LEFT_OUT).as(p.name()).isTrue();
            if (p.html() == Part.Form.WRITTEN || p.markdown() == Part.Form.WRITTEN) {
                assertThat(p.sections(m)).as(p.name()).isNotEmpty();
            }
            if (p.html() == Part.Form.DRAWN) {
                assertThat(HTML_DRAWN).as(p.name()).containsKey(p);
            }
            if (p.markdown() == Part.Form.DRAWN) {
                assertThat(MARKDOWN_DRAWN).as(p.name()).containsKey(p);
            }
        }
    }

    /**
     * Each shown part's first position in {@code doc}, in the list's order: a written part by its sections' headings, a
     * drawn one by where it starts; a part left out, or with nothing to show, is absent.
     */
    private static Map<Part, Integer> positions(String doc, Matrix m, Function<Part, Part.Form> form, Map<Part, String> drawn,
                                                Function<Section, String> heading) {
        Map<Part, Integer> at = new LinkedHashMap<>();
        for (Part p : Part.values()) {
            List<String> marks = switch (form.apply(p)) {
                case WRITTEN -> p.sections(m).stream().filter(s -> !s.hidden()).map(heading).toList();
                case DRAWN -> List.of(drawn.get(p));
                case LEFT_OUT -> List.of();
            };
            List<Integer> found = marks.stream().map(doc::indexOf).filter(i -> i >= 0).toList();
            if (form.apply(p) == Part.Form.WRITTEN) {
                assertThat(found).as("%s's sections", p).hasSameSizeAs(marks).isSorted();
            }
            if (!found.isEmpty()) {
                at.put(p, found.get(0));
            }
        }
        return at;
    }

    /** The report fixture's run, with a drill-down, two onnxruntime-web versions and copies measured apart beside it. */
    private Matrix matrix() {
        Matrix stored;
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            stored = MatrixBuilder.build(s, Optional.of(ReportFixture.fill(s)), RegressionDetector.defaults());
        }
        RunResult drill = Fixtures.wrong("r1", Fixtures.t(0), ModelFamily.VISION, "pool-net", BackendId.WEBNN_CPU,
                Fixtures.chromiumProv(Fixtures.host("alpha"), true), Fixtures.samples(4, 0.1, 5, 1)).withAnalysis(DrillDownRenderTest.analysis());
        RunResult first = Fixtures.fellBack("r1", Fixtures.t(0), VersionsTest.H, ModelFamily.TEXT, "bert-mini", BackendId.WEBNN_GPU,
                BackendId.WASM, Fixtures.chromiumProv(VersionsTest.H, false), Fixtures.samples(0.58, 0.01, 300, 1));
        RunResult second = Fixtures.passed("r1", Fixtures.t(1), VersionsTest.H, ModelFamily.TEXT, "bert-mini", BackendId.WASM,
                Fixtures.chromiumProv(VersionsTest.H, false), Fixtures.samples(0.36, 0.01, 300, 2));
        List<Cell> cells = new ArrayList<>(stored.cells());
        Stream.of(drill, first, second, VersionsTest.WASM_OLD, VersionsTest.WASM_NEW, VersionsTest.GPU_OLD, VersionsTest.GPU_NEW)
                .map(r -> new Cell(r, Scorer.score(r, Double.NaN), Double.NaN, Double.NaN, null, List.of(), null, null)).forEach(cells::add);
        return new Matrix(stored.scope(), stored.generatedAt(), cells, stored.hosts(), stored.modelOps());
    }
}
