package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.GpuLedger;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ProcessPeak;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.chromiumProv;
import static dev.accelbridge.reports.Fixtures.host;
import static dev.accelbridge.reports.Fixtures.passed;
import static dev.accelbridge.reports.Fixtures.samples;
import static dev.accelbridge.reports.Fixtures.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A case's memory beyond its resident figures (the page's GPU ledger, the heaps, the processes by type) in a real DuckDB
 * file and in the one JSON form: it comes back whole, each figure names its source, what was not measured stays unknown
 * (absent, never 0), and an export that says otherwise is refused.
 */
class MemoryStoreTest {
    @TempDir
    Path dir;

    static final MemoryUsage FULL = dev.accelbridge.reports.Fixtures.MEASURED_MEMORY;

    private static RunResult withMemory(RunResult r, MemoryUsage m) {
        return RunResult.of(r.runId(), r.startedAt(), r.id(), r.outcome(), r.status(), r.reason(), r.provenance(), m, r.fallbackPath(), r.warnings());
    }

    @Test
    void theLedgerHeapsAndProcessesComeBackFromTheStoreAndTheExport() throws Exception {
        HostInfo h = host("alpha");
        Path db = dir.resolve("m.duckdb");
        Path export = dir.resolve("m.json");
        RunResult gpu;
        RunResult rssOnly;
        try (MatrixStore s = MatrixStore.open(db)) {
            String run = s.beginRun(h, Map.of(), "{}");
            gpu = withMemory(passed(run, t(0), h, ModelFamily.TEXT, "bert-tiny", BackendId.WEBGPU, chromiumProv(h, true), samples(5, 0.1, 10, 0)), FULL);
            rssOnly = passed(run, t(1), h, ModelFamily.TEXT, "bert-tiny", BackendId.WASM, chromiumProv(h, false), samples(5, 0.1, 10, 1));
            s.write(gpu);
            s.write(rssOnly);
            s.finishRun(run);
            List<RunResult> back = s.results(run);
            assertThat(back.get(0).memory()).isEqualTo(FULL);
            assertThat(back.get(1).memory()).isEqualTo(rssOnly.memory());
            assertThat(back.get(1).memory().gpu()).isNull();
            assertThat(back.get(1).memory().wasmHeapBytes()).as("not measured: unknown").isEqualTo(-1);
            StoreExport.exportTo(s, export);
        }
        JsonNode doc = ResultJson.MAPPER.readTree(export.toFile());
        JsonNode m = doc.get("results").get(0).get("memory");
        assertThat(m.get("gpu").get("peakBytes").asLong()).isEqualTo(6_355_600);
        assertThat(m.get("sources").get("gpu").asText()).isEqualTo(GpuLedger.SOURCE);
        assertThat(m.get("sources").get("processes").asText()).contains("/proc");
        JsonNode rss = doc.get("results").get(1).get("memory");
        assertThat(rss.has("gpu")).isFalse();
        assertThat(rss.has("wasmHeapBytes")).as("unknown is absent, never 0").isFalse();
        try (MatrixStore merged = MatrixStore.open(dir.resolve("merged.duckdb"))) {
            StoreExport.merge(merged, export);
            assertThat(merged.allResults()).extracting(RunResult::memory).containsExactly(FULL, rssOnly.memory());
        }
    }

    @Test
    void anExportWhoseMemorySaysWhatNoMeasurementSaysIsRefused() throws Exception {
        HostInfo h = host("alpha");
        ObjectNode valid;
        try (MatrixStore s = MatrixStore.open(dir.resolve("src.duckdb"))) {
            String run = s.beginRun(h, Map.of(), "{}");
            s.write(withMemory(passed(run, t(0), h, ModelFamily.TEXT, "bert-tiny", BackendId.WEBGPU, chromiumProv(h, true), samples(5, 0.1, 10, 0)), FULL));
            s.finishRun(run);
            valid = StoreExport.export(s);
        }
        String[][] bad = {
                {"gpu", "{\"peakBytes\":-5}"},
                {"wasmHeapBytes", "-1"},
                {"processes", "[{\"type\":\"renderer\",\"peakBytes\":\"lots\"}]"},
                {"gpu", "{\"allocatedBytes\":10}"}, // no peak: no ledger
        };
        for (String[] b : bad) {
            ObjectNode doc = valid.deepCopy();
            ((ObjectNode) doc.get("results").get(0).get("memory")).set(b[0], ResultJson.MAPPER.readTree(b[1]));
            Path f = Files.writeString(dir.resolve("bad-" + b[0] + b[1].length() + ".json"), doc.toString());
            try (MatrixStore s = MatrixStore.open(dir.resolve("t" + b[1].length() + ".duckdb"))) {
                assertThatThrownBy(() -> StoreExport.merge(s, f)).as(b[0] + " = " + b[1]).isInstanceOf(StoreException.class)
                        .hasMessageContaining("memory");
                assertThat(s.allResults()).isEmpty();
            }
        }
    }
}
