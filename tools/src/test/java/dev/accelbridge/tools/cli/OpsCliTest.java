package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run --suites ops} and {@code ops} through the real CLI on native ONNX Runtime and real DuckDB files: the sweep's
 * defaults (no warm-up, one timed iteration), the op fields and placement of every row, the table, and two stores compared.
 */
class OpsCliTest {
    @TempDir
    Path tmp;

    @Test
    void theOpSweepRunsWithItsOwnDefaultsAndTheTableReadsTheStore() throws Exception {
        Path db = tmp.resolve("ops.duckdb");
        CliRunner.Result r = CliRunner.run("run", "--suites", "ops", "--native", "--db", db.toString(), "--json",
                "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        assertThat(arr.size()).isGreaterThan(300);
        for (JsonNode n : arr) {
            assertThat(n.get("suite").asText()).isEqualTo("ops");
            assertThat(n.get("opType").asText()).isNotBlank();
            assertThat(n.get("opset").asInt()).isPositive();
            assertThat(n.get("model").asText()).isEqualTo(n.get("opType").asText() + "-" + n.get("opset").asInt() + "-"
                    + n.get("variant").asText());
            if (n.get("status").asText().equals("PASSED")) {
                assertThat(n.get("iterations").asInt()).as("one timed iteration unless asked").isEqualTo(1);
                assertThat(n.get("warmups").asInt()).isZero();
                assertThat(n.path("placement").path("ranOn").asText()).isEqualTo("CPUExecutionProvider");
            }
        }
        assertThat(Files.readString(tmp.resolve("out/matrix.json"))).contains("\"ops\"");
        assertThat(Files.readString(tmp.resolve("out/report.md"))).contains("Conformance by op (the op suite)");

        CliRunner.Result table = CliRunner.run("ops", "--db", db.toString());
        assertThat(table.exitCode()).as(table.err()).isEqualTo(Main.OK);
        // a column is the backend and the lane with its versions (ONNX Runtime's natively)
        assertThat(table.out()).containsPattern("cpu@native\\+ort@[0-9.]+: 200 ops, 199 passed, 1 unsupported")
                .containsPattern("GlobalLpPool on cpu@native\\+ort@[0-9.]+: unsupported \\[f32, opset 22]");
        JsonNode json = new ObjectMapper().readTree(CliRunner.run("ops", "--db", db.toString(), "--json").out());
        assertThat(json.path("columns").get(0).asText()).matches("cpu@native\\+ort@[0-9.]+");
        assertThat(CliRunner.run("ops", "--db", db.toString(), "--browser", "native").out()).contains("200 ops");
        assertThat(CliRunner.run("ops", "--db", db.toString(), "--backend", "webgpu").out()).contains("No op-suite results");

        // a second store with more iterations: the same verdicts, so nothing changed op by op
        Path db2 = tmp.resolve("ops2.duckdb");
        assertThat(CliRunner.run("run", "--suites", "ops", "--native", "--db", db2.toString(), "--no-report", "--iterations", "2")
                .exitCode()).isEqualTo(Main.OK);
        CliRunner.Result diff = CliRunner.run("ops", "--db", db2.toString(), "--against", db.toString());
        assertThat(diff.out()).contains("0 changes from");
        CliRunner.Result bad = CliRunner.run("ops", "--db", db.toString(), "--against", tmp.resolve("nope.duckdb").toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err().strip().lines()).hasSize(1);
        assertThat(bad.err()).contains("--against").contains("not a store file");
    }
}
