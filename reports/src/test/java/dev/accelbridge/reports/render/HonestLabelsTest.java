package dev.accelbridge.reports.render;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Honest labels: a figure is shown under the backend that produced it, and a fallen-back one is not ranked. */
class HonestLabelsTest {
    @TempDir
    Path dir;

    /**
     * Found when tried: report.html's browser-vs-native chart drew {@code webnn-gpu [chromium 156] ×8.38}, which was
     * wasm's time (WebNN is absent there), and ranked it beside the cells that ran as asked.
     */
    @Test
    void aFallenBackCellNamesTheBackendThatRanAndIsLeftOutOfTheRanking() {
        Matrix m;
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String latest = ReportFixture.fill(s);
            m = MatrixBuilder.build(s, Optional.of(latest), RegressionDetector.defaults());
        }
        Cell fellBack = m.cells().stream().filter(c -> c.result().status() == Status.FELL_BACK).findFirst().orElseThrow();
        ObjectNode fb = Views.cell(fellBack, false);
        assertThat(fb.get("col").asText()).startsWith("webnn-gpu [chromium"); // the matrix keeps its column: what was asked
        assertThat(fb.get("ran").asText()).startsWith("webnn-gpu → wasm [chromium");
        assertThat(fb.get("ranked").asBoolean()).isFalse();

        Cell asked = m.cells().stream().filter(c -> c.result().status() == Status.PASSED && c.key().lane().side() == dev.accelbridge.core.LaneSide.BROWSER)
                .findFirst().orElseThrow();
        ObjectNode ok = Views.cell(asked, false);
        assertThat(ok.get("ran").asText()).isEqualTo(ok.get("col").asText());
        assertThat(ok.get("ranked").asBoolean()).isTrue();

        // the reports' browser-vs-native table names the backend that ran too
        Section table = Sections.browserVsNative(m);
        assertThat(table.table().rows()).anySatisfy(r -> assertThat(r.cells().get(2).text()).startsWith("webnn-gpu → wasm ["));
        assertThat(table.table().rows()).noneSatisfy(r -> assertThat(r.cells().get(2).text()).startsWith("webnn-gpu ["));
    }

    /** A fallback judged on its lane's measurement of the same work is stored so, and every report says whose figures it has. */
    @Test
    void aFallbackJudgedOnItsLanesMeasurementSaysWhoseFiguresItHas() {
        Matrix m;
        try (MatrixStore s = MatrixStore.open(dir.resolve("shared.duckdb"))) {
            var h = dev.accelbridge.reports.Fixtures.host("alpha");
            String run = s.beginRun(h, java.util.Map.of("accelbridge", "0.1.0"), "{}");
            var prov = dev.accelbridge.reports.Fixtures.chromiumProv(h, false);
            var at = java.time.Instant.parse("2026-11-25T10:00:00Z");
            s.write(dev.accelbridge.reports.Fixtures.passed(run, at, h, dev.accelbridge.core.ModelFamily.VISION, "convnet",
                    dev.accelbridge.core.BackendId.CPU, dev.accelbridge.reports.Fixtures.nativeProv(h), dev.accelbridge.reports.Fixtures.samples(1.0, 0.05, 30, 1)));
            var wasm = dev.accelbridge.reports.Fixtures.passed(run, at.plusSeconds(1), h, dev.accelbridge.core.ModelFamily.VISION,
                    "convnet", dev.accelbridge.core.BackendId.WASM, prov, dev.accelbridge.reports.Fixtures.samples(1.5, 0.05, 30, 2));
            s.write(wasm);
            s.write(dev.accelbridge.reports.Fixtures.fellBack(run, at.plusSeconds(2), h, dev.accelbridge.core.ModelFamily.VISION,
                    "convnet", dev.accelbridge.core.BackendId.WEBNN_GPU, dev.accelbridge.core.BackendId.WASM, prov,
                    dev.accelbridge.reports.Fixtures.samples(1.5, 0.05, 30, 2)).withSharedFigures());
            s.finishRun(run);
            m = MatrixBuilder.build(s, Optional.of(run), RegressionDetector.defaults());
        }
        Cell fellBack = m.cells().stream().filter(c -> c.result().status() == Status.FELL_BACK).findFirst().orElseThrow();
        Cell wasm = m.cells().stream().filter(c -> c.result().requested() == dev.accelbridge.core.BackendId.WASM).findFirst().orElseThrow();
        assertThat(fellBack.result().sharedFigures()).as("read back from the store").isTrue();
        assertThat(fellBack.result().figuresOf()).contains(wasm.result().id());
        assertThat(Sections.fallbacks(m).items()).singleElement()
                .satisfies(i -> assertThat(i.text()).contains("the figures of this lane's wasm case"));
        assertThat(m.positionSpreads()).as("one measurement is no copy of itself").isEmpty();
    }
}
