package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.nativerunner.TinyOnnx;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A version axis that exists only as a declaration on the class path ({@link FixtureAxis}): run sweeps it
 * ({@code --versions}), the store gains its column, the JSON and the case key carry it, compare and the report pair its
 * versions, and bisect-versions walks it ({@code --axis}), with no other change anywhere. Real Chromium, onnxruntime-web,
 * ONNX Runtime and DuckDB.
 */
@Nightly(guardedBy = "VersionsCliTest") // docs/testing.md#the-nightly-tier
@RequiresBrowser
class AnotherVersionAxisTest {
    @TempDir
    static Path tmp;
    static Path model;

    @BeforeAll
    static void model() throws Exception {
        model = TinyOnnx.write(TinyOnnx.mlp(8, 16, 4, 2, 3L), Files.createDirectories(tmp.resolve("m")), "mlp").path();
    }

    @Test
    void anAxisDeclaredOnlyOnTheClassPathIsSweptStoredWrittenComparedAndBisected() throws Exception {
        assertThat(VersionAxes.named("fixture")).containsInstanceOf(FixtureAxis.class);
        String db = tmp.resolve("x.duckdb").toString();
        Path out = tmp.resolve("out");
        CliRunner.Result r = CliRunner.run("run", "--db", db, "--out", out.toString(), "--model", model.toString(), "--dim", "batch=1",
                "--backends", "wasm", "--browser", "chromium", "--versions", "fixtureVersion=1,2", "--warmups", "0", "--iterations", "3",
                "--min-duration", "0", "--warmup-duration", "0", "--json");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode rows = new ObjectMapper().readTree(r.out());
        List<String> seen = new ArrayList<>();
        rows.forEach(row -> {
            assertThat(row.get("status").asText()).as(row.get("caseKey").asText()).isEqualTo("PASSED");
            seen.add(row.get("fixtureVersion").asText() + " " + row.get("caseKey").asText().replaceAll(".*/", ""));
        });
        // each version its own case, the axis's part after the others' in the key
        assertThat(seen).hasSize(2).anySatisfy(x -> assertThat(x).matches("1 chromium@\\d+\\+ort-web@[^+]+\\+fixture@1"))
                .anySatisfy(x -> assertThat(x).matches("2 chromium@\\d+\\+ort-web@[^+]+\\+fixture@2"));
        try (MatrixStore s = MatrixStore.openReadOnly(Path.of(db))) {
            assertThat(s.allResults()).extracting(x -> x.id().lane().version("fixtureVersion")).containsExactlyInAnyOrder("1", "2");
        }
        CliRunner.Result c = CliRunner.run("compare", "--db", db, "--by", "fixture", "1", "2");
        assertThat(c.exitCode()).as(c.err()).isEqualTo(Main.OK);
        assertThat(c.out()).contains("1 cases on both sides");
        assertThat(Files.readString(out.resolve("report.md"))).contains("| test fixture version | 1 → 2");

        CliRunner.Result b = CliRunner.run("bisect-versions", "--db", db, "--out", tmp.resolve("bisect").toString(), "--model",
                model.toString(), "--dim", "batch=1", "--backend", "wasm", "--axis", "fixtureVersion=1..3", "--cached-only", "--json");
        assertThat(b.exitCode()).as(b.err()).isEqualTo(Main.OK);
        JsonNode j = new ObjectMapper().readTree(b.out());
        assertThat(j.get("dimension").asText()).isEqualTo("fixtureVersion");
        assertThat(j.get("versions")).extracting(JsonNode::asText).containsExactly("1", "2", "3");
        assertThat(j.get("changed").asBoolean()).as("the axis changes nothing the page runs").isFalse();
        assertThat(j.get("tried").get("1").asText()).isEqualTo("PASSED");
        assertThat(j.get("tried").get("3").asText()).isEqualTo("PASSED");
        try (MatrixStore s = MatrixStore.openReadOnly(Path.of(db))) {
            assertThat(s.results(j.get("runId").asText())).extracting(x -> x.id().lane().version("fixtureVersion")).contains("1", "3");
        }
    }

    @Test
    void aStoreWrittenBeforeTheAxisExistedIsReadWithoutItAndGainsItsColumnWhenOpened() throws Exception {
        Path db = tmp.resolve("older.duckdb");
        try (MatrixStore s = MatrixStore.open(db)) {
            assertThat(s.schemaVersion()).isPositive();
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement()) {
            // as a store from before the axis has it (DuckDB drops a column only from a table without indexes)
            List<String> indexes = new ArrayList<>();
            try (var rs = st.executeQuery("SELECT index_name, sql FROM duckdb_indexes() WHERE table_name = 'results'")) {
                while (rs.next()) {
                    st.getConnection().createStatement().execute("DROP INDEX " + rs.getString(1));
                    indexes.add(rs.getString(2));
                }
            }
            st.execute("ALTER TABLE results DROP COLUMN fixture_version");
            for (String sql : indexes) {
                st.execute(sql);
            }
        }
        try (MatrixStore s = MatrixStore.openReadOnly(db)) {
            assertThat(s.allResults()).isEmpty(); // read through a migrated copy: the file is not changed
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT count(*) FROM information_schema.columns WHERE column_name = 'fixture_version'")) {
            rs.next();
            assertThat(rs.getInt(1)).isZero();
        }
        try (MatrixStore s = MatrixStore.open(db)) {
            assertThat(s.allResults()).isEmpty();
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT count(*) FROM information_schema.columns WHERE column_name = 'fixture_version'")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
    }
}
