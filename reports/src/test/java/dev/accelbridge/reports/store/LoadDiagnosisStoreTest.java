package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.host;
import static dev.accelbridge.reports.Fixtures.nativeProv;
import static dev.accelbridge.reports.Fixtures.notRun;
import static dev.accelbridge.reports.Fixtures.t;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A refused load's diagnosis is kept on its row as a value beside the bisection, in a real DuckDB file and through an
 * export and a merge; its repro's bytes are written beside the report, not stored. A result stored before there was one
 * reads as having none.
 */
class LoadDiagnosisStoreTest {
    @TempDir
    Path dir;

    @Test
    void theDiagnosisComesBackFromTheStoreAndTheExport() throws Exception {
        LoadDiagnosis d = LoadDiagnosis.of("ONNX Runtime 1.29.0", List.of("all", "extended", "basic"), "disabled",
                "in node (ln_scale/Mul_7/LayerNormFusion/)").withRepro(new LoadDiagnosis.Repro(new byte[]{1, 2}, 2));
        HostInfo h = host("alpha");
        Path export = dir.resolve("m.json");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String run = s.beginRun(h, Map.of(), "{}");
            RunResult failed = notRun(run, t(0), ModelFamily.OTHER, "ln_fp16", BackendId.CPU, Status.FAILED, "load: " + d.sentence(),
                    nativeProv(h));
            s.write(failed.withAnalysis(failed.analysis().withLoad(d)));
            s.write(notRun(run, t(1), ModelFamily.OTHER, "other", BackendId.CPU, Status.FAILED, "load: no such file", nativeProv(h)));
            s.finishRun(run);
            List<RunResult> back = s.results(run);
            assertThat(back.get(0).analysis().load()).isEqualTo(d.withRepro(null));
            assertThat(back.get(0).analysis().load().optimizer()).isEqualTo("LayerNormFusion");
            assertThat(back.get(1).analysis().load()).isNull();
            StoreExport.exportTo(s, export);
        }
        JsonNode load = ResultJson.MAPPER.readTree(export.toFile()).get("results").get(0).get("load");
        assertThat(load.get("loadsAt").asText()).isEqualTo("disabled");
        assertThat(load.get("failsAt")).hasSize(3);
        try (MatrixStore merged = MatrixStore.open(dir.resolve("merged.duckdb"))) {
            StoreExport.merge(merged, export);
            assertThat(merged.allResults()).extracting(r -> r.analysis().load()).containsExactly(d.withRepro(null), null);
        }
    }

    @Test
    void aStoredAnalysisWithoutOneOrWithAForeignOneReadsAsNone() throws Exception {
        assertThat(AnalysisJson.read(ResultJson.MAPPER.readTree("{\"bisection\":null}")).load()).isNull();
        assertThat(AnalysisJson.read(ResultJson.MAPPER.readTree("{\"load\":{\"failsAt\":7}}")).load()).isNull();
        assertThat(AnalysisJson.read(ResultJson.MAPPER.readTree("{\"load\":\"text\"}")).load()).isNull();
    }
}
