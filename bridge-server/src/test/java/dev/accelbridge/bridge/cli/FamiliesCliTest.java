package dev.accelbridge.bridge.cli;

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
 * The families beyond single-input encoders, run as users run them, natively, on wasm and on WebGPU in Chromium: the
 * two-tower (CLIP-style) model judged by its image-text similarity matrix and the ranking of captions per image, each
 * tower timed on its own beside the pair.
 */
class FamiliesCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void theTwoTowerModelsSimilarityMatrixAndRankingsMatchNativeOnWasmAndWebGpu() throws Exception {
        CliRunner.Result r = CliRunner.run("run", "--suites", "multimodal", "--backends", "cpu,wasm,webgpu", "--browser", "chromium",
                "--json", "--warmups", "0", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0", "--no-report",
                "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        List<JsonNode> all = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).forEach(all::add);
        assertThat(all).extracting(n -> n.get("model").asText() + "@" + n.get("requested").asText()).containsExactlyInAnyOrder(
                "clip-mini@cpu", "clip-mini@wasm", "clip-mini@webgpu", "clip-mini-vision@cpu", "clip-mini-vision@wasm",
                "clip-mini-vision@webgpu", "clip-mini-text@cpu", "clip-mini-text@wasm", "clip-mini-text@webgpu");
        for (JsonNode n : all) {
            String what = n.get("model").asText() + " on " + n.get("requested").asText() + ": " + n.get("reason");
            assertThat(n.get("suite").asText()).isEqualTo("multimodal");
            assertThat(n.get("status").asText()).as(what).isEqualTo("PASSED");
            assertThat(n.get("p50Ms").asDouble()).as(what).isPositive();
            if (n.get("model").asText().equals("clip-mini")) {
                // both batches kept: two images ranked against three captions
                assertThat(n.get("inputShapes").asText()).isEqualTo("pixel_values=2x3x32x32;input_ids=3x16;attention_mask=3x16");
                if (!n.get("requested").asText().equals("cpu")) {
                    JsonNode readout = n.get("readout");
                    assertThat(readout.get("kind").asText()).isEqualTo("similarity");
                    assertThat(readout.get("items").asInt()).isEqualTo(2);
                    assertThat(readout.get("agree").asInt()).as(what).isEqualTo(2);
                    assertThat(readout.get("minCosine").asDouble()).as(what).isGreaterThanOrEqualTo(0.9999);
                }
            } else {
                assertThat(n.get("readout").isNull()).as(what).isTrue();
            }
        }
    }
}
