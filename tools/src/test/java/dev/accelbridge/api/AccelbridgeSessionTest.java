package dev.accelbridge.api;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.tools.cli.CliRunner;
import dev.accelbridge.tools.cli.Main;
import dev.accelbridge.run.RunListener;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Status;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.reports.store.RunInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Java API end to end on real Chromium, onnxruntime-web, DJL and DuckDB: typed results paired with their native CPU
 * run, runs in the store the CLI reads (and refuses to resume), a closed session refusing work.
 */
class AccelbridgeSessionTest {
    @TempDir
    Path dir;

    @RequiresBrowser
    @Test
    void aSessionRunsPlansIntoTheStoreAndGivesTypedResults() throws Exception {
        Path db = dir.resolve("matrix.duckdb");
        List<String> news = new CopyOnWriteArrayList<>();
        RunPlan plan = RunPlan.builder()
                .targets(t -> t.setBackends(List.of(BackendId.WASM, BackendId.WEBNN_NPU, BackendId.CPU))
                        .optChains(Chains.defaults().with(Chain.of(BackendId.WEBNN_NPU)))) // alone: no fallback to wasm
                .workload(w -> w.optSuites(List.of(ModelFamily.VISION)).optModelCache(dir.resolve("models")))
                .sampling(s -> s.optWarmups(1).optIterations(3).optMinDuration(java.time.Duration.ZERO).optWarmupDuration(java.time.Duration.ZERO))
                .build();
        AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(db).optOutDir(dir.resolve("out"))
                .optOrigin("my-tool").optListener(new RunListener() {
                    @Override
                    public void info(String message) {
                        news.add(message);
                    }
                }).build());
        SessionRun first;
        SessionRun second;
        try (session) {
            assertThat(session.storePath()).isEqualTo(db.toAbsolutePath());
            first = session.run(plan, "first");
            second = session.run(plan);
        }
        assertThat(news).anySatisfy(m -> assertThat(m).startsWith("starting chromium"));
        assertThat(first.runId()).isNotEqualTo(second.runId());
        assertThat(first.results()).hasSize(3);

        CaseResult wasm = first.on(BackendId.WASM, LaneId.of(BrowserKind.CHROMIUM)).get(0);
        assertThat(wasm.status()).isEqualTo(Status.PASSED);
        assertThat(wasm.label()).matches("wasm \\[chromium \\d+]");
        assertThat(wasm.actual()).contains(BackendId.WASM);
        assertThat(wasm.timings()).isPresent();
        assertThat(wasm.parity()).hasValueSatisfying(p -> assertThat(p.within()).isTrue());
        assertThat(wasm.provenance().browser()).isEqualTo("chromium");
        // the ratio is this run's wasm p50 over this run's native cpu p50, both measured
        CaseResult cpu = first.on(BackendId.CPU).get(0);
        assertThat(cpu.label()).isEqualTo("cpu [native]");
        assertThat(wasm.nativeCpu()).contains(cpu.result());
        assertThat(wasm.timesNative().getAsDouble()).isEqualTo(wasm.p50Ms().getAsDouble() / cpu.p50Ms().getAsDouble());
        assertThat(cpu.timesNative().getAsDouble()).isEqualTo(1.0);
        assertThat(wasm.summary()).startsWith("PASSED on wasm: p50 ").contains("× native cpu").contains("max abs err");

        // Debian's Chromium has no WebNN: UNAVAILABLE with the probe's words, not a pass and no figures
        CaseResult npu = first.on(BackendId.WEBNN_NPU).get(0);
        assertThat(npu.status()).isEqualTo(Status.UNAVAILABLE);
        assertThat(npu.reason()).hasValueSatisfying(r -> assertThat(r).containsIgnoringCase("webnn"));
        assertThat(npu.timings()).isEmpty();
        assertThat(npu.timesNative()).isEmpty();

        // the one JSON form, as run --json gives it
        JsonNode json = ResultJson.MAPPER.readTree(wasm.toJson());
        assertThat(json.get("caseKey").asText()).isEqualTo(wasm.id().key());
        assertThat(json.get("status").asText()).isEqualTo("PASSED");
        assertThat(json.get("p50Ms").asDouble()).isEqualTo(wasm.p50Ms().getAsDouble());
        assertThat(json.get("samplesMs")).hasSize(3);

        try (MatrixStore store = MatrixStore.openReadOnly(db)) {
            List<RunInfo> runs = store.runs();
            assertThat(runs).extracting(RunInfo::runId).contains(first.runId(), second.runId());
            RunInfo r1 = runs.stream().filter(r -> r.runId().equals(first.runId())).findFirst().orElseThrow();
            JsonNode recorded = ResultJson.MAPPER.readTree(r1.planJson());
            assertThat(recorded.get("origin").asText()).isEqualTo("my-tool");
            assertThat(recorded.get("label").asText()).isEqualTo("first");
            assertThat(recorded.get("plan").get("targets").get("backends").toString()).isEqualTo("[\"wasm\",\"webnn-npu\",\"cpu\"]");
            assertThat(store.results(first.runId())).hasSize(3);
        }

        // the CLI reads the store; it cannot resume a run it did not start, and says so in one line
        CliRunner.Result resumed = CliRunner.run("run", "--db", db.toString(), "--resume", first.runId());
        assertThat(resumed.exitCode()).isEqualTo(Main.ERROR);
        assertThat(resumed.err().lines().findFirst().orElse("")).contains("not started by 'accelbridge run'").contains("origin: my-tool");

        assertThatThrownBy(() -> session.run(plan)).isInstanceOf(AccelbridgeException.class).hasMessageContaining("session is closed");
    }

    @Test
    void aStoreDuckDbRefusesIsRefusedAtCreateAndLeftAsItWas() throws Exception {
        Path notADb = java.nio.file.Files.writeString(dir.resolve("notes.duckdb"), "not a database");
        assertThatThrownBy(() -> Accelbridge.create(SessionOptions.builder().optStore(notADb).build()))
                .isInstanceOf(dev.accelbridge.reports.StoreException.class);
        assertThat(java.nio.file.Files.readString(notADb)).isEqualTo("not a database");
    }
}
