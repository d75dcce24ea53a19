package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.suites.WildModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Users' own models through the real CLI: models shaped like published ones (symbolic dims, a scalar, a state, ids,
 * a mask) run natively and in Chromium with --dim/--input; a folder of twenty models where three are broken gives
 * seventeen results and three rows naming the problem; one cause gets one status on every side.
 */
class UserModelsCliTest {
    @TempDir
    Path tmp;

    private static final List<String> OPS = List.of("Relu", "Sigmoid", "Tanh", "Abs", "Neg", "Exp", "Floor", "Ceil", "Sin", "Cos",
            "Erf", "Sign", "Round", "Identity", "Softplus", "Softsign", "HardSwish");

    /**
     * Model folders written as an attacker would (a tokenizer that aborted the JVM, sizes that exhausted the heap, a prompt
     * of 10^6 forced ids that ended the run with exit 2) beside a good model in one run: exit 0, the good one PASSED, each bad
     * one its own row naming the file and the key.
     */
    @Test
    void hostileModelFoldersBesideAGoodOneAreEachTheirOwnRowAndTheRunGoesOn() throws Exception {
        Path zoo = dev.accelbridge.suites.HostileFoldersTest.hostileZoo(tmp.resolve("zoo"));
        CliRunner.Result r = CliRunner.run("run", "--native", "--model", zoo.toString(), "--json", "--warmups", "0", "--iterations", "2",
                "--min-duration", "0", "--warmup-duration", "0", "--no-report", "--db", tmp.resolve("m.duckdb").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        List<JsonNode> rows = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).forEach(rows::add);
        assertThat(rows).filteredOn(n -> n.get("status").asText().equals("PASSED")).extracting(n -> n.get("model").asText())
                .containsExactly("op-relu");
        dev.accelbridge.suites.HostileFoldersTest.EXPECTED.forEach((folder, fileAndKey) -> assertThat(rows).as(folder)
                .anySatisfy(n -> {
                    assertThat(n.get("status").asText()).isIn("FAILED", "UNSUPPORTED");
                    assertThat(n.get("reason").asText()).contains(zoo.resolve(folder).toString(), fileAndKey.get(0), fileAndKey.get(1))
                            .doesNotContain("\n");
                }));
    }

    @Test
    void aFolderOfTwentyOneModelsWithThreeBrokenRunsTheEighteenAndSaysWhatIsWrongWithTheThree() throws Exception {
        Path zoo = tmp.resolve("zoo");
        OPS.forEach(op -> WildModels.unary(zoo, op));
        WildModels.corrupt(zoo);
        WildModels.wrongReference(zoo);
        WildModels.stringInput(zoo);
        WildModels.whisperExport(zoo); // a speech-to-text export: one generation of its encoder and merged decoder
        Path out = tmp.resolve("out");
        CliRunner.Result r = CliRunner.run("run", "--native", "--model", zoo.toString(), "--json", "--warmups", "0", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0",
                "--db", tmp.resolve("m.duckdb").toString(), "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        Map<String, JsonNode> byModel = new TreeMap<>();
        arr.forEach(n -> byModel.put(n.get("model").asText(), n));
        assertThat(byModel).hasSize(21);
        List<String> passed = new ArrayList<>();
        byModel.forEach((m, n) -> {
            if (n.get("status").asText().equals("PASSED")) {
                passed.add(m);
            }
        });
        assertThat(passed).hasSize(18);
        JsonNode stt = byModel.get("whisper-export");
        assertThat(stt.get("scenario").asText()).isEqualTo("generate p4 n32");
        assertThat(stt.get("inputShapes").asText()).isEqualTo("input_features=1x80x100;input_ids=1x4");
        assertThat(stt.get("decoding").get("tokensVerified").asBoolean()).as("the reference repeats its own first generation: nothing independent verifies it").isFalse();
        assertThat(stt.get("decoding").get("tokensChecked").asText()).isEqualTo("own-first");
        assertThat(stt.get("decoding").get("encoderP50Ms").asDouble()).isPositive();
        assertThat(byModel.get("truncated").get("status").asText()).isEqualTo("FAILED");
        assertThat(byModel.get("truncated").get("reason").asText()).contains("truncated").contains("model.onnx");
        assertThat(byModel.get("wrong-reference").get("status").asText()).isEqualTo("FAILED");
        assertThat(byModel.get("wrong-reference").get("reason").asText()).contains("has 7 elements");
        assertThat(byModel.get("string-input").get("status").asText()).isEqualTo("UNSUPPORTED");
        assertThat(byModel.get("string-input").get("reason").asText()).contains("STRING");
        assertThat(byModel.get("op-relu").get("inputShapes").asText()).isEqualTo("x=1x6");
        // single-op models: the report's conformance view, op by op
        String md = java.nio.file.Files.readString(out.resolve("report.md"));
        assertThat(md).contains("## Conformance by op (single-op models)", "| Relu | 1 PASSED |", "| HardSwish | 1 PASSED |");
        JsonNode conf = new ObjectMapper().readTree(out.resolve("matrix.json").toFile()).get("conformance");
        // the column names the native lane's ONNX Runtime (a lane's version is part of its identity)
        String cpuColumn = "cpu [native · ort " + dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider.environment().ortVersion() + "]";
        assertThat(conf.get("Sigmoid").get(cpuColumn).get("PASSED").asInt()).as("%s", conf.get("Sigmoid")).isEqualTo(1);
    }

    @RequiresBrowser
    @Test
    void realWorldShapedModelsRunNativelyAndInChromiumWithDimsAndInputs() throws Exception {
        Path wild = tmp.resolve("wild");
        WildModels.dynamicVision(wild);
        WildModels.vadLike(wild);
        WildModels.textIds(wild);
        WildModels.externalWeights(wild);
        WildModels.optimumVision(wild);
        WildModels.optimumWhisper(wild);
        WildModels.optimumWav2vec(wild);
        float[] state = new float[32];
        for (int i = 0; i < state.length; i++) {
            state[i] = i / 64f;
        }
        Path npy = WildModels.npy(tmp.resolve("state0.npy"), new long[]{2, 1, 16}, state);
        CliRunner.Result r = CliRunner.run("run", "--model", wild.toString(), "--backends", "cpu,wasm,webgpu", "--browser", "chromium", "--engines", "jsep",
                "--dim", "height=16", "--dim", "width=16", "--dim", "samples=256", "--shape", "input_ids=1x8",
                "--input", "sr=16000", "--input", "state=" + npy,
                "--dim", "sequence_length=4000", "--json", "--warmups", "0", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0", "--db", tmp.resolve("m.duckdb").toString(),
                "--no-report");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        assertThat(arr).hasSize(21);
        for (JsonNode n : arr) {
            String what = n.get("model").asText() + " on " + n.get("requested").asText() + ": " + n.get("reason").asText();
            assertThat(n.get("status").asText()).as(what).isEqualTo("PASSED");
        }
        JsonNode vad = find(arr, "vad", "wasm");
        assertThat(vad.get("inputShapes").asText()).isEqualTo("input=1x256;sr=;state=2x1x16");
        assertThat(vad.get("inputSet").asText()).startsWith("given-");
        assertThat(find(arr, "vad", "cpu").get("inputSet").asText()).as("the same given bytes on every side")
                .isEqualTo(vad.get("inputSet").asText());
        assertThat(find(arr, "ocr-det", "webgpu").get("inputShapes").asText()).isEqualTo("x=1x3x16x16");
        assertThat(find(arr, "text-ids", "cpu").get("inputShapes").asText()).isEqualTo("input_ids=1x8;attention_mask=1x8");
        // Optimum exports fed by their preprocessor_config.json (--dim height/width wins over the config's 32)
        assertThat(find(arr, "optimum-vision", "wasm").get("inputShapes").asText()).isEqualTo("pixel_values=1x3x16x16");
        assertThat(find(arr, "optimum-whisper", "webgpu").get("inputShapes").asText()).isEqualTo("input_features=1x80x300");
        assertThat(find(arr, "optimum-wav2vec", "cpu").get("inputSet").asText()).isEqualTo("preprocessed-audio");
        // weights in model.onnx_data beside the model: loaded natively and served to the page
        assertThat(find(arr, "external-weights", "wasm").get("maxAbsErr").asDouble()).isLessThan(1e-4);
    }

    @RequiresBrowser
    @Test
    void fp16AndInt8ModelsRunAndAreJudgedByTheirPrecisionsTolerance() throws Exception {
        Path dir = tmp.resolve("precisions");
        WildModels.fp16Weights(dir);
        WildModels.int8Qdq(dir);
        CliRunner.Result r = CliRunner.run("run", "--model", dir.toString(), "--backends", "cpu,wasm", "--browser", "chromium", "--json",
                "--warmups", "0", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0", "--db", tmp.resolve("m.duckdb").toString(), "--no-report");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        assertThat(arr).hasSize(4);
        for (JsonNode n : arr) {
            String what = n.get("model").asText() + " on " + n.get("requested").asText() + ": " + n.get("reason").asText();
            assertThat(n.get("status").asText()).as(what).isEqualTo("PASSED");
            assertThat(n.get("precision").asText()).isEqualTo(n.get("model").asText().startsWith("fp16") ? "fp16" : "int8");
            if (n.get("requested").asText().equals("wasm")) {
                assertThat(n.get("toleranceBasis").asText()).contains("half precision or quantized");
            }
        }
    }

    /** Found when tried: an op ONNX Runtime does not implement was FAILED natively but UNSUPPORTED in the browser. */
    @RequiresBrowser
    @Test
    void anOpNoRuntimeImplementsIsUnsupportedOnEverySide() throws Exception {
        Path dir = tmp.resolve("custom");
        WildModels.customOp(dir);
        CliRunner.Result r = CliRunner.run("run", "--model", dir.toString(), "--backends", "cpu,wasm", "--browser", "chromium", "--json",
                "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--db", tmp.resolve("m.duckdb").toString(), "--no-report", "--chain", "wasm");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        assertThat(arr).hasSize(2);
        for (JsonNode n : arr) {
            assertThat(n.get("status").asText()).as(n.get("requested").asText() + ": " + n.get("reason").asText()).isEqualTo("UNSUPPORTED");
            assertThat(n.get("reason").asText()).containsIgnoringCase("Frobnicate");
        }
    }

    @Test
    void inputFlagsThatFitNoModelAreBadInput() {
        Path wild = tmp.resolve("wild");
        WildModels.vadLike(wild);
        CliRunner.Result typo = CliRunner.run("run", "--native", "--model", wild.toString(), "--input", "sample_rate=16000",
                "--db", tmp.resolve("m.duckdb").toString(), "--no-report");
        assertThat(typo.exitCode()).isEqualTo(Main.ERROR);
        assertThat(typo.err()).contains("sample_rate").contains("names no input").contains("sr");
        CliRunner.Result dim = CliRunner.run("run", "--native", "--model", wild.toString(), "--dim", "samples=0", "--no-report",
                "--db", tmp.resolve("m.duckdb").toString());
        assertThat(dim.exitCode()).isEqualTo(Main.ERROR);
        assertThat(dim.err()).contains("--dim samples=0");
        CliRunner.Result file = CliRunner.run("run", "--native", "--model", wild.toString(), "--input", "state=missing.npy", "--no-report",
                "--db", tmp.resolve("m.duckdb").toString());
        assertThat(file.exitCode()).isEqualTo(Main.ERROR);
        assertThat(file.err()).contains("missing.npy").contains("neither a number nor an existing file");
    }

    private static JsonNode find(JsonNode arr, String model, String requested) {
        for (JsonNode n : arr) {
            if (n.get("model").asText().equals(model) && n.get("requested").asText().equals(requested)) {
                return n;
            }
        }
        throw new AssertionError("no " + model + " on " + requested);
    }
}
