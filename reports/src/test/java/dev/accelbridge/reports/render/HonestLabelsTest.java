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
}
