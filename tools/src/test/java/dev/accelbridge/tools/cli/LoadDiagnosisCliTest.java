package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.suites.HalfPrecisionModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Found when tried: a decomposed LayerNorm converted to fp16 by Accelbridge's own converter failed to load natively with
 * the default optimization, and the run said only that. Through the real CLI its row now names the level that loads it,
 * the optimizer, and a single-graph repro written under {@code --out DIR/repro/} that fails alone; on wasm the same,
 * with the run at the level that loads held to native CPU's (it PASSES); the same model with
 * {@code --runtime-option optimization=disabled} PASSES, as the fix says.
 */
@dev.accelbridge.browser.testing.RequiresBrowser
class LoadDiagnosisCliTest {
    @TempDir
    Path tmp;

    @Test
    void aLoadTheOptimizerBreaksGetsItsLevelItsOptimizerAndARepro() throws Exception {
        Path models = Files.createDirectories(tmp.resolve("models"));
        Files.copy(HalfPrecisionModels.layerNormFp16(tmp), models.resolve("ln_fp16.onnx"));
        Path out = tmp.resolve("out");
        CliRunner.Result r = CliRunner.run("run", "--model", models.toString(), "--backends", "cpu,wasm", "--browser", "chromium",
                "--iterations", "2", "--warmups", "0", "--min-duration", "0", "--warmup-duration", "0", "--json",
                "--db", tmp.resolve("m.duckdb").toString(), "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isIn(Main.OK, Main.POLICY_FAILED);
        java.util.Map<String, JsonNode> by = new java.util.HashMap<>();
        new ObjectMapper().readTree(r.out()).forEach(n -> by.put(n.get("requested").asText(), n));
        // in the page: the same diagnosis in onnxruntime-web's words, and the run at the level that loads held to native CPU's
        JsonNode page = by.get("wasm");
        assertThat(page.get("status").asText()).isEqualTo("FAILED");
        assertThat(page.get("reason").asText()).contains("loads with optimization=disabled: LayerNormFusion", "onnxruntime-web",
                "at optimization=disabled it loads and PASSES (max abs err", "against native-cpu at optimization=disabled");
        // and kept on the row as a value, beside the sentence
        assertThat(page.get("load").get("runtime").asText()).startsWith("onnxruntime-web");
        assertThat(page.get("load").get("loadsAt").asText()).isEqualTo("disabled");
        JsonNode row = by.get("cpu");
        assertThat(row.get("status").asText()).isEqualTo("FAILED");
        String reason = row.get("reason").asText();
        assertThat(row.get("load").get("optimizer").asText()).isEqualTo("LayerNormFusion");
        assertThat(row.get("load").get("failsAt")).extracting(JsonNode::asText).containsExactly("all", "extended", "basic");
        assertThat(reason).contains("fails to load with optimization=all, extended, basic and loads with optimization=disabled",
                "LayerNormFusion (the optimizer the rejected node's name gives)", "--runtime-option optimization=disabled");
        assertThat(reason).as("natively the run at the level that loads is the reference itself")
                .contains("at optimization=disabled it loads and runs (native CPU is the reference itself");
        Matcher m = Pattern.compile("a single-graph repro \\((\\d+) nodes\\) fails alone: (\\S+)").matcher(reason);
        assertThat(m.find()).as(reason).isTrue();
        Path repro = Path.of(m.group(2));
        assertThat(repro).startsWith(out);
        assertThat(repro.resolve("model.onnx")).isRegularFile();
        assertThat(Files.readString(repro.resolve("README.md"))).contains("LayerNormFusion", "optimization=disabled");

        // the repro alone, run as a model of its own, fails to load the same way; and the fix works on the model
        CliRunner.Result alone = CliRunner.run("run", "--model", repro.toString(), "--native", "--iterations", "2", "--warmups", "0",
                "--min-duration", "0", "--warmup-duration", "0", "--json", "--db", tmp.resolve("r.duckdb").toString(),
                "--out", tmp.resolve("alone").toString());
        assertThat(new ObjectMapper().readTree(alone.out()).get(0).get("reason").asText()).contains("LayerNormFusion");
        CliRunner.Result fixed = CliRunner.run("run", "--model", models.toString(), "--native", "--runtime-option", "optimization=disabled",
                "--iterations", "2", "--warmups", "0", "--min-duration", "0", "--warmup-duration", "0", "--json",
                "--db", tmp.resolve("f.duckdb").toString(), "--out", tmp.resolve("fixed").toString());
        assertThat(new ObjectMapper().readTree(fixed.out()).get(0).get("status").asText()).isEqualTo("PASSED");
    }
}
