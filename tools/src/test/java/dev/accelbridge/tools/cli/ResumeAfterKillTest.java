package dev.accelbridge.tools.cli;

import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.RunInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run killed after some cases keeps them (one transaction per case), and {@code run --resume} finishes
 * the rest with the options the run was started with.
 */
class ResumeAfterKillTest {
    @TempDir
    Path tmp;

    @Test
    void killedRunKeepsFinishedCasesAndResumeCompletesIt() throws Exception {
        Path db = tmp.resolve("m.duckdb");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", cp, Main.class.getName(), "run", "--native", "--suites", "text,vision,multimodal",
                "--warmups", "0", "--iterations", "4000", "--min-duration", "2.5", "--db", db.toString(), "--no-report"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> seen = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                seen.add(line);
                if (line.startsWith("[1/5]")) {
                    // The first case is committed (the line is printed after the write): kill hard now.
                    p.destroyForcibly();
                    break;
                }
            }
        }
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).as("child output").anyMatch(l -> l.startsWith("[1/5]"));

        String runId;
        List<RunResult> kept;
        try (MatrixStore store = MatrixStore.open(db)) {
            List<RunInfo> interrupted = store.interruptedRuns();
            assertThat(interrupted).hasSize(1);
            runId = interrupted.get(0).runId();
            kept = store.results(runId);
            assertThat(kept).hasSizeBetween(1, 2);
        }

        CliRunner.Result resumed = CliRunner.run("run", "--resume", "--db", db.toString(), "--no-report");
        assertThat(resumed.exitCode()).as(resumed.err()).isEqualTo(Main.OK);
        assertThat(resumed.err()).contains("resuming run " + runId);
        // found when tried: the cases reported "already done" were timed again (here at least 2.5 s each), though nothing was
        // stored twice: the resumed run's own account of timed compute is its new cases' samples, not more
        java.util.regex.Matcher timed = java.util.regex.Pattern.compile("timed compute\\s+([0-9.]+) s").matcher(resumed.err());
        assertThat(timed.find()).as(resumed.err()).isTrue();
        double accounted = Double.parseDouble(timed.group(1));
        try (MatrixStore store = MatrixStore.open(db)) {
            assertThat(store.interruptedRuns()).isEmpty();
            List<RunResult> all = store.results(runId);
            assertThat(all).hasSize(5);
            assertThat(all).extracting(x -> x.suite().id()).containsExactlyInAnyOrder("text", "vision", "multimodal", "multimodal", "multimodal");
            assertThat(all).allSatisfy(x -> assertThat(x.timings().orElseThrow().iterations()).isGreaterThanOrEqualTo(4000));
            java.util.Set<String> keptRows = new java.util.HashSet<>(kept.stream().map(k -> k.id().row() + k.id().dimensionsTag()).toList());
            double sampled = all.stream().filter(x -> !keptRows.contains(x.id().row() + x.id().dimensionsTag()))
                    .flatMapToDouble(x -> java.util.Arrays.stream(x.timings().orElseThrow().samplesMs())).sum() / 1000;
            assertThat(accounted).as("timed compute of the resumed run against its new cases' samples").isLessThan(sampled + 1.2);
        }
    }
}
