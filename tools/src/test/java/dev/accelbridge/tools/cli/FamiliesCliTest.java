package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.testing.Nightly;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The families beyond single-input encoders, run as users run them, natively, on wasm and on WebGPU in Chromium, in one
 * run: the two-tower (CLIP-style) model judged by its image-text similarity matrix and the ranking of captions per image,
 * each tower timed on its own beside the pair; and speech-to-text, a Whisper-style encoder and merged decoder transcribing
 * a generated waveform, its tokens verified against native with the encoder's time apart.
 */
@Nightly(guardedBy = "PlaywrightChromiumTest#allThreeSuitesRunOnTheSoftwareWebgpuAdapterAndMatch") // docs/testing.md#the-nightly-tier
class FamiliesCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void twoTowerRankingsAndSpeechToTextTokensMatchNativeOnWasmAndWebGpu() throws Exception {
        CliRunner.Result r = CliRunner.run("run", "--suites", "multimodal,audio", "--backends", "cpu,wasm,webgpu", "--browser", "chromium", "--engines", "jsep",
                "--json", "--warmups", "0", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0", "--no-report",
                "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        List<JsonNode> results = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).forEach(results::add);
        speechToText(results.stream().filter(n -> n.get("model").asText().equals("whisper-mini")).toList());
        List<JsonNode> all = results.stream().filter(n -> n.get("suite").asText().equals("multimodal")).toList();
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

    /**
     * Speech-to-text: the same tokens natively and on wasm in every generation, the encoder timed apart and inside the TTFT.
     * On WebGPU (SwiftShader, onnxruntime-web 1.30.0) the merged decoder's cached steps are wrong: recorded as the verdict
     * naming the first bad step, and its bisection that places the divergence in the If node, its branch inlined matching.
     */
    private static void speechToText(List<JsonNode> stt) {
        assertThat(stt).extracting(n -> n.get("requested").asText()).containsExactlyInAnyOrder("cpu", "wasm", "webgpu");
        for (JsonNode n : stt) {
            String what = n.get("model").asText() + " on " + n.get("requested").asText() + ": " + n.get("reason");
            assertThat(n.get("suite").asText()).isEqualTo("audio");
            assertThat(n.get("scenario").asText()).isEqualTo("generate p4 n12");
            assertThat(n.get("inputShapes").asText()).isEqualTo("input_features=1x80x100;input_ids=1x4");
            JsonNode d = n.get("decoding");
            assertThat(d.get("encoderP50Ms").asDouble()).as(what).isPositive().isLessThan(d.get("ttftP50Ms").asDouble());
            assertThat(d.get("tokensPerSec").asDouble()).as(what).isPositive();
            if (n.get("requested").asText().equals("webgpu")) {
                assertThat(n.get("status").asText()).as(what).isEqualTo("WRONG_OUTPUT");
                assertThat(n.get("reason").asText()).as(what).contains("teacher-forced logits left the tolerance at token ");
                assertThat(n.get("bisection").get("note").asText()).as(what).contains("the divergence lives in the If node 'optimum::if'");
                continue;
            }
            assertThat(n.get("status").asText()).as(what).isEqualTo("PASSED");
            // the native reference repeats its own first generation, which verifies nothing; wasm is verified against it
            boolean reference = n.get("requested").asText().equals("cpu");
            assertThat(d.get("tokensChecked").asText()).as(what).isEqualTo(reference ? "own-first" : "reference");
            assertThat(d.get("tokensVerified").asBoolean()).as(what).isEqualTo(!reference);
            assertThat(d.get("verified").asInt()).as(what).isEqualTo(d.get("generations").asInt()).isEqualTo(3); // the cold one and two timed
            // the encoder's session is made and timed inside the load on both sides, and in the page its placement is checked
            assertThat(n.get("loadMs").asDouble()).as(what).isPositive();
            if (!reference) {
                assertThat(n.get("placement").get("basis").asText()).as(what).contains("the encoder: ");
            }
        }
    }
}
