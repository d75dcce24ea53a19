package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.DType;
import dev.accelbridge.suites.onnx.GraphBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Time budgets that scale: a model whose every wasm inference takes about a second runs on the defaults (no fixed
 * job timeout decides; the timed runs' deadline comes from its first inference) and, being longer than a second,
 * shows where it is ("warm-up 1 of 1", "timed run 1 of 3") while it runs: in a log, a heartbeat once it has run five seconds.
 */
class LongCasesCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void aSlowModelRunsOnTheDefaultsAndShowsItsIterationsAsTheyGo() throws Exception {
        // twelve 1024 x 1024 matrix products with one weight: about 26 GFLOP, a second or more per inference in wasm on
        // one thread here (160 ms for two)
        GraphBuilder g = new GraphBuilder("slow", 3);
        String x = g.input("x", DType.FLOAT32, 1024, 1024);
        String w = g.uniform("w", 0.03, 1024, 1024);
        String h = x;
        for (int i = 0; i < 11; i++) {
            h = g.op("MatMul", "mm" + i, List.of(h, w));
        }
        g.opInto("MatMul", "y", List.of(h, w));
        g.output("y", DType.FLOAT32, 1024, 1024);
        Path dir = Files.createDirectories(tmp.resolve("slow"));
        Files.write(dir.resolve("model.onnx"), g.build("slow").toByteArray());
        // the dashboard's live view (another process) learns where the case is from a file beside the run's lock
        Path locks = tmp.resolve("m.duckdb.locks");
        java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread watcher = new Thread(() -> {
            while (!done.get()) {
                try (var files = Files.list(locks)) {
                    for (Path f : files.filter(f -> f.toString().endsWith(".progress")).toList()) {
                        seen.add(Files.readString(f));
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    // not there yet, or removed between list and read
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        watcher.start();
        CliRunner.Result r;
        try {
            r = CliRunner.run("run", "--model", dir.toString(), "--backends", "wasm", "--browser", "chromium",
                    "--json", "--warmups", "1", "--iterations", "3", "--min-duration", "0", "--warmup-duration", "0", "--threads", "1", "--no-report",
                    "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        } finally {
            done.set(true);
            watcher.join();
        }
        assertThat(seen).anySatisfy(j -> assertThat(j).contains("\"lane\":\"chromium\"", "\"backend\":\"wasm\"", "\"phase\":\"timed\"", "\"now\":\"timed "));
        assertThat(locks.resolveSibling("m.duckdb.locks")).satisfiesAnyOf(p -> assertThat(p).doesNotExist(),
                p -> assertThat(Files.list(p).filter(f -> f.toString().endsWith(".progress")).count()).isZero());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        JsonNode wasm = null;
        for (JsonNode n : arr) {
            if (n.get("requested").asText().equals("wasm")) {
                wasm = n;
            }
        }
        assertThat(wasm).isNotNull();
        assertThat(wasm.get("status").asText()).as(String.valueOf(wasm.get("reason"))).isEqualTo("PASSED");
        assertThat(wasm.get("p50Ms").asDouble()).as("a slow case").isGreaterThan(300);
        // counts alone here: "k of N" (a least duration's loop says its rule instead, MinDurationsProgressTest)
        assertThat(r.err()).containsPattern("wasm \\(chromium@\\d+\\+ort-web@[0-9.]+\\): (warm-up \\d of 1|timed run \\d of 3)");
    }
}
