package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.suites.PublishedModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A published model as transformers.js users ship it: the sentence embedder all-MiniLM-L6-v2 (Maven Central, pinned) laid
 * out as one folder of two dtypes ({@code onnx/model.onnx} fp32, {@code onnx/model_quantized.onnx} q8), given as
 * {@code --model FOLDER} alone, run natively and in the WebNN-capable headless shell on wasm, WebGPU (both of
 * onnxruntime-web's engines) and WebNN; then {@code recommend --dtypes} names a variant per backend and target.
 */
class DtypeFolderCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void thePublishedEmbedderAsAFolderIsOneModelOfTwoDtypesJudgedAgainstFp32Native() throws Exception {
        assumeTrue(PublishedModels.installedJars().isPresent(), "the published Maven models are not copied (test-suites/published/maven)");
        Path folder = PublishedModels.embedderFolder(tmp);
        Path db = tmp.resolve("d.duckdb");
        long t0 = System.nanoTime();
        // ten timed runs where they are cheap (an interval for each speed claim), one on WebGPU's software adapter, settled
        // there (--sampling full) so that the nodes each engine put on the CPU EP are listed. WebGPU takes the first sentence
        // alone: SwiftShader runs the batch of four in 8-11 s a pass, and its first use, its runs and its bisection's replays
        // took 87 s of the test; each engine's q8 goes wrong or passes as it does at batch four (the defect is in the word
        // embeddings' dequantization, whatever the batch)
        List<JsonNode> rows = new ArrayList<>();
        for (List<String> part : List.of(List.of("cpu,wasm,webnn-cpu", "10", "auto", ""), List.of("webgpu", "1", "full", "1"))) {
            List<String> args = new ArrayList<>(List.of("run", "--model", folder.toString(), "--backends", part.get(0), "--sampling", part.get(2),
                    "--browser", "chromium-shell", "--json", "--warmups", "0", "--iterations", part.get(1), "--min-duration", "0",
                    "--warmup-duration", "0", "--no-report", "--db", db.toString(), "--out", tmp.resolve("out").toString(),
                    // both engines' q8 bisected, whatever the first one took (the default budget would defer the second)
                    "--bisect-budget", "600"));
            if (!part.get(3).isEmpty()) {
                args.addAll(List.of("--batch-sizes", part.get(3)));
            }
            CliRunner.Result r = CliRunner.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            new ObjectMapper().readTree(r.out()).forEach(rows::add);
        }
        System.out.printf("the folder's runs with bisection: %.1f s%n", (System.nanoTime() - t0) / 1e9);
        Map<String, JsonNode> by = rows.stream().collect(Collectors.toMap(n -> n.get("precision").asText() + "@"
                + n.get("requested").asText() + (n.path("ortWebEngine").asText("").equals("webgpu-ep") ? "+ep" : ""), n -> n));
        assertThat(by).containsOnlyKeys("fp32@cpu", "q8@cpu", "fp32@wasm", "q8@wasm", "fp32@webgpu", "q8@webgpu", "fp32@webgpu+ep",
                "q8@webgpu+ep", "fp32@webnn-cpu", "q8@webnn-cpu");
        for (JsonNode n : rows) {
            String what = n.get("precision").asText() + " on " + n.get("requested").asText();
            assertThat(n.get("model").asText()).as(what).isEqualTo("all-minilm-l6-v2");
            assertThat(n.get("suite").asText()).as(what + ": config.json's BertModel").isEqualTo("text");
            assertThat(n.get("inputSet").asText()).as(what).isEqualTo("sentences");
            assertThat(n.get("inputShapes").asText()).as(what).isEqualTo(n.get("requested").asText().equals("webgpu")
                    ? "input_ids=1x19;attention_mask=1x19;token_type_ids=1x19" : "input_ids=4x19;attention_mask=4x19;token_type_ids=4x19");
            if (n.get("precision").asText().equals("fp32")) {
                assertThat(n.get("status").asText()).as(what + ": " + n.get("reason")).isEqualTo("PASSED");
            } else {
                assertThat(n.get("fidelity").get("lossy").asBoolean()).as(what + ": the q8 file's designed loss").isTrue();
            }
        }
        assertThat(by.get("fp32@wasm").get("readout").get("minCosine").asDouble()).isGreaterThanOrEqualTo(0.9999);
        assertThat(by.get("q8@webgpu").get("modelSha256").asText()).isEqualTo(PublishedModels.MINILM_INT8.sha256());

        // the q8 file itself is lossy, by design: its own native run is its reference, not WRONG_OUTPUT (found when tried: it was)
        JsonNode cpu = by.get("q8@cpu");
        assertThat(cpu.get("status").asText()).as(cpu.get("reason").asText()).isEqualTo("PASSED");
        assertThat(cpu.get("reason").asText()).contains("the q8 variant's own native CPU run: its reference")
                .contains("lossy (the q8 variant's designed loss): pooled-embedding cosine 0.98");
        // wasm computes it as its own native run does: PASSED, lossy beside it
        JsonNode wasm = by.get("q8@wasm");
        assertThat(wasm.get("status").asText()).as(wasm.get("reason").asText()).isEqualTo("PASSED");
        assertThat(wasm.get("readout").get("minCosine").asDouble()).isBetween(0.98, 0.9999);
        assertThat(wasm.get("fidelity").get("closeness").asDouble()).isBetween(0.98, 0.9999);
        assertThat(wasm.get("variantParity").get("cosine").asDouble()).isGreaterThan(0.999);
        // JSEP's WebGPU computes it wrongly: far from its own native run, a defect with its bisection
        JsonNode gpu = by.get("q8@webgpu");
        assertThat(gpu.get("status").asText()).isEqualTo("WRONG_OUTPUT");
        assertThat(gpu.get("defect").asBoolean()).isTrue();
        assertThat(gpu.get("reason").asText()).startsWith("this backend gets the q8 variant wrong");
        assertThat(gpu.get("variantParity").get("cosine").asDouble()).isLessThan(0.5);
        assertThat(gpu.get("bisection").get("outcome").asText()).as(gpu.get("bisection").toString()).isEqualTo("FOUND");
        // the native EP: PASSED, or a defect its bisection names (rounding is none); found when tried: its q8 was closer to
        // fp32 than native CPU's q8, and nothing said why. Its integer nodes run on the CPU EP (wasm), unfused, the scales
        // and casts on the GPU: ONNX Runtime's own placement log names them per case
        JsonNode ep = by.get("q8@webgpu+ep");
        assertThat(ep.get("placement").get("offNodes")).as(ep.get("placement").toString())
                .anySatisfy(n -> assertThat(n.asText()).startsWith("MatMulInteger ("))
                .anySatisfy(n -> assertThat(n.asText()).startsWith("DynamicQuantizeLinear ("));
        assertThat(ep.get("placement").get("ranOn").asText()).startsWith("WebGpuExecutionProvider and CPUExecutionProvider (");
        if (ep.get("status").asText().equals("WRONG_OUTPUT")) {
            assertThat(ep.get("bisection").get("outcome").asText()).as(ep.get("reason").asText()).isIn("FOUND", "NOT_LOCALIZED");
        } else {
            assertThat(ep.get("status").asText()).as(ep.get("reason").asText()).isEqualTo("PASSED");
        }

        // within 0.98: the q8 file (pooled cosine 0.987 to fp32) qualifies where it is no defect
        CliRunner.Result rec = CliRunner.run("recommend", "--dtypes", "--within", "0.98", "--json", "--db", db.toString());
        assertThat(rec.exitCode()).as(rec.err()).isEqualTo(Main.OK);
        List<JsonNode> recs = new ArrayList<>();
        new ObjectMapper().readTree(rec.out()).forEach(recs::add);
        assertThat(recs).hasSize(5);
        // WebGPU here is SwiftShader: its figures never stand as a speed, so nothing is shipped on them; a defect is still said
        List<JsonNode> software = recs.stream().filter(n -> n.get("backend").asText().equals("webgpu")).toList();
        assertThat(software).hasSize(2).allSatisfy(n -> {
            assertThat(n.path("best").isNull() || n.path("best").isMissingNode()).as(n.toString()).isTrue();
            assertThat(n.get("skipped").findValuesAsText("why")).as(n.toString())
                    .allSatisfy(w -> assertThat(w).containsAnyOf("software adapter", "a defect here"));
        });
        JsonNode jsep = software.stream().filter(n -> !n.get("target").asText().contains("webgpu-ep")).findFirst().orElseThrow();
        assertThat(jsep.get("skipped").findValuesAsText("why")).anySatisfy(w -> assertThat(w).startsWith("a defect here (WRONG_OUTPUT"));
        assertThat(recs.stream().filter(n -> !software.contains(n))).hasSize(3).allSatisfy(n -> {
            String best = n.get("best").get("precision").asText();
            assertThat(best).as(n.get("text").asText()).isIn("fp32", "q8");
            JsonNode shipped = by.get(best + "@" + n.get("backend").asText() + (n.get("target").asText().contains("webgpu-ep") ? "+ep" : ""));
            assertThat(shipped.path("defect").asBoolean(false)).as("a variant with a defect is never shipped: " + n.get("text")).isFalse();
            assertThat(n.get("skipped")).hasSize(1);
            // a variant is shipped only where its speed-up's interval lies above 1
            if (!best.equals("fp32")) {
                assertThat(n.get("best").get("speedupInterval")).as(n.get("text").asText()).hasSize(2);
                assertThat(n.get("best").get("speedupInterval").get(0).asDouble()).as(n.get("text").asText()).isGreaterThan(1);
            } else {
                // fp32 kept: q8 was measured no faster (its interval reaches 1), or slower; which one a busy machine gives is
                // the measurement's, so the test holds the rule, not the outcome (found when tried: native CPU's first case,
                // 10 runs with no warm-up, read 1.13x [0.55-1.58] under load where it reads 2x quiet)
                assertThat(n.get("skipped").findValuesAsText("why")).as(n.get("text").asText())
                        .singleElement().satisfies(w -> assertThat(w).containsAnyOf("no faster than fp32", "slower than fp32"));
            }
        });
        // which targets ship q8 is the measurement's (native CPU's q8 read 1.7x faster on a quiet day, 1.13x [0.55-1.58] on a
        // busy one; wasm's q8 once 374 against fp32's 187 ms): the shipping path with its interval is held by
        // DtypeRecommenderTest on fixed figures
    }

    /**
     * An authored sentence encoder exported by the suites in every kind of variant they make (fp32, fp16, q8, q4 as
     * {@code MatMulNBits}): each runs natively and in Chromium on wasm and WebGPU; fp16 is UNSUPPORTED on SwiftShader's
     * adapter (no {@code shader-f16}, the adapter's features the evidence) and falls back, and the recommendation says it
     * skipped it and why.
     */
    @RequiresBrowser
    @Test
    void everyVariantKindTheSuitesExportRunsAndWhatABackendCannotRunIsSaidSkipped() throws Exception {
        Path folder = dev.accelbridge.suites.precision.Variants.exportFolder(dev.accelbridge.suites.WildModels.sentenceEncoder(tmp)
                .resolve("model.onnx"), tmp.resolve("encoder-dtypes"), "BertModel", List.of(dev.accelbridge.core.Precision.FP16,
                dev.accelbridge.core.Precision.Q8, dev.accelbridge.core.Precision.Q4));
        Path db = tmp.resolve("e.duckdb");
        CliRunner.Result r = CliRunner.run("run", "--model", folder.toString(), "--backends", "cpu,wasm,webgpu", "--browser", "chromium",
                "--engines", "jsep", "--no-bisect", "--json", "--warmups", "0", "--iterations", "2", "--min-duration", "0",
                "--warmup-duration", "0", "--no-report", "--db", db.toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        Map<String, JsonNode> by = new java.util.HashMap<>();
        new ObjectMapper().readTree(r.out()).forEach(n -> by.put(n.get("precision").asText() + "@" + n.get("requested").asText(), n));
        assertThat(by).hasSize(12);
        for (String p : List.of("fp32", "fp16", "q8", "q4")) {
            for (String b : List.of("cpu", "wasm")) {
                JsonNode n = by.get(p + "@" + b);
                assertThat(n.get("status").asText()).as(p + " on " + b + ": " + n.get("reason")).isIn("PASSED", "WRONG_OUTPUT");
                if (!(p + "@" + b).equals("fp32@cpu")) { // the reference itself reads nothing against itself
                    assertThat(n.path("readout").path("minCosine").asDouble()).as(p + " on " + b + ": " + n).isGreaterThan(0.95);
                }
            }
        }
        // where half precision ran: ONNX Runtime's CPU provider, natively and as wasm, computes the fp16 encoder in float32 in part
        for (String b : List.of("cpu", "wasm")) {
            JsonNode computed = by.get("fp16@" + b).get("computed");
            assertThat(computed.get("inFloat32").asBoolean()).as("fp16 on " + b + ": " + computed).isTrue();
            assertThat(computed.get("insertedCasts").asInt()).isPositive();
            assertThat(by.get("fp16@" + b).get("diagnostics").findValuesAsText("code")).contains("computed-in-float32");
        }
        assertThat(by.get("fp32@wasm").get("computed").isNull()).as("not a half-precision variant: not checked").isTrue();
        JsonNode fp16 = by.get("fp16@webgpu");
        assertThat(fp16.get("status").asText()).as("UNSUPPORTED on webgpu, the chain moves on").isEqualTo("FELL_BACK");
        assertThat(fp16.get("actual").asText()).isNotEqualTo("webgpu");
        assertThat(fp16.get("reason").asText()).contains("shader-f16");
        assertThat(by.get("q4@webgpu").get("status").asText()).as(by.get("q4@webgpu").get("reason").asText()).isIn("PASSED", "WRONG_OUTPUT");

        CliRunner.Result rec = CliRunner.run("recommend", "--dtypes", "--json", "--db", db.toString());
        List<JsonNode> recs = new ArrayList<>();
        new ObjectMapper().readTree(rec.out()).forEach(recs::add);
        assertThat(recs).hasSize(3);
        JsonNode gpu = recs.stream().filter(n -> n.get("backend").asText().equals("webgpu")).findFirst().orElseThrow();
        assertThat(gpu.get("skipped").findValuesAsText("why")).anySatisfy(w -> assertThat(w).startsWith("fell back to").contains("shader-f16"));
    }

    /**
     * A speech-to-text folder mixing variants: {@code encoder_model_quantized.onnx} (the authored encoder quantized by the
     * suites) with {@code decoder_model_merged_quantized.onnx} beside the fp32 pair, and a decoder at fp16 with no fp16
     * encoder: one generation model in three dtypes, natively and on wasm, each teacher-forced with fp32 native's tokens.
     */
    @RequiresBrowser
    @Test
    void aSpeechToTextFolderMixingEncoderAndDecoderVariantsRunsAsOneGenerationModel() throws Exception {
        Path export = dev.accelbridge.suites.WildModels.whisperExport(tmp);
        Path onnx = export.resolve("onnx");
        Path q8 = dev.accelbridge.suites.precision.Variants.exportFolder(onnx.resolve("encoder_model.onnx"), tmp.resolve("enc-q8"),
                "WhisperForConditionalGeneration", List.of(dev.accelbridge.core.Precision.Q8));
        java.nio.file.Files.copy(q8.resolve("onnx/model_quantized.onnx"), onnx.resolve("encoder_model_quantized.onnx"));
        // the merged decoder branches on its cache (an If), which the suites' quantizer leaves alone: shipped as it is
        java.nio.file.Files.copy(onnx.resolve("decoder_model_merged.onnx"), onnx.resolve("decoder_model_merged_quantized.onnx"));
        java.nio.file.Files.copy(onnx.resolve("decoder_model_merged.onnx"), onnx.resolve("decoder_model_merged_fp16.onnx"));
        CliRunner.Result r = CliRunner.run("run", "--model", export.toString(), "--backends", "cpu,wasm", "--browser", "chromium",
                "--no-bisect", "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0",
                "--no-report", "--db", tmp.resolve("s.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        assertThat(r.err()).contains("decoder_model_merged_fp16.onnx runs with encoder_model.onnx");
        Map<String, JsonNode> by = new java.util.HashMap<>();
        new ObjectMapper().readTree(r.out()).forEach(n -> by.put(n.get("precision").asText() + "@" + n.get("requested").asText(), n));
        assertThat(by).containsOnlyKeys("fp32@cpu", "fp32@wasm", "fp16@cpu", "fp16@wasm", "q8@cpu", "q8@wasm");
        for (JsonNode n : by.values()) {
            String what = n.get("precision").asText() + " on " + n.get("requested").asText() + ": " + n.get("reason");
            assertThat(n.get("model").asText()).as(what).isEqualTo("whisper-export");
            assertThat(n.get("scenario").asText()).as(what).startsWith("generate");
            assertThat(n.get("status").asText()).as(what).isIn("PASSED", "WRONG_OUTPUT");
        }
        assertThat(by.get("fp32@wasm").get("status").asText()).isEqualTo("PASSED");
        assertThat(by.get("q8@wasm").get("variantParity")).as("judged against its own native run too").isNotNull();
    }

    /**
     * A decoder as transformers.js ships a text-generation model: {@code onnx/model.onnx} and {@code onnx/model_q4.onnx}
     * (the suites' Llama-style decoder, its MatMuls quantized to 4 bits), {@code config.json} ({@code LlamaForCausalLM}) and
     * a {@code generation_config.json} whose {@code max_new_tokens} sets the generation: one model of two dtypes, the q4
     * variant teacher-forced with fp32 native's tokens, natively and on wasm.
     */
    @RequiresBrowser
    @Test
    void aDecoderFolderOfTwoDtypesGeneratesAsItsGenerationConfigSays() throws Exception {
        Path fp32 = java.nio.file.Files.createDirectories(tmp.resolve("decoder-fp32")).resolve("model.onnx");
        java.nio.file.Files.write(fp32, dev.accelbridge.suites.generation.LlamaDecoderModel.build("mine",
                new dev.accelbridge.suites.generation.LlamaDecoderModel.Config(300, 32, 1, 2, 1, 64, 128, 4.0, 0), 9).toBytes());
        Path folder = dev.accelbridge.suites.precision.Variants.exportFolder(fp32, tmp.resolve("tiny-llm"), "LlamaForCausalLM",
                List.of(dev.accelbridge.core.Precision.Q4));
        java.nio.file.Files.writeString(folder.resolve("generation_config.json"), "{\"max_new_tokens\": 6, \"eos_token_id\": 2}");
        CliRunner.Result r = CliRunner.run("run", "--model", folder.toString(), "--backends", "cpu,wasm", "--browser", "chromium",
                "--no-bisect", "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0",
                "--no-report", "--db", tmp.resolve("g.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        Map<String, JsonNode> by = new java.util.HashMap<>();
        new ObjectMapper().readTree(r.out()).forEach(n -> by.put(n.get("precision").asText() + "@" + n.get("requested").asText(), n));
        assertThat(by).containsOnlyKeys("fp32@cpu", "fp32@wasm", "q4@cpu", "q4@wasm");
        for (JsonNode n : by.values()) {
            String what = n.get("precision").asText() + " on " + n.get("requested").asText() + ": " + n.get("reason");
            assertThat(n.get("suite").asText()).as(what).isEqualTo("text-generation");
            assertThat(n.get("scenario").asText()).as(what).isEqualTo("generate p8 n6");
            assertThat(n.get("status").asText()).as(what).isIn("PASSED", "WRONG_OUTPUT");
        }
        assertThat(by.get("fp32@wasm").get("status").asText()).isEqualTo("PASSED");
        assertThat(by.get("q4@wasm").get("modelSha256").asText()).isNotEqualTo(by.get("fp32@wasm").get("modelSha256").asText());
        CliRunner.Result rec = CliRunner.run("recommend", "--dtypes", "--json", "--db", tmp.resolve("g.duckdb").toString());
        List<JsonNode> recs = new ArrayList<>();
        new ObjectMapper().readTree(rec.out()).forEach(recs::add);
        // a generation's users read its tokens: a variant ships only when its generations give fp32 native's tokens
        assertThat(recs).hasSize(2).allSatisfy(n -> {
            assertThat(n.get("best").get("closenessOf").asText()).as(n.get("text").asText()).isEqualTo("tokens");
            assertThat(n.get("best").get("closeness").asDouble()).as(n.get("text").asText()).isEqualTo(1.0);
        });
        JsonNode q4 = by.get("q4@wasm");
        if (!q4.get("decoding").get("tokensVerified").asBoolean()) { // its tokens left fp32's: said, never shipped
            assertThat(recs.get(1).get("skipped").findValuesAsText("why")).anySatisfy(w -> assertThat(w).startsWith("lossy: tokens of"));
        }
    }

    /** Variants whose weights are external data, each in its own file ({@code model_q4.onnx_data}): served and run, each. */
    @RequiresBrowser
    @Test
    void variantsWithExternalDataRunEachWithItsOwnData() throws Exception {
        Path ext = dev.accelbridge.suites.WildModels.externalWeights(java.nio.file.Files.createDirectories(tmp.resolve("src")));
        Path onnx = java.nio.file.Files.createDirectories(tmp.resolve("ext").resolve("onnx"));
        java.nio.file.Files.copy(ext.resolve("model.onnx"), onnx.resolve("model.onnx"));
        java.nio.file.Files.copy(ext.resolve("model.onnx_data"), onnx.resolve("model.onnx_data"));
        var proto = dev.accelbridge.suites.onnx.OnnxTensors.readModel(ext.resolve("model.onnx")).toBuilder();
        for (var t : proto.getGraphBuilder().getInitializerBuilderList()) {
            t.getExternalDataBuilderList().stream().filter(kv -> kv.getKey().equals("location")).forEach(kv -> kv.setValue("model_q4.onnx_data"));
        }
        java.nio.file.Files.write(onnx.resolve("model_q4.onnx"), proto.build().toByteArray());
        java.nio.file.Files.copy(ext.resolve("model.onnx_data"), onnx.resolve("model_q4.onnx_data"));
        CliRunner.Result r = CliRunner.run("run", "--model", onnx.getParent().toString(), "--backends", "cpu,wasm", "--browser", "chromium",
                "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--no-report",
                "--db", tmp.resolve("x.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        List<JsonNode> rows = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).forEach(rows::add);
        assertThat(rows).extracting(n -> n.get("precision").asText() + "@" + n.get("requested").asText() + " " + n.get("status").asText())
                .containsExactlyInAnyOrder("fp32@cpu PASSED", "q4@cpu PASSED", "fp32@wasm PASSED", "q4@wasm PASSED");
    }
}
