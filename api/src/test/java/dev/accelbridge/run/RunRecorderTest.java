package dev.accelbridge.run;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Optional;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Results share a commit within {@link RunRecorder#GROUP_COMMIT_MS} (a real DuckDB file): a burst of results is stored
 * without a commit each, a lone waiting result reaches the store without any later write, and finishing stores the rest.
 */
class RunRecorderTest {
    @TempDir
    Path dir;

    static RunResult result(String runId, int i) {
        CaseId id = new CaseId(ModelFamily.OPS, "Abs-13-f32." + i, "sha" + i, "generated", "x=2x3", Precision.FP32, 1, BackendId.CPU,
                LaneId.NATIVE);
        return RunResult.of(runId, Instant.now(), id, new Outcome.Stopped(BackendId.CPU, Optional.empty()), Status.UNSUPPORTED, "test " + i, null,
                dev.accelbridge.core.MemoryUsage.UNKNOWN, List.of(), List.of());
    }

    @Test
    void aBurstSharesCommitsALoneResultArrivesAndFinishStoresTheRest() throws Exception {
        HostInfo host = new HostInfo("h", "fp-h", "Linux", "amd64", "cpu", 2, 2, List.of(), 1L << 30, List.of(), "17");
        try (MatrixStore store = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String run = store.beginRun(host, Map.of(), "{}");
            RunRecorder rec = new RunRecorder(store, host, Map.of(), RunListener.NONE, dir, RunAccount.startingNow());
            for (int i = 0; i < 50; i++) {
                rec.write(result(run, i));
            }
            // the first result went at once (no commit for a while before it); the rest wait for their group's commit
            assertThat(store.results(run)).hasSizeLessThan(50);
            long until = System.nanoTime() + 10_000_000_000L;
            while (store.results(run).size() < 50 && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            assertThat(store.results(run)).as("stored by the flusher, with no later write").hasSize(50);
            rec.write(result(run, 50));
            rec.write(result(run, 51));
            rec.finish(run, Instant.now(), "{}");
            assertThat(store.results(run)).hasSize(52);
        }
    }
}
