package dev.accelbridge.reports.store;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A result's outcome is a column of its own: each kind is written and read back as itself; a store of schema 14 takes each
 * older row's kind from the columns it held, the one place that still reads it so; a row whose columns disagree with its
 * kind is refused on reading, never read as another kind.
 */
class OutcomeColumnTest {
    @TempDir
    Path dir;

    @Test
    void eachKindIsStoredAndReadBackAsItself() {
        HostInfo h = Fixtures.host("alpha");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String run = s.beginRun(h, Map.of("accelbridge", "test"), "{}");
            RunResult ran = Fixtures.passed(run, Fixtures.t(0), h, ModelFamily.VISION, "convnet", BackendId.WASM,
                    Fixtures.chromiumProv(h, false), Fixtures.samples(1, 0.05, 12, 1));
            RunResult stopped = RunResult.of(run, Fixtures.t(1), ran.id().withRequested(BackendId.WEBGPU),
                    new Outcome.Stopped(BackendId.WEBGPU, Optional.empty()), Status.FAILED, "device lost", ran.provenance(), null, List.of(), List.of());
            RunResult unplaced = RunResult.of(run, Fixtures.t(2), ran.id().withRequested(BackendId.WEBNN_CPU),
                    new Outcome.Unplaced(((Outcome.Ran) ran.outcome()).timings()), Status.UNAVAILABLE, "not judged", ran.provenance(),
                    null, List.of(), List.of());
            RunResult notRun = RunResult.notRun(run, Fixtures.t(3), ran.id().withRequested(BackendId.WEBNN_GPU), Status.UNAVAILABLE,
                    "no adapter", ran.provenance(), List.of());
            s.writeAll(List.of(ran, stopped, unplaced, notRun));
            Map<BackendId, Outcome.Kind> read = new LinkedHashMap<>();
            s.results(run).forEach(r -> read.put(r.requested(), r.outcome().kind()));
            assertThat(read).containsExactly(Map.entry(BackendId.WASM, Outcome.Kind.RAN), Map.entry(BackendId.WEBGPU, Outcome.Kind.STOPPED),
                    Map.entry(BackendId.WEBNN_CPU, Outcome.Kind.UNPLACED), Map.entry(BackendId.WEBNN_GPU, Outcome.Kind.NOT_RUN));
        }
    }

    @Test
    void aStoreOfSchemaFourteenTakesEachRowsKindFromItsColumnsAndATamperedRowIsRefused() throws Exception {
        Path f = dir.resolve("v14.duckdb");
        try (Connection c = OlderStore.at(f, 14, "old"); Statement st = c.createStatement()) {
            String cols = "INSERT INTO results (run_id, suite, model, model_sha256, input_set, requested, actual, status, lane, precision, "
                    + "batch_size, fallback_path, warnings, iterations, warmups, p50_ms, load_ms, first_ms) VALUES ('old', 'vision', 'convnet', 'sha', ";
            st.execute(cols + "'ran', 'wasm', 'wasm', 'PASSED', 'native', 'fp32', 1, '[]', '[]', 3, 0, 1.0, 1.0, 1.0)");
            st.execute(cols + "'stopped', 'webgpu', 'webgpu', 'FAILED', 'native', 'fp32', 1, '[]', '[]', NULL, NULL, NULL, NULL, NULL)");
            st.execute(cols + "'unplaced', 'wasm', NULL, 'FAILED', 'native', 'fp32', 1, '[]', '[]', 2, 0, 1.0, 1.0, 1.0)");
            st.execute(cols + "'none', 'cpu', NULL, 'UNAVAILABLE', 'native', 'fp32', 1, '[]', '[]', NULL, NULL, NULL, NULL, NULL)");
        }
        try (MatrixStore s = MatrixStore.open(f)) {
            assertThat(s.schemaVersion()).isEqualTo(Migrations.CURRENT);
            Map<String, Outcome.Kind> kinds = new LinkedHashMap<>();
            s.results("old").forEach(r -> kinds.put(r.inputSet(), r.outcome().kind()));
            assertThat(kinds).containsExactly(Map.entry("ran", Outcome.Kind.RAN), Map.entry("stopped", Outcome.Kind.STOPPED),
                    Map.entry("unplaced", Outcome.Kind.UNPLACED), Map.entry("none", Outcome.Kind.NOT_RUN));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + f); Statement st = c.createStatement()) {
            st.execute("UPDATE results SET outcome = 'NOT_RUN' WHERE input_set = 'ran'");
            try (ResultSet rs = st.executeQuery("SELECT outcome FROM results WHERE input_set = 'ran'")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("NOT_RUN");
            }
        }
        try (MatrixStore s = MatrixStore.open(f)) {
            assertThatThrownBy(() -> s.results("old")).hasStackTraceContaining("NOT_RUN names a backend");
        }
    }
}
