package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.StoreException;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.render.Cell;
import dev.accelbridge.reports.render.Matrix;
import dev.accelbridge.reports.render.MatrixBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoreExportTest {
    @TempDir
    Path dir;

    private Path hostStore(String name, int minute) {
        HostInfo h = host(name);
        Path db = dir.resolve(name + ".duckdb");
        try (MatrixStore s = MatrixStore.open(db)) {
            String r = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{\"host\":\"" + name + "\"}");
            s.recordProbe(r, Availability.available(BackendId.CPU, "CPUExecutionProvider", "native"));
            s.write(passed(r, t(minute), h, ModelFamily.TEXT, "bert-tiny", BackendId.CPU, nativeProv(h), samples(2, 0.1, 10, minute)));
            s.write(passed(r, t(minute + 1), h, ModelFamily.TEXT, "bert-tiny", BackendId.WASM, chromiumProv(h, false),
                    samples(5, 0.1, 10, minute + 1)));
            s.write(notRun(r, t(minute + 2), ModelFamily.TEXT, "bert-tiny", BackendId.CUDA, Status.UNAVAILABLE, "0 devices", nativeProv(h)));
            s.finishRun(r);
        }
        return db;
    }

    @Test
    void mergingTwoHostsExportsGivesOneMatrixWithBothHosts() {
        Path a = hostStore("alpha", 0);
        Path b = hostStore("beta", 30);
        Path ea = dir.resolve("alpha.json");
        Path eb = dir.resolve("beta.json");
        List<RunResult> originalA;
        try (MatrixStore s = MatrixStore.open(a)) {
            StoreExport.exportTo(s, ea);
            originalA = s.allResults();
        }
        try (MatrixStore s = MatrixStore.open(b)) {
            StoreExport.exportTo(s, eb);
        }
        try (MatrixStore merged = MatrixStore.open(dir.resolve("merged.duckdb"))) {
            StoreExport.MergeSummary sum = StoreExport.merge(merged, ea, eb);
            assertThat(sum.runsImported()).isEqualTo(2);
            assertThat(sum.results()).isEqualTo(6);
            // idempotent on run id
            StoreExport.MergeSummary again = StoreExport.merge(merged, ea, eb);
            assertThat(again.runsImported()).isZero();
            assertThat(again.runsSkipped()).isEqualTo(2);
            assertThat(merged.allResults()).hasSize(6);
            assertThat(merged.hosts().keySet()).containsExactlyInAnyOrder("fp-alpha", "fp-beta");
            assertThat(merged.runs()).extracting(RunInfo::status).containsOnly(RunStatus.FINISHED);
            String runA = originalA.get(0).runId();
            assertThat(merged.probes(runA)).containsExactly(Availability.available(BackendId.CPU, "CPUExecutionProvider", "native"));
            List<RunResult> back = merged.results(runA);
            for (int i = 0; i < back.size(); i++) {
                MatrixStoreTest.assertSame(back.get(i), originalA.get(i));
            }
            Matrix m = MatrixBuilder.build(merged, Optional.empty(), RegressionDetector.defaults());
            assertThat(m.cells()).extracting(Cell::host).containsOnly("alpha", "beta").contains("alpha", "beta");
            assertThat(m.cells()).hasSize(6);
            assertThat(m.hosts()).hasSize(2);
        }
    }

    @Test
    void anOlderExportIsUpgradedStepByStep() throws Exception {
        ObjectNode doc = ResultJson.MAPPER.createObjectNode();
        doc.put("format", StoreExport.FORMAT);
        doc.put("schemaVersion", 0);
        Path f = dir.resolve("v0.json");
        Files.writeString(f, doc.toString());
        // version 0 never existed: refused with the reason, nothing imported
        assertThatThrownBy(() -> ExportFile.read(f)).isInstanceOf(StoreException.class).hasMessageContaining("no valid schemaVersion");
        // the upgrade loop applies registered steps in order
        ObjectNode v1 = ResultJson.MAPPER.createObjectNode();
        v1.put("format", StoreExport.FORMAT);
        v1.put("schemaVersion", 1);
        assertThat(ExportUpgrades.upgrade(v1, f).get("schemaVersion").asInt()).isEqualTo(MatrixStore.currentSchemaVersion());
    }

    @Test
    void newerOrForeignExportsAreRefusedWithTheReason() throws Exception {
        Path newer = dir.resolve("newer.json");
        Files.writeString(newer, "{\"format\":\"accelbridge-matrix\",\"schemaVersion\":99,\"runs\":[]}");
        Path foreign = dir.resolve("foreign.json");
        Files.writeString(foreign, "{\"hello\":\"world\"}");
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"format\": ");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            assertThatThrownBy(() -> StoreExport.merge(s, newer)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("schema version 99, newer than this Accelbridge's " + MatrixStore.currentSchemaVersion()).hasMessageContaining(newer.toString());
            assertThatThrownBy(() -> StoreExport.merge(s, foreign)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("not an Accelbridge matrix export");
            assertThatThrownBy(() -> StoreExport.merge(s, broken)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("not valid JSON");
            assertThat(s.runs()).isEmpty();
        }
    }

    private ObjectNode exportOf(Path db) {
        try (MatrixStore s = MatrixStore.openReadOnly(db)) {
            return StoreExport.export(s);
        }
    }

    private Path write(String name, ObjectNode doc) throws Exception {
        Path f = dir.resolve(name);
        ResultJson.MAPPER.writeValue(f.toFile(), doc);
        return f;
    }

    /** Found when tried: a partial export (results null) imported its run with no results; the full one was then skipped. */
    @Test
    void aPartialExportIsRefusedWholeAndTheCompleteOneStillMergesEverything() throws Exception {
        ObjectNode full = exportOf(hostStore("alpha", 0));
        ObjectNode partial = full.deepCopy();
        partial.putNull("results");
        Path pf = write("partial.json", partial);
        Path ff = write("full.json", full);
        try (MatrixStore s = MatrixStore.open(dir.resolve("target.duckdb"))) {
            assertThatThrownBy(() -> StoreExport.merge(s, pf)).isInstanceOf(StoreException.class)
                    .hasMessageContaining(pf.toString()).hasMessageContaining("\"results\" is null")
                    .hasMessageContaining("nothing of it was imported");
            assertThat(s.runs()).isEmpty();
            StoreExport.MergeSummary m = StoreExport.merge(s, ff);
            assertThat(m.runsImported()).isEqualTo(1);
            assertThat(m.results()).isEqualTo(3);
            assertThat(s.allResults()).hasSize(3);
        }
    }

    /** Found when tried: a result without runId, or with a status Accelbridge never writes, must refuse the file. */
    @Test
    void aMalformedRecordRefusesTheFileNamingTheRecord() throws Exception {
        ObjectNode full = exportOf(hostStore("alpha", 0));
        ObjectNode noRun = full.deepCopy();
        ((ObjectNode) noRun.get("results").get(1)).remove("runId");
        ObjectNode exploded = full.deepCopy();
        ((ObjectNode) exploded.get("results").get(2)).put("status", "EXPLODED");
        Path a = write("no-run.json", noRun);
        Path b = write("exploded.json", exploded);
        try (MatrixStore s = MatrixStore.open(dir.resolve("target.duckdb"))) {
            assertThatThrownBy(() -> StoreExport.merge(s, a)).isInstanceOf(StoreException.class)
                    .hasMessageContaining(a.toString()).hasMessageContaining("results[1]").hasMessageContaining("runId is missing");
            assertThatThrownBy(() -> StoreExport.merge(s, b)).isInstanceOf(StoreException.class)
                    .hasMessageContaining(b.toString()).hasMessageContaining("results[2]")
                    .hasMessageContaining("status 'EXPLODED' is not one of")
                    .hasMessageNotContaining("No enum constant");
            // every file is checked before anything is written: a good file beside a bad one imports nothing either
            Path good = write("good.json", full);
            assertThatThrownBy(() -> StoreExport.merge(s, good, b)).isInstanceOf(StoreException.class);
            assertThat(s.allResults()).isEmpty();
        }
    }

    /** Idempotent per result: a run present with some results gets the missing ones, and nothing twice. */
    @Test
    void mergeIsIdempotentPerResult() throws Exception {
        ObjectNode full = exportOf(hostStore("alpha", 0));
        ObjectNode first = full.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) first.get("results")).remove(2);
        Path f1 = write("first.json", first);
        Path f2 = write("full.json", full);
        try (MatrixStore s = MatrixStore.open(dir.resolve("target.duckdb"))) {
            assertThat(StoreExport.merge(s, f1).results()).isEqualTo(2);
            StoreExport.MergeSummary again = StoreExport.merge(s, f2);
            assertThat(again.runsSkipped()).isEqualTo(1);
            assertThat(again.results()).isEqualTo(1);
            assertThat(again.resultsSkipped()).isEqualTo(2);
            assertThat(StoreExport.merge(s, f2).results()).isZero();
            assertThat(s.allResults()).hasSize(3);
            String run = s.runs().get(0).runId();
            assertThat(s.results(run)).extracting(RunResult::status).containsExactlyInAnyOrder(Status.PASSED, Status.PASSED,
                    Status.UNAVAILABLE);
        }
    }
}
