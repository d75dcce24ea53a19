package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.suites.generation.LlamaDecoderModel;
import dev.accelbridge.suites.onnx.GraphBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Generation through the real CLI: the text-generation suite natively, on wasm and on WebGPU in Chromium, its figures in
 * the JSON form, the table and the report; a user's decoder folder through {@code --model}; {@code --generate} on a model
 * that is no decoder, one row saying what it lacks.
 */
class GenerationCliTest {
    @TempDir
    Path tmp;

    @Nightly(guardedBy = "PlaywrightChromiumTest#theDecoderGeneratesTheNativeTokensOnWasmAndOnWebgpu") // docs/testing.md#the-nightly-tier
    @Test
    @RequiresBrowser
    void theDecoderGeneratesVerifiedTokensNativelyOnWasmAndOnWebgpuOnBothEnginesWithItsFiguresWherePeopleLook() throws Exception {
        Path db = tmp.resolve("m.duckdb");
        Path out = tmp.resolve("out");
        CliRunner.Result r = CliRunner.run("run", "--suites", "text-generation", "--backends", "cpu,wasm,webgpu", "--browser", "chromium",
                "--warmups", "1", "--iterations", "6", "--new-tokens", "16", "--min-duration", "0", "--warmup-duration", "0", "--json",
                "--db", db.toString(), "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        Map<String, JsonNode> generations = new HashMap<>();
        int steps = 0;
        for (JsonNode n : arr) {
            String model = n.get("model").asText();
            boolean f16OnSoftwareGpu = model.endsWith("-fp16") && n.get("requested").asText().equals("webgpu")
                    && String.valueOf(n.get("reason")).contains("float16");
            // an fp16 decoder on an adapter without shader-f16 falls back to wasm, saying so (a GPU with it passes)
            assertThat(n.get("status").asText()).as(n.get("caseKey").asText() + ": " + n.get("reason"))
                    .isEqualTo(f16OnSoftwareGpu ? "FELL_BACK" : "PASSED");
            if (n.get("scenario").asText().startsWith("generate")) {
                generations.put(where(n) + " " + model, n);
            } else {
                steps++;
                assertThat(n.get("inputSet").asText()).startsWith("step past");
            }
        }
        // WebGPU on JSEP and on the native WebGPU EP, the default where no engine is named
        assertThat(steps).as("six grid steps on each of four backends and engines").isEqualTo(24);
        // the plain decoder and its optimized forms (GroupQueryAttention, RotaryEmbedding, skip norms, int4 MatMulNBits)
        List<String> models = List.of("llama-tiny", "llama-tiny-gqa-int4", "llama-tiny-gqa-int4-fp16");
        assertThat(generations).hasSize(12);
        for (String backend : List.of("cpu", "wasm", "webgpu", "webgpu@webgpu-ep")) {
            models.forEach(m -> assertThat(generations).containsKey(backend + " " + m));
        }
        for (JsonNode g : generations.values()) {
            assertThat(g.get("scenario").asText()).isEqualTo("generate p8 n16");
            JsonNode d = g.get("decoding");
            // native CPU is the reference: its generations repeat its first; the page's are verified against it
            boolean reference = g.get("requested").asText().equals("cpu");
            assertThat(d.get("tokensVerified").asBoolean()).as(g.toString()).isEqualTo(!reference);
            assertThat(d.get("tokensChecked").asText()).as(g.toString()).isEqualTo(reference ? "own-first" : "reference");
            assertThat(d.get("ttftP50Ms").asDouble()).isPositive();
            assertThat(d.get("tokensPerSec").asDouble()).isPositive();
            int bytes = g.get("model").asText().endsWith("-fp16") ? 2 : 4;
            assertThat(d.get("kvCacheBytes").asLong()).isEqualTo(2L * 2 * 2 * 16 * 23 * bytes);
            if (g.path("softwareAdapter").asBoolean(false)) {
                // SwiftShader: the verdict's window, whatever -n says (its figures indicative, never ranked)
                assertThat(g.get("verdictWindow").asBoolean()).isTrue();
                assertThat(d.get("generations").asInt()).as("cold and three timed").isEqualTo(1 + dev.accelbridge.core.SamplingDepth.WINDOW_RUNS);
                assertThat(g.get("iterations").asInt()).isEqualTo(dev.accelbridge.core.SamplingDepth.WINDOW_RUNS);
                continue;
            }
            assertThat(d.get("generations").asInt()).as("cold, one warm-up, six timed").isEqualTo(8);
            assertThat(d.get("ttftCiMs")).as("six timed generations give the median an interval").hasSize(2);
            assertThat(d.get("tokensPerSecCi")).hasSize(2);
            assertThat(g.get("iterations").asInt()).isEqualTo(6);
        }
        Map<String, JsonNode> plain = new HashMap<>();
        generations.forEach((k, v) -> {
            if (k.endsWith(" llama-tiny")) {
                plain.put(k.substring(0, k.indexOf(' ')), v);
            }
        });
        assertThat(plain.get("wasm").get("parityAgainst").asText()).isEqualTo("native-cpu, teacher-forced logits");

        // the table, the report, compare
        CliRunner.Result table = CliRunner.run("report", "--db", db.toString(), "--out", out.toString());
        assertThat(table.exitCode()).as(table.err()).isEqualTo(Main.OK);
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("Generation (as MLPerf Client defines them").contains("text-generation/llama-tiny generate p8 n16")
                .contains("tokens/s vs native CPU").containsPattern("×[0-9.e-]+ \\[[0-9.e-]+, [0-9.e-]+]").contains("| verified 8/8 |").contains("| repeated 8/8 |");
        assertThat(Files.readString(out.resolve("report.html"))).contains("id=\"generation\"");
        // the same generation natively again: its table row, and compare's tokens/s between the two runs
        CliRunner.Result again = CliRunner.run("run", "--suites", "text-generation", "--backends", "cpu", "--warmups", "1",
                "--iterations", "6", "--new-tokens", "16", "--min-duration", "0", "--warmup-duration", "0", "--db", db.toString(),
                "--out", out.toString());
        assertThat(again.exitCode()).as(again.err()).isEqualTo(Main.OK);
        // the generation's figures stand on a line of their own under its row (the row fits 160 columns); the reference's
        // tokens are its own repeats, never "verified"
        assertThat(again.out()).containsPattern("llama-tiny generate p8 n16 [^\\n]*\\n +TTFT [0-9.]+ ms \\[[^]]+] · [0-9.]+ tokens/s \\[[^]]+] · tokens repeated 8/8");
        String first = arr.get(0).get("runId").asText();
        String second;
        try (var store = dev.accelbridge.reports.store.MatrixStore.openReadOnly(db)) {
            second = store.latestRun().orElseThrow();
        }
        CliRunner.Result cmp = CliRunner.run("compare", "--db", db.toString(), first, second);
        assertThat(cmp.exitCode()).as(cmp.err()).isEqualTo(Main.OK);
        assertThat(cmp.out()).containsPattern("tokens/s \\d+\\.\\d → \\d+\\.\\d \\(×[0-9.e-]+ \\[[0-9.e-]+, [0-9.e-]+]\\), TTFT");
    }

    @Test
    void aUsersDecoderFolderRunsAsAGenerationAndAModelThatIsNoneSaysWhatItLacks() throws Exception {
        Path folder = Files.createDirectories(tmp.resolve("my-decoder"));
        Files.write(folder.resolve("model.onnx"), LlamaDecoderModel.build("mine", new LlamaDecoderModel.Config(300, 32, 1, 2, 1, 64, 128, 4.0, 0), 9)
                .toBytes());
        CliRunner.Result r = CliRunner.run("run", "--model", folder.toString(), "--backends", "cpu", "--warmups", "0", "--iterations", "2",
                "--prompt-tokens", "5", "--new-tokens", "6", "--min-duration", "0", "--warmup-duration", "0", "--json",
                "--db", tmp.resolve("u.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode n = new ObjectMapper().readTree(r.out()).get(0);
        assertThat(n.get("suite").asText()).isEqualTo("text-generation");
        assertThat(n.get("scenario").asText()).isEqualTo("generate p5 n6");
        assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("PASSED");
        assertThat(n.get("decoding").get("tokensVerified").asBoolean()).as("the reference repeats its own first generation: nothing independent verifies it").isFalse();
        assertThat(n.get("decoding").get("tokensChecked").asText()).isEqualTo("own-first");

        // an encoder said to be a decoder: its row names what it lacks, and the run goes on
        Path enc = Files.createDirectories(tmp.resolve("encoder"));
        GraphBuilder g = new GraphBuilder("enc", 1);
        String ids = g.input("input_ids", DType.INT64, "batch", "sequence");
        g.opInto("Cast", "last_hidden_state", List.of(ids), GraphBuilder.attr("to", 1L));
        g.output("last_hidden_state", DType.FLOAT32, "batch", "sequence");
        Files.write(enc.resolve("model.onnx"), g.build("no cache").toByteArray());
        CliRunner.Result e = CliRunner.run("run", "--model", enc.toString(), "--generate", "--backends", "cpu", "--iterations", "1",
                "--json", "--db", tmp.resolve("e.duckdb").toString(), "--out", tmp.resolve("out2").toString());
        JsonNode row = new ObjectMapper().readTree(e.out()).get(0);
        assertThat(row.get("status").asText()).isEqualTo("FAILED");
        assertThat(row.get("reason").asText()).startsWith("feed: Model 'encoder' cannot be run as a decoder with a KV cache: it lacks "
                + "an output 'logits'; inputs 'past_key_values.N.key' / 'past_key_values.N.value' — export it with past_key_values");
    }

    /** The backend a row was requested on, with its engine where that is not JSEP ({@code webgpu@webgpu-ep}). */
    private static String where(JsonNode n) {
        String engine = n.path("ortWebEngine").asText("");
        return n.get("requested").asText() + (engine.isEmpty() || engine.equals("jsep") ? "" : "@" + engine);
    }
}
