package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.testing.RequiresBrowser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Session options as a dimension through the real CLI: {@code --runtime-option} sweeps outputs read back or left on the
 * GPU (WebGPU in Chromium) and the optimization level (both sides); each combination is stored as its own case where it
 * applies, once where it does not, and {@code compare --by runtimeOptions} pairs them. Graph capture runs a model whose
 * nodes all run on WebGPU and is refused, in the release's words, for one that is not. A value no option has is exit 2.
 */
class RuntimeOptionsCliTest {
    @TempDir
    Path tmp;

    @Test
    @RequiresBrowser
    void everyCombinationIsACaseWhereItAppliesAndCompareByPairsThem() throws Exception {
        Path db = tmp.resolve("m.duckdb");
        CliRunner.Result r = CliRunner.run("run", "--suites", "text", "--backends", "cpu,webgpu", "--browser", "chromium", "--engines", "jsep",
                "--runtime-option", "outputs=cpu,gpu-buffer", "--runtime-option", "optimization=disabled", "--iterations", "5",
                "--warmups", "1", "--min-duration", "0", "--warmup-duration", "0", "--json", "--db", db.toString(), "--no-report");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        List<String> seen = new ArrayList<>();
        for (JsonNode n : arr) {
            assertThat(n.get("status").asText()).as(n.get("caseKey").asText() + ": " + n.get("reason")).isEqualTo("PASSED");
            seen.add(n.get("requested").asText() + " " + n.get("runtimeOptions").asText());
        }
        // natively only the optimization level applies: one case, not two
        assertThat(seen).containsExactlyInAnyOrder("cpu optimization=disabled", "webgpu outputs=cpu;optimization=disabled",
                "webgpu outputs=gpu-buffer;optimization=disabled");

        CliRunner.Result cmp = CliRunner.run("compare", "--db", db.toString(), "--by", "runtimeOptions", "outputs=cpu;optimization=disabled",
                "outputs=gpu-buffer;optimization=disabled");
        assertThat(cmp.exitCode()).as(cmp.err()).isEqualTo(Main.OK);
        assertThat(cmp.out()).contains("text/bert-mini · webgpu").contains("1 cases on both sides, 0 statuses changed")
                .as("SwiftShader's figures are no speed: the row says so instead of a ratio").contains("not compared as speed");
        JsonNode json = new ObjectMapper().readTree(CliRunner.run("compare", "--db", db.toString(), "--by", "options",
                "optimization=disabled", "outputs=cpu;optimization=disabled", "--json").out());
        assertThat(json.get("rows")).as("the native case has no partner with outputs: a row of its own").hasSize(2);

        // graph capture: a model whose nodes all run on WebGPU is captured and replayed on GPU buffers, judged like any case;
        // one with nodes on the CPU EP is refused in onnxruntime-web's own words (and falls back along its chain)
        CliRunner.Result gc = CliRunner.run("run", "--suites", "text,vision", "--backends", "webgpu", "--browser", "chromium", "--engines", "jsep",
                "--runtime-option", "graph-capture=on", "--iterations", "3", "--warmups", "1", "--min-duration", "0",
                "--warmup-duration", "0", "--json", "--db", db.toString(), "--no-report");
        assertThat(gc.exitCode()).as(gc.err()).isEqualTo(Main.OK);
        java.util.Map<String, JsonNode> captured = new java.util.HashMap<>();
        new ObjectMapper().readTree(gc.out()).forEach(n -> captured.put(n.get("model").asText(), n));
        JsonNode conv = captured.get("convnet-small");
        assertThat(conv.get("runtimeOptions").asText()).isEqualTo("graph-capture=on");
        assertThat(conv.get("status").asText()).as(conv.toString()).isEqualTo("PASSED");
        assertThat(conv.get("actual").asText()).isEqualTo("webgpu");
        JsonNode bert = captured.get("bert-mini");
        assertThat(bert.get("status").asText()).isEqualTo("FELL_BACK");
        assertThat(bert.get("reason").asText()).contains("cannot use the graph capture feature as requested by the user");

        // native intra-op threads: a case per count natively (the page's wasm keeps the run's), crossed with the other sweeps
        // (found on the way: the batch and precision variants dropped the options, so the copies collapsed into one)
        CliRunner.Result threads = CliRunner.run("run", "--suites", "text", "--native", "--runtime-option", "intra-op-threads=1,2",
                "--threads", "2", "--batch-sizes", "1,2", "--precision", "fp32,fp16", "--iterations", "3", "--warmups", "0", "--min-duration", "0",
                "--warmup-duration", "0", "--json", "--db", db.toString(), "--no-report");
        assertThat(threads.exitCode()).as(threads.err()).isEqualTo(Main.OK);
        List<String> counts = new ArrayList<>();
        new ObjectMapper().readTree(threads.out()).forEach(n -> {
            counts.add(n.get("status").asText() + " " + n.get("precision").asText() + " b" + n.get("batchSize").asText() + " "
                    + n.get("runtimeOptions").asText());
            // the threads stored are the ones the session ran with, not the run's --threads
            assertThat(n.get("runtimeOptions").asText()).as(n.toString()).isEqualTo("intra-op-threads=" + n.get("threads").asText());
        });
        assertThat(counts).containsExactlyInAnyOrder("PASSED fp32 b1 intra-op-threads=1", "PASSED fp32 b1 intra-op-threads=2",
                "PASSED fp32 b2 intra-op-threads=1", "PASSED fp32 b2 intra-op-threads=2", "PASSED fp16 b1 intra-op-threads=1",
                "PASSED fp16 b1 intra-op-threads=2", "PASSED fp16 b2 intra-op-threads=1", "PASSED fp16 b2 intra-op-threads=2");

        CliRunner.Result bad = CliRunner.run("run", "--suites", "text", "--native", "--runtime-option", "outputs=tpu", "--db", db.toString());
        assertThat(bad.exitCode()).isEqualTo(Main.ERROR);
        assertThat(bad.err()).contains("outputs").contains("tpu").contains("auto, cpu, gpu-buffer");
        assertThat(bad.err().strip().lines().count()).isLessThanOrEqualTo(2);
    }
}
