package dev.accelbridge.run;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.nativerunner.HostDetector;
import dev.accelbridge.reports.StoreException;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.StoreExport;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Found when tried: a store that failed mid-run lost the case being stored (with a wrong "check free disk space"
 * hint). Here the store file is really damaged between two cases of a real native run: DuckDB refuses the next
 * write, the run goes on, and every result not stored lands in a spill file that {@code merge} takes into a healthy
 * store. Nothing measured is lost.
 */
class StoreFailureMidRunTest {
    @TempDir
    Path dir;

    @Test
    void resultsTheStoreRefusesAreSpilledAndMergeable() throws Exception {
        Path db = dir.resolve("m.duckdb");
        List<ModelCase> cases = new ArrayList<>();
        SuiteCatalog catalog = SuiteCatalog.create(SuiteOptions.defaults(dir.resolve("models")));
        cases.addAll(catalog.cases(ModelFamily.VISION));
        cases.addAll(catalog.cases(ModelFamily.TEXT));
        cases.addAll(catalog.cases(ModelFamily.AUDIO).subList(0, 1)); // the encoder's single pass, not speech-to-text
        RunPlan plan = RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.VISION, ModelFamily.TEXT, ModelFamily.AUDIO)).optModelCache(dir.resolve("models"))).targets(t -> t.setBackends(List.of(BackendId.CPU))).sampling(s -> s.optWarmups(0).optIterations(2).optMinDuration(java.time.Duration.ZERO).optWarmupDuration(java.time.Duration.ZERO)).build();
        HostInfo host = HostDetector.detect();
        List<RunResult> seen = new ArrayList<>();
        RunListener damageAfterFirst = new RunListener() {
            @Override
            public void caseFinished(RunResult r, int done, int total) {
                seen.add(r);
                if (done == 1) {
                    // the file as a failing disk leaves it: cut after DuckDB's headers
                    try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
                        f.setLength(3 * 4096 + 100);
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        };
        Path out = dir.resolve("out");
        try (MatrixStore store = MatrixStore.openForRun(db); NativeProviders natives = NativeProviders.load()) {
            RunOrchestrator o = new RunOrchestrator(store, host, natives, () -> {
                throw new AssertionError("no browser lane in a native plan");
            }, Map.of("accelbridge", "test"), damageAfterFirst).spillTo(out);
            assertThatThrownBy(() -> o.run(plan, cases, "{}", null))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining(db.toAbsolutePath().toString())
                    .satisfies(e -> assertThat(((StoreException) e).fix()).contains("unsaved-", "accelbridge merge", "2 results"));
        }
        assertThat(seen).hasSize(3).allSatisfy(r -> assertThat(r.status()).isEqualTo(Status.PASSED));
        Path spill;
        try (var files = Files.list(out)) {
            spill = files.filter(f -> f.getFileName().toString().startsWith("unsaved-")).findFirst().orElseThrow();
        }
        try (MatrixStore healthy = MatrixStore.open(dir.resolve("healthy.duckdb"))) {
            StoreExport.MergeSummary m = StoreExport.merge(healthy, spill);
            assertThat(m.results()).isEqualTo(2);
            assertThat(healthy.allResults()).extracting(RunResult::id)
                    .containsExactlyInAnyOrder(seen.get(1).id(), seen.get(2).id());
            assertThat(healthy.allResults().get(0).timings().orElseThrow().samplesMs()).hasSize(2);
        }
    }
}
