package dev.accelbridge.reports.store;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;
import dev.accelbridge.reports.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MatrixStoreTest {
    @TempDir
    Path dir;

    static void assertSame(RunResult actual, RunResult expected) {
        assertThat(ResultJson.result(actual, true)).isEqualTo(ResultJson.result(expected, true));
    }

    @Test
    void roundTripsEveryField() {
        HostInfo h = host("alpha");
        Path db = dir.resolve("m.duckdb");
        List<RunResult> written;
        String run;
        try (MatrixStore s = MatrixStore.open(db)) {
            assertThat(s.schemaVersion()).isEqualTo(MatrixStore.currentSchemaVersion());
            run = s.beginRun(h, Map.of("accelbridge", "0.1.0", "onnxruntime", "1.29.0"), "{\"suites\":[\"text\"]}");
            s.recordProbe(run, Availability.available(BackendId.CPU, "providers [CPU]", "native"));
            s.recordProbe(run, Availability.unavailable(BackendId.WEBGPU, "No available adapters.", "chromium 156"));
            RunResult nonFinite = RunResult.of(run, t(3), new CaseId(ModelFamily.AUDIO, "whisper-tiny", "sha", "tone",
                    "mel=1x80x100", Precision.FP16, 4, BackendId.WASM, LaneId.of(BrowserKind.CHROMIUM)), new Outcome.Ran(BackendId.WASM, new Timings(Double.NaN, 1.5, 0, new double[]{1.0, 2.0}, 1.5, 1.9, 1.99, 1.5, 0.7, 666.0), Optional.ofNullable(new Parity(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN, 1e-3, false, "expected-outputs", 3))), Status.WRONG_OUTPUT, "NaN output", chromiumProv(h, false),
                    new MemoryUsage(-1, -1, -1),
                    List.of(), List.of("w1", "w2")).withAnalysis(dev.accelbridge.core.Analysis.NONE.withComputed(
                    dev.accelbridge.core.ComputedPrecision.inFloat32InPart(5, "onnxruntime-web's session profiler in the page"))
                    .withBisection(dev.accelbridge.core.Bisection.without(dev.accelbridge.core.Bisection.Outcome.NOT_LOCALIZED,
                            BackendId.WASM, "native-cpu", 1e-4, 12, "all within").withNonFinite(
                            new dev.accelbridge.core.Bisection.NonFinite("pow/Pow_2", "Pow", "pow", 59, 64, 0))));
            written = List.of(
                    passed(run, t(0), h, ModelFamily.TEXT, "bert-tiny", BackendId.CPU, nativeProv(h), samples(2.0, 0.1, 30, 1)),
                    fellBack(run, t(1), h, ModelFamily.VISION, "convnet", BackendId.WEBGPU, BackendId.WASM, chromiumProv(h, true),
                            samples(5.0, 0.1, 20, 2)),
                    notRun(run, t(2), ModelFamily.TEXT, "bert-tiny", BackendId.CUDA, Status.UNAVAILABLE,
                            "unavailable: 0 CUDA devices", nativeProv(h)),
                    nonFinite);
            written.forEach(s::write);
            s.finishRun(run);
        }
        try (MatrixStore s = MatrixStore.open(db)) {
            List<RunResult> back = s.results(run);
            assertThat(back).hasSize(written.size());
            for (int i = 0; i < back.size(); i++) {
                assertSame(back.get(i), written.get(i));
            }
            assertThat(back.get(0).timings().orElseThrow().samplesMs()).containsExactly(written.get(0).timings().orElseThrow().samplesMs());
            assertThat(back.get(3).analysis().computed()).isEqualTo(written.get(3).analysis().computed());
            assertThat(back.get(0).analysis().computed()).isNull();
            assertThat(back.get(3).analysis().bisection().nonFinite()).isEqualTo(written.get(3).analysis().bisection().nonFinite());
            assertThat(s.allResults()).hasSize(4);
            assertThat(s.latestRun()).contains(run);
            RunInfo info = s.run(run).orElseThrow();
            assertThat(info.status()).isEqualTo(RunStatus.FINISHED);
            assertThat(info.finishedAt()).isNotNull();
            assertThat(info.toolkitVersion()).isEqualTo("0.1.0");
            assertThat(info.runtimeVersions()).containsEntry("onnxruntime", "1.29.0");
            assertThat(info.planJson()).isEqualTo("{\"suites\":[\"text\"]}");
            assertThat(info.results()).isEqualTo(4);
            assertThat(s.probes(run)).containsExactly(
                    Availability.available(BackendId.CPU, "providers [CPU]", "native"),
                    Availability.unavailable(BackendId.WEBGPU, "No available adapters.", "chromium 156"));
            assertThat(s.hosts()).containsEntry(h.fingerprint(), h);
            assertThat(s.completedCases(run)).containsExactlyInAnyOrderElementsOf(written.stream().map(RunResult::id).toList());
            assertThat(s.completedCases(run)).extracting(CaseId::key).contains(
                    "text/bert-tiny@sha-bert-tin/default[x=1x4]/fp32/b1/cpu/native+ort@1.29.0",
                    "audio/whisper-tiny@sha/tone[mel=1x80x100]/fp16/b4/wasm/chromium");
            assertThat(s.interruptedRuns()).isEmpty();
        }
    }

    /** Models go in as a group: one listed twice is kept as last listed, a later group replaces it, the rest stay. */
    @Test
    void modelsRecordedInGroupsKeepTheLastWordPerModel() {
        try (MatrixStore s = MatrixStore.open(dir.resolve("models.duckdb"))) {
            List<ModelEntry> many = new java.util.ArrayList<>();
            for (int k = 0; k < 300; k++) {
                many.add(new ModelEntry(String.format("%064x", k), "m" + k, 13 + k % 5, List.of("Op" + k, "Relu")));
            }
            many.add(new ModelEntry(String.format("%064x", 7), "again", 18, List.of("Conv")));
            many.add(new ModelEntry(null, "no file", 13, List.of("Add")));
            s.recordModels(many);
            s.recordModels(List.of(new ModelEntry(String.format("%064x", 9), null, 21, List.of())));
            Map<String, List<String>> ops = s.modelOps();
            assertThat(ops).hasSize(300);
            assertThat(ops.get(String.format("%064x", 0))).containsExactly("Op0", "Relu");
            assertThat(ops.get(String.format("%064x", 7))).containsExactly("Conv");
            assertThat(ops.get(String.format("%064x", 9))).isEmpty();
            assertThat(ops.get(String.format("%064x", 299))).containsExactly("Op299", "Relu");
        }
    }

    /** Many results go in through the staging table (ids drawn first): each comes back with its own fields and samples. */
    @Test
    void aLargeGroupOfResultsRoundTripsInOrder() {
        HostInfo h = host("alpha");
        try (MatrixStore s = MatrixStore.open(dir.resolve("group.duckdb"))) {
            String run = s.beginRun(h, Map.of(), "{}");
            s.write(passed(run, t(0), h, ModelFamily.TEXT, "first", BackendId.CPU, nativeProv(h), samples(3, 0.05, 10, 0)));
            List<RunResult> group = new java.util.ArrayList<>();
            for (int k = 0; k < 150; k++) {
                group.add(k % 7 == 0 ? notRun(run, t(1 + k), ModelFamily.VISION, "m" + k, BackendId.WEBGPU, Status.UNAVAILABLE, "no adapter " + k,
                        chromiumProv(h, true))
                        : passed(run, t(1 + k), h, ModelFamily.VISION, "m" + k, BackendId.WASM, chromiumProv(h, false), samples(1 + k % 5, 0.05, 10, k)));
            }
            s.writeAll(group);
            List<RunResult> back = s.results(run);
            assertThat(back).hasSize(151);
            for (int k = 0; k < 150; k++) { // each row with its own fields (roundTripsEveryField holds every field) and samples
                RunResult w = group.get(k);
                RunResult r = back.get(k + 1);
                assertThat(r.id()).isEqualTo(w.id());
                assertThat(r.status()).isEqualTo(w.status());
                assertThat(r.reason()).isEqualTo(w.reason());
                assertThat(r.startedAt()).isEqualTo(w.startedAt());
                if (w.timings().isEmpty()) {
                    assertThat(r.timings().orElse(null)).isNull();
                } else {
                    assertThat(r.timings().orElseThrow().samplesMs()).containsExactly(w.timings().orElseThrow().samplesMs());
                }
            }
        }
    }

    @Test
    void latestWorkingTimingsIsTheNewestWorkingResultOnThisHost() {
        HostInfo a = host("a");
        HostInfo b = host("b");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String r1 = s.beginRun(a, Map.of(), "{}");
            s.write(passed(r1, t(0), a, ModelFamily.VISION, "convnet", BackendId.WEBGPU, chromiumProv(a, true), samples(60, 0.05, 10, 1)));
            s.finishRun(r1);
            String r2 = s.beginRun(a, Map.of(), "{}");
            s.write(passed(r2, t(10), a, ModelFamily.VISION, "convnet", BackendId.WEBGPU, chromiumProv(a, true), samples(80, 0.05, 10, 2)));
            s.write(fellBack(r2, t(11), a, ModelFamily.VISION, "convnet", BackendId.WEBGPU, BackendId.WASM, chromiumProv(a, false),
                    samples(1, 0.05, 10, 3)));
            s.finishRun(r2);
            String r3 = s.beginRun(b, Map.of(), "{}");
            s.write(passed(r3, t(20), b, ModelFamily.VISION, "convnet", BackendId.WEBGPU, chromiumProv(b, true), samples(10, 0.05, 10, 4)));
            s.write(notRun(r3, t(21), ModelFamily.VISION, "convnet", BackendId.WEBGPU, Status.FAILED, "boom", chromiumProv(b, true)));
            CaseId webgpu = id(ModelFamily.VISION, "convnet", BackendId.WEBGPU, chromiumProv(a, true));
            Optional<Timings> ta = s.latestWorkingTimings("fp-a", webgpu, BackendId.WEBGPU);
            assertThat(ta).isPresent();
            assertThat(ta.get().p50Ms()).isBetween(76.0, 84.0);
            assertThat(ta.get().samplesMs()).hasSize(10);
            assertThat(s.latestWorkingTimings("fp-b", webgpu, BackendId.WEBGPU).get().p50Ms()).isBetween(9.5, 10.5);
            assertThat(s.latestWorkingTimings("fp-a", webgpu.inLane(LaneId.NATIVE), BackendId.WEBGPU)).isEmpty();
            assertThat(s.latestWorkingTimings("fp-a", webgpu, BackendId.WASM)).isPresent();
            CaseId.CellId cell = webgpu.cellOn("fp-a");
            assertThat(s.history(cell)).extracting(RunResult::runId).containsExactly(r1, r2, r2);
        }
    }

    /** A real process writes three cases and is killed (halt, no close, no finishRun): nothing finished is lost. */
    @Test
    void processKilledMidRunKeepsFinishedCasesAndTheRunIsInterrupted() throws Exception {
        Path db = dir.resolve("crash.duckdb");
        Path runIdFile = dir.resolve("run-id.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), CrashingWriter.class.getName(),
                db.toString(), runIdFile.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        int rc = p.waitFor();
        assertThat(rc).as(out).isEqualTo(CrashingWriter.EXIT);
        String runId = Files.readString(runIdFile).trim();
        try (MatrixStore s = MatrixStore.open(db)) {
            assertThat(s.results(runId)).hasSize(3);
            assertThat(s.run(runId).orElseThrow().status()).isEqualTo(RunStatus.INTERRUPTED);
            assertThat(s.interruptedRuns()).extracting(RunInfo::runId).containsExactly(runId);
            assertThat(s.completedCases(runId)).hasSize(3);
            // --resume: the run is picked up again, the rest written, then finished
            s.resumeRun(runId, false);
            HostInfo h = host("crashy");
            s.write(passed(runId, t(9), h, ModelFamily.AUDIO, "whisper", BackendId.CPU, nativeProv(h), samples(3, 0.1, 5, 9)));
            s.finishRun(runId);
            assertThat(s.completedCases(runId)).hasSize(4);
            assertThat(s.interruptedRuns()).isEmpty();
        }
    }

    static String sha(Path f) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }

    static void assertRefusedUnchanged(Path f, String... messageParts) throws Exception {
        String before = sha(f);
        long size = Files.size(f);
        assertThatThrownBy(() -> MatrixStore.open(f))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining(f.toAbsolutePath().toString())
                .hasMessageContaining(messageParts[0])
                .satisfies(e -> assertThat(((StoreException) e).fix()).contains("left untouched"));
        for (String part : messageParts) {
            assertThatThrownBy(() -> MatrixStore.open(f)).hasMessageContaining(part);
        }
        assertThat(sha(f)).isEqualTo(before);
        assertThat(Files.size(f)).isEqualTo(size);
        assertThat(Files.exists(Path.of(f + ".wal"))).isFalse();
    }

    @Test
    void randomBytesAreRefusedAndLeftUntouched() throws Exception {
        Path f = dir.resolve("random.duckdb");
        byte[] b = new byte[64 * 1024];
        new java.util.SplittableRandom(7).nextBytes(b);
        Files.write(f, b);
        assertRefusedUnchanged(f, "is not a DuckDB database");
    }

    @Test
    void aTextFileIsRefusedAndLeftUntouched() throws Exception {
        Path f = dir.resolve("notes.duckdb");
        Files.writeString(f, "these are my notes, not a database\n");
        assertRefusedUnchanged(f, "is not a DuckDB database");
        Path empty = dir.resolve("empty.duckdb");
        Files.createFile(empty);
        assertRefusedUnchanged(empty, "is not a DuckDB database");
    }

    @Test
    void aTruncatedStoreIsRefusedAndLeftUntouched() throws Exception {
        Path good = dir.resolve("good.duckdb");
        HostInfo h = host("t");
        try (MatrixStore s = MatrixStore.open(good)) {
            String r = s.beginRun(h, Map.of(), "{}");
            for (int i = 0; i < 20; i++) {
                s.write(passed(r, t(i), h, ModelFamily.TEXT, "m" + i, BackendId.CPU, nativeProv(h), samples(1, 0.1, 50, i)));
            }
        }
        byte[] all = Files.readAllBytes(good);
        Path f = dir.resolve("truncated.duckdb");
        Files.write(f, java.util.Arrays.copyOf(all, all.length / 3));
        assertRefusedUnchanged(f, "DuckDB cannot use it");
    }

    @Test
    void aForeignDuckDbIsRefusedAndLeftUntouched() throws Exception {
        Path f = dir.resolve("foreign.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + f); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE invoices (id INTEGER, amount DOUBLE)");
            st.execute("INSERT INTO invoices VALUES (1, 9.5)");
        }
        assertRefusedUnchanged(f, "is not an Accelbridge matrix store", "invoices");
    }

    @Test
    void unknownTablesAreRefused() throws Exception {
        Path f = dir.resolve("extra.duckdb");
        try (MatrixStore s = MatrixStore.open(f)) {
            assertThat(s.schemaVersion()).isEqualTo(MatrixStore.currentSchemaVersion());
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + f); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE something_else (x INTEGER)");
        }
        assertRefusedUnchanged(f, "tables an Accelbridge store does not have", "something_else");
    }

    @Test
    void aNewerSchemaIsRefusedAndLeftUntouched() throws Exception {
        Path f = dir.resolve("newer.duckdb");
        try (MatrixStore s = MatrixStore.open(f)) {
            assertThat(s.schemaVersion()).isEqualTo(MatrixStore.currentSchemaVersion());
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + f); Statement st = c.createStatement()) {
            st.execute("INSERT INTO schema_version VALUES (99, 'from the future', now())");
        }
        assertRefusedUnchanged(f, "schema version 99, newer than this Accelbridge's " + MatrixStore.currentSchemaVersion());
    }

    @Test
    void defaultPathIsUnderUserHome() {
        assertThat(MatrixStore.defaultPath()).isEqualTo(Path.of(System.getProperty("user.home"), ".accelbridge", "matrix.duckdb"));
    }
}
