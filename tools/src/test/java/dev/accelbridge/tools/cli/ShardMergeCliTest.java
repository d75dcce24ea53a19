package dev.accelbridge.tools.cli;

import dev.accelbridge.run.Shard;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** `--shard 1/3..3/3`, each run on its own store, exported and merged, equals the unsharded case list: nothing lost or doubled. */
class ShardMergeCliTest {
    @TempDir
    Path tmp;

    static final String[] PLAN = {"--native", "--suites", "text,vision,audio", "--precision", "fp32,fp16", "-n", "2", "--min-duration", "0", "--warmup-duration", "0", "--warmups", "1",
            "--no-report", "--no-bisect"};

    @Test
    void threeShardsMergedEqualTheUnshardedRun() throws Exception {
        List<String> whole = keys(run(tmp.resolve("whole.duckdb"), null));
        // three single passes at fp32 and fp16, speech-to-text at fp32 and its fp16 refused (UNSUPPORTED, a row of its own)
        assertThat(whole).hasSize(8).doesNotHaveDuplicates();
        List<String> files = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            Path db = tmp.resolve("shard" + i + ".duckdb");
            List<String> part = keys(run(db, i + "/3"));
            assertThat(part).as("shard " + i).hasSizeBetween(2, 3);
            parts.addAll(part);
            Path export = tmp.resolve("shard" + i + ".json");
            CliRunner.Result e = CliRunner.run("export", export.toString(), "--db", db.toString());
            assertThat(e.exitCode()).as(e.err()).isZero();
            files.add(export.toString());
        }
        assertThat(parts).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(whole);
        Path merged = tmp.resolve("merged.duckdb");
        List<String> args = new ArrayList<>(List.of("merge"));
        args.addAll(files);
        args.addAll(List.of("--db", merged.toString()));
        CliRunner.Result m = CliRunner.run(args.toArray(String[]::new));
        assertThat(m.exitCode()).as(m.err()).isZero();
        // merging again changes nothing
        assertThat(CliRunner.run(args.toArray(String[]::new)).exitCode()).isZero();
        try (MatrixStore s = MatrixStore.openReadOnly(merged)) {
            assertThat(s.runs()).hasSize(3);
            assertThat(s.allResults().stream().map(r -> r.id().key()).toList()).containsExactlyInAnyOrderElementsOf(whole);
        }
    }

    @Test
    void aShardOutsideTheRunIsRefused() {
        assertThatThrownBy(() -> Shard.parse("4/3")).hasMessageContaining("--shard 4/3");
        assertThatThrownBy(() -> Shard.parse("one/3")).hasMessageContaining("not I/N");
        CliRunner.Result r = CliRunner.run("run", "--native", "--shard", "0/2", "--db", tmp.resolve("x.duckdb").toString());
        assertThat(r.exitCode()).isEqualTo(Main.ERROR);
        assertThat(r.err()).contains("--shard 0/2");
        assertThat(tmp.resolve("x.duckdb")).doesNotExist();
        // the cut is deterministic and covers every item once, for any size
        for (int n = 1; n <= 5; n++) {
            List<String> items = List.of("e", "a", "d", "c", "b", "f", "g");
            List<String> all = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                List<String> part = new Shard(i, n).select(items, x -> x);
                assertThat(part).isEqualTo(new Shard(i, n).select(items, x -> x));
                all.addAll(part);
            }
            assertThat(all).containsExactlyInAnyOrderElementsOf(items);
        }
    }

    private List<RunResult> run(Path db, String shard) {
        List<String> a = new ArrayList<>(List.of("run"));
        a.addAll(List.of(PLAN));
        a.addAll(List.of("--db", db.toString(), "--out", tmp.resolve("out").toString()));
        if (shard != null) {
            a.addAll(List.of("--shard", shard));
        }
        CliRunner.Result r = CliRunner.run(a.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        try (MatrixStore s = MatrixStore.openReadOnly(db)) {
            return s.allResults();
        }
    }

    private static List<String> keys(List<RunResult> rs) {
        return rs.stream().map(r -> r.id().key()).toList();
    }
}
