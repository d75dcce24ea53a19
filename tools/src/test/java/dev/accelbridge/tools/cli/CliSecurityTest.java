package dev.accelbridge.tools.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bounds stated and checked up front: `--iterations 999999999` ended in an OutOfMemoryError with a stack trace
 * and a run left in the store, and `--out` naming a file was found only after the whole run; both now exit 2 with one
 * line before the store is touched.
 */
class CliSecurityTest {
    @TempDir
    Path tmp;

    @Test
    void absurdCountsAndAnOutThatIsAFileExitTwoBeforeAnythingRuns() throws Exception {
        Path db = tmp.resolve("m.duckdb");
        for (String[] bad : new String[][]{{"--iterations", "999999999"}, {"--warmups", "999999999"}}) {
            CliRunner.Result r = CliRunner.run("run", "--native", "--suites", "vision", bad[0], bad[1], "--db", db.toString(),
                    "--out", tmp.resolve("out").toString());
            assertThat(r.exitCode()).isEqualTo(Main.ERROR);
            assertThat(r.err().strip().lines()).hasSize(1);
            assertThat(r.err()).contains(bad[0], "100000").doesNotContain("OutOfMemoryError", "\tat ");
        }
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        CliRunner.Result r = CliRunner.run("run", "--native", "--suites", "vision", "--db", db.toString(), "--out", file.toString());
        assertThat(r.exitCode()).isEqualTo(Main.ERROR);
        assertThat(r.err()).contains("--out", "is a file");
        assertThat(db).as("the store is not touched").doesNotExist();
    }

    /**
     * merge: a refused file exits 2 with one line naming it, creates no store (the store was opened, and so created
     * and migrated, before the file was read), and the line shows no escape sequence the file carried.
     */
    @Test
    void mergeOfAHostileFileExitsTwoWithOneCleanLineAndCreatesNoStore() throws Exception {
        Path db = tmp.resolve("never.duckdb");
        Path f = Files.writeString(tmp.resolve("hostile.json"), """
                {"format": "accelbridge-matrix", "schemaVersion": 7, "hosts": [], "runs": [], "probes": [],
                 "results": [{"runId": "r\\u001b[31mRED", "suite": "text", "model": "m", "requested": "cpu",
                              "status": "PASSED", "batchSize": 1e23}]}
                """);
        CliRunner.Result r = CliRunner.run("merge", "--db", db.toString(), f.toString());
        assertThat(r.exitCode()).isEqualTo(Main.ERROR);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains(f.toString(), "results[0]", "batchSize is 1E+23, not a whole number").doesNotContain("\u001b");
        assertThat(db).as("no store is created for a refused file").doesNotExist();
    }
}
