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
        assertThatThrownBy(() -> StoreExport.read(f)).isInstanceOf(StoreException.class).hasMessageContaining("no valid schemaVersion");
        // the upgrade loop applies registered steps in order
        ObjectNode v1 = ResultJson.MAPPER.createObjectNode();
        v1.put("format", StoreExport.FORMAT);
        v1.put("schemaVersion", 1);
        assertThat(StoreExport.upgrade(v1, f).get("schemaVersion").asInt()).isEqualTo(MatrixStore.currentSchemaVersion());
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
                    .hasMessageContaining("schema version 99, newer than this Accelbridge's 1").hasMessageContaining(newer.toString());
            assertThatThrownBy(() -> StoreExport.merge(s, foreign)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("not an Accelbridge matrix export");
            assertThatThrownBy(() -> StoreExport.merge(s, broken)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("not valid JSON");
            assertThat(s.runs()).isEmpty();
        }
    }
}
