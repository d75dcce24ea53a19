package dev.accelbridge.tools.cli;

import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a run prints for a CI log (native only: no browser needed): {@code --quiet} leaves the progress out; the table
 * fits 160 columns with a long name and a long reason cut (and says where their full text is); the summary comes
 * last, after the table, and names the report; no colour where no person watches.
 */
class TerminalOutputCliTest {
    @TempDir
    Path tmp;

    @Test
    void aQuietRunPrintsATableThatFitsAndEndsWithTheReport() throws Exception {
        Path models = Files.createDirectories(tmp.resolve("models"));
        TinyOnnx.write(TinyOnnx.mlp(8, 16, 4, 2, 5L), Files.createDirectories(models.resolve("m")),
                "a-model-whose-name-is-much-longer-than-any-column-of-a-terminal-table-should-be").path();
        Path broken = Files.createDirectories(models.resolve("b")).resolve("broken.onnx");
        Files.write(broken, "not an ONNX model, but bytes a careless copy left behind".repeat(20).getBytes());
        CliRunner.Result r = CliRunner.run("run", "--quiet", "--model", models.resolve("m").toString(), "--model", broken.toString(),
                "--backends", "cpu", "--dim", "batch=1", "-n", "2", "--warmups", "0", "--db", tmp.resolve("m.duckdb").toString(),
                "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        // nothing while it ran: no progress lines, no time account
        assertThat(r.err()).doesNotContain("[1/").doesNotContain("each case runs").doesNotContain("where the").doesNotContain("\u001b[");
        List<String> err = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertThat(err.get(err.size() - 1)).startsWith("report: ").contains("report.html").contains("matrix.json");
        assertThat(err.get(err.size() - 2)).startsWith("run ").contains("2 cases in").contains("stored in");
        List<String> table = r.out().lines().toList();
        assertThat(table).isNotEmpty().allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(Terminal.WIDTH));
        assertThat(table.get(0)).startsWith("case").contains("status").contains("note");
        assertThat(r.out()).doesNotContain("\u001b[").contains("…").contains("its full text is in the report and --json");
    }
}
