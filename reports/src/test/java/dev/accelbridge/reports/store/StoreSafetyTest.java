package dev.accelbridge.reports.store;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.reports.StoreException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static dev.accelbridge.reports.Fixtures.*;
import static dev.accelbridge.reports.store.MatrixStoreTest.assertRefusedUnchanged;
import static dev.accelbridge.reports.store.MatrixStoreTest.sha;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The store never locks its user out of a healthy file, and never touches a file it refuses. */
@Tag("slow") // damages and reopens real store files, 25 s
class StoreSafetyTest {
    @TempDir
    Path dir;

    private static final int BLOCK_HEADER_OFFSET = 3 * 4096;

    /** Writes {@code runs} runs of varying shape (result counts, sample counts, statuses, hosts). */
    private static int fill(Path db, int runs) {
        int total = 0;
        HostInfo[] hosts = {host("a"), host("b")};
        for (int run = 0; run < runs; run++) {
            HostInfo h = hosts[run % 2];
            try (MatrixStore s = MatrixStore.open(db)) {
                String id = s.beginRun(h, Map.of("accelbridge", "test"), "{\"run\":" + run + "}");
                int cases = 1 + (run * 7) % 23;
                for (int c = 0; c < cases; c++) {
                    RunResult r = switch ((run + c) % 4) {
                        case 0 -> passed(id, t(run * 100 + c), h, ModelFamily.TEXT, "m" + c, BackendId.CPU, nativeProv(h),
                                samples(2, 0.1, 1 + (run * 13 + c) % 200, run * 1000L + c));
                        case 1 -> fellBack(id, t(run * 100 + c), h, ModelFamily.VISION, "v" + c, BackendId.WEBGPU, BackendId.WASM,
                                chromiumProv(h, true), samples(5, 0.2, 1 + (run + c) % 40, run * 1000L + c));
                        case 2 -> notRun(id, t(run * 100 + c), ModelFamily.AUDIO, "a" + c, BackendId.CUDA, Status.UNAVAILABLE,
                                "no CUDA device " + "x".repeat(run * 50), nativeProv(h));
                        default -> wrong(id, t(run * 100 + c), ModelFamily.TEXT, "w" + c, BackendId.WEBNN_CPU,
                                chromiumProv(h, false), samples(1, 0.3, 30, run * 1000L + c));
                    };
                    s.write(r);
                    total++;
                }
                if (run % 5 != 4) {
                    s.finishRun(id);
                }
            }
        }
        return total;
    }

    @Nightly(guardedBy = "StoreSafetyTest#aHealthyFileShorterThanItsHeadersBlockCountOpens") // docs/testing.md#the-nightly-tier
    @Test
    void thirtyRunsOfDifferentShapesAllReopen() throws Exception {
        Path db = dir.resolve("m.duckdb");
        int total = fill(db, 30);
        try (MatrixStore s = MatrixStore.open(db)) {
            assertThat(s.allResults()).hasSize(total);
            assertThat(s.runs()).hasSize(30);
            // runs a "process" left running are interrupted: every 5th one here
            assertThat(s.interruptedRuns()).hasSize(6);
        }
        String before = sha(db);
        try (MatrixStore s = MatrixStore.openReadOnly(db)) {
            assertThat(s.allResults()).hasSize(total);
        }
        assertThat(sha(db)).as("a read-only open leaves the file as it was").isEqualTo(before);
        // the false invariant of the old check: DuckDB's header may count more blocks than the file holds
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db, readOnly()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT block_size * total_blocks FROM pragma_database_size()")) {
            rs.next();
            System.out.printf("file %d bytes, header blocks %d bytes%n", Files.size(db), rs.getLong(1));
        }
    }

    /**
     * Found when tried: after ordinary use a healthy store was refused because "the file is 4730880 bytes but its
     * header describes 5255168 bytes". DuckDB truncates free blocks off the end at a checkpoint but still counts
     * them; here that state is produced for real (blocks freed, then checkpointed) and the store still opens.
     */
    @Test
    void aHealthyFileShorterThanItsHeadersBlockCountOpens() throws Exception {
        Path db = dir.resolve("m.duckdb");
        int total = fill(db, 10);
        long before;
        // what the store saw in use: rows written and deleted over many sessions (here, samples of a scratch run)
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement()) {
            for (int r = 0; r < 30; r++) {
                st.execute("INSERT INTO samples SELECT range, 1, random() FROM range(" + (1_000_000 + r * 5000) + ", "
                        + (1_000_000 + (r + 1) * 5000) + ")");
                if (r % 7 == 3) {
                    st.execute("DELETE FROM samples WHERE result_id >= 1000000 AND result_id % 3 = 0");
                }
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement()) {
            st.execute("DELETE FROM samples WHERE result_id >= 1000000");
            st.execute("CHECKPOINT");
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db, readOnly()); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT block_size, total_blocks FROM pragma_database_size()")) {
                rs.next();
                before = 3 * 4096L + rs.getLong(1) * rs.getLong(2);
            }
        }
        assertThat(Files.size(db)).as("the state the old size rule refused").isLessThan(before);
        try (MatrixStore s = MatrixStore.open(db)) {
            assertThat(s.allResults()).hasSize(total);
        }
        try (MatrixStore s = MatrixStore.openReadOnly(db)) {
            assertThat(s.allResults()).hasSize(total);
        }
    }

    private static java.util.Properties readOnly() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("duckdb.read_only", "true");
        return p;
    }

    /** Blocks holding table data, by DuckDB's own account. */
    private static Set<Long> dataBlocks(Path db) throws Exception {
        Set<Long> out = new TreeSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db, readOnly()); Statement st = c.createStatement()) {
            for (String t : Migrations.KNOWN_TABLES) {
                try (ResultSet rs = st.executeQuery("SELECT DISTINCT block_id FROM pragma_storage_info('" + t + "') WHERE block_id >= 0")) {
                    while (rs.next()) {
                        out.add(rs.getLong(1));
                    }
                }
            }
        }
        return out;
    }

    /** What a run does with a store it opened: begin, probe, write cases, finish, read back. */
    private static void aWholeRun(MatrixStore s) {
        HostInfo h = host("after");
        String id = s.beginRun(h, Map.of(), "{}");
        s.recordProbe(id, dev.accelbridge.core.Availability.available(BackendId.CPU, "ok", "native"));
        s.write(passed(id, t(0), h, ModelFamily.TEXT, "after", BackendId.CPU, nativeProv(h), samples(2, 0.1, 20, 5)));
        s.write(fellBack(id, t(1), h, ModelFamily.TEXT, "after", BackendId.WEBGPU, BackendId.WASM, chromiumProv(h, true),
                samples(2, 0.1, 20, 6)));
        s.finishRun(id);
        assertThat(s.results(id)).hasSize(2);
        assertThat(s.allResults()).isNotEmpty();
    }

    /**
     * Bytes flipped in blocks a read-through never reaches (index blocks): the old inspection passed them and a
     * case's write then failed ("cannot commit - no transaction is active") with the result lost. The invariant
     * now: a damaged file is either refused at open, byte-identical, on DuckDB's own error (from reading every table
     * through, or from a trial write on a copy), or everything a run does with it afterwards works.
     */
    @Test
    void damageIsRefusedAtOpenOrHarmlessNeverFoundMidRun() throws Exception {
        Path good = dir.resolve("good.duckdb");
        fill(good, 12);
        Set<Long> data = dataBlocks(good);
        long blocks = (Files.size(good) - BLOCK_HEADER_OFFSET) / 262_144;
        List<String> refusedAt = new ArrayList<>();
        for (long b = 1; b < blocks; b++) {
            if (data.contains(b)) {
                continue;
            }
            for (int rel : new int[]{8, 4096}) {
                Path f = dir.resolve("flipped-" + b + "-" + rel + ".duckdb");
                Files.copy(good, f);
                flip(f, BLOCK_HEADER_OFFSET + b * 262_144 + rel, 64);
                String before = sha(f);
                MatrixStore s;
                try {
                    s = MatrixStore.open(f);
                } catch (StoreException e) {
                    assertThat(e).hasMessageContaining("DuckDB cannot use it").hasMessageContaining(f.toString());
                    assertThat(e.fix()).contains("left untouched");
                    assertThat(sha(f)).as("refused file unchanged").isEqualTo(before);
                    refusedAt.add(b + "+" + rel);
                    continue;
                }
                try (s) {
                    aWholeRun(s);
                }
            }
        }
        assertThat(refusedAt).as("index blocks damaged in a way only a write finds").isNotEmpty();
    }

    @Test
    void bytesFlippedInTheDataAreRefusedAndTheFileIsUntouched() throws Exception {
        Path good = dir.resolve("good.duckdb");
        fill(good, 12);
        long block = dataBlocks(good).stream().filter(b -> b > 0).findFirst().orElseThrow();
        Path f = dir.resolve("flipped.duckdb");
        Files.copy(good, f);
        flip(f, BLOCK_HEADER_OFFSET + block * 262_144 + 8, 64);
        assertRefusedUnchanged(f, "DuckDB cannot use it");
        String before = sha(f);
        assertThatThrownBy(() -> MatrixStore.openReadOnly(f)).isInstanceOf(StoreException.class).hasMessageContaining("checksum");
        assertThat(sha(f)).isEqualTo(before);
    }

    private static void flip(Path f, long offset, int n) throws Exception {
        try (var ch = java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(n);
            ch.read(b, offset);
            for (int i = 0; i < n; i++) {
                b.put(i, (byte) ~b.get(i));
            }
            b.rewind();
            ch.write(b, offset);
        }
    }

    /** A schema-v1 store (as the first release wrote it) opens read-only through a migrated copy, untouched. */
    @Test
    void anOlderSchemaIsReadOnlyThroughACopyAndMigratedOnlyByAWritableOpen() throws Exception {
        Path f = dir.resolve("v1.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + f); Statement st = c.createStatement()) {
            for (String sql : Migrations.ALL.get(0).statements()) {
                st.execute(sql);
            }
            st.execute("INSERT INTO schema_version VALUES (1, 'initial matrix schema', now())");
            st.execute("INSERT INTO runs VALUES ('r1', now(), now(), 'finished', 'fp-a', '0.1.0', '{}', '{}')");
            st.execute("INSERT INTO results (run_id, case_key, suite, model, input_set, requested, actual, status, browser, "
                    + "host_fingerprint, p50_ms, iterations, warmups, fallback_path, warnings, started_at, rss_before, rss_after, rss_peak) "
                    + "VALUES ('r1', 'vision/convnet/default/wasm/chromium', 'vision', 'convnet', 'default', 'wasm', 'wasm', "
                    + "'PASSED', 'chromium', 'fp-a', 1.5, 10, 3, '[]', '[]', now(), -1, -1, -1)");
        }
        String before = sha(f);
        try (MatrixStore s = MatrixStore.openReadOnly(f)) {
            RunResult r = s.results("r1").get(0);
            assertThat(r.id().lane().id()).isEqualTo("chromium");
            assertThat(r.timings().orElseThrow().p50Ms()).isEqualTo(1.5);
        }
        assertThat(sha(f)).isEqualTo(before);
        try (MatrixStore s = MatrixStore.open(f)) {
            assertThat(s.schemaVersion()).isEqualTo(MatrixStore.currentSchemaVersion());
            assertThat(s.results("r1")).hasSize(1);
        }
    }

    /**
     * A run in another process does not keep the file: report/export (read-only) and even a second writer get it
     * between two cases, and the live run is not mistaken for an interrupted one.
     */
    @Test
    void aLiveRunInAnotherProcessLetsReadersInAndIsNotMarkedInterrupted() throws Exception {
        Path db = dir.resolve("shared.duckdb");
        Path runIdFile = dir.resolve("run-id.txt");
        Path go = dir.resolve("go");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), LiveRunWriter.class.getName(),
                db.toString(), runIdFile.toString(), go.toString()).redirectErrorStream(true).start();
        try {
            long deadline = System.currentTimeMillis() + 60_000;
            while (!Files.exists(runIdFile) && System.currentTimeMillis() < deadline && p.isAlive()) {
                Thread.sleep(20);
            }
            assertThat(runIdFile).as("the child began its run").exists();
            Thread.sleep(50);
            String runId = Files.readString(runIdFile).trim();
            try (MatrixStore ro = MatrixStore.openReadOnly(db)) {
                assertThat(ro.results(runId)).hasSize(1);
                assertThat(ro.run(runId).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
            }
            try (MatrixStore rw = MatrixStore.open(db)) {
                assertThat(rw.run(runId).orElseThrow().status()).as("a live run is not interrupted").isEqualTo(RunStatus.RUNNING);
            }
            Files.createFile(go);
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor()).as(out).isZero();
            try (MatrixStore ro = MatrixStore.openReadOnly(db)) {
                assertThat(ro.results(runId)).hasSize(2);
                assertThat(ro.run(runId).orElseThrow().status()).isEqualTo(RunStatus.FINISHED);
            }
        } finally {
            p.destroyForcibly();
        }
    }
}
