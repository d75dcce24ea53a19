package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.suites.OddModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever a model carries, every model gets a verdict: a generated corpus of odd models (zero-size data, rank 0, empty
 * graphs, non-tensor types, control flow, old and new opsets, a huge declared dimension, files that are not ONNX) run as
 * one folder, natively and on wasm in Chromium, gives exactly one result per model and backend, each failure naming its
 * stage and model file. Shipped test data is fed as shipped and judged against its shipped expected outputs; a batch
 * sweep says when it replaced them.
 */
class OddModelsCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void everyOddModelGetsOneVerdictPerBackendNativelyAndInChromium() throws Exception {
        Path corpus = tmp.resolve("odd");
        List<String> names = OddModels.writeAll(corpus);
        assertThat(names).hasSizeGreaterThanOrEqualTo(30);
        CliRunner.Result r = CliRunner.run("run", "--model", corpus.toString(), "--backends", "wasm,cpu", "--browser", "chromium",
                "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--no-report",
                "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        Map<String, JsonNode> by = new TreeMap<>();
        arr.forEach(n -> by.put(n.get("model").asText() + "/" + n.get("requested").asText(), n));
        assertThat(arr.size()).as("one result per model and backend").isEqualTo(2 * names.size());
        for (String m : names) {
            assertThat(by).containsKeys(m + "/cpu", m + "/wasm");
        }
        // zero-size data is legal ONNX data: fed as shipped, judged against the shipped expected outputs
        for (String b : List.of("cpu", "wasm")) {
            assertThat(by.get("zero-size-axes/" + b).get("status").asText()).isEqualTo("PASSED");
            assertThat(by.get("zero-size-axes/" + b).get("inputShapes").asText()).isEqualTo("data=3x2;axes=0");
            assertThat(by.get("zero-size-axes/" + b).get("parityAgainst").asText()).isEqualTo("expected-outputs");
            assertThat(by.get("zero-size-input/" + b).get("status").asText()).isEqualTo("PASSED");
        }
        // models that run everywhere do so on both sides (outputs that are initializers and inputs included)
        for (String m : List.of("zero-size-output", "rank0-everything", "empty-graph", "output-is-input", "constant-only",
                "sparse-initializer", "external-initializer", "if-branches", "loop-body", "scan-body", "opset-7", "opset-newest",
                "bool-io", "int8-io", "uint8-io", "int32-io", "float64-io", "odd-names", "many-outputs", "unused-input",
                "omitted-optional-input", "nan-outputs")) {
            assertThat(by.get(m + "/wasm").get("status").asText()).as(m + ": " + by.get(m + "/wasm").get("reason")).isEqualTo("PASSED");
            assertThat(by.get(m + "/cpu").get("status").asText()).as(m + ": " + by.get(m + "/cpu").get("reason")).isEqualTo("PASSED");
        }
        // the others say what stopped them, the stage first, with the model file
        List<String> problems = new ArrayList<>();
        by.forEach((k, n) -> {
            if (!n.get("status").asText().equals("PASSED")) {
                problems.add(k);
                String reason = n.get("reason").asText();
                assertThat(reason).as(k).containsPattern("(^|: )(feed|load|run|compare): ");
                assertThat(reason).as(k).contains(corpus.resolve(k.substring(0, k.indexOf('/'))).toString());
            }
        });
        assertThat(problems).hasSize(2 * 10);
        assertThat(by.get("huge-declared-dim/wasm").get("reason").asText()).startsWith("feed: ").contains("4398046511104 bytes");
        assertThat(by.get("empty-file/cpu").get("reason").asText()).startsWith("load: ");
        assertThat(by.get("sequence-output/wasm").get("status").asText()).isEqualTo("UNSUPPORTED");
        assertThat(by.get("unknown-domain/wasm").get("status").asText()).isEqualTo("UNSUPPORTED");
        assertThat(by.get("duplicate-names/wasm").get("reason").asText()).contains("load: ").contains("Duplicate definition");
    }

    @Test
    void shippedDataIsFedAsShippedAndABatchSweepSaysWhenItReplacedTheShippedReference() throws Exception {
        Path zoo = tmp.resolve("zoo");
        OddModels.offReference(zoo);
        OddModels.zeroSizeAxes(zoo);
        CliRunner.Result r = CliRunner.run("run", "--native", "--model", zoo.toString(), "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0",
                "--no-report", "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode off = find(new ObjectMapper().readTree(r.out()), "off-reference");
        // the user's own reference is used: the shipped [3, 4] input, its expected outputs (deliberately 0.5 off)
        assertThat(off.get("inputShapes").asText()).isEqualTo("X=3x4");
        assertThat(off.get("batchSize").asInt()).isEqualTo(3);
        assertThat(off.get("status").asText()).isEqualTo("WRONG_OUTPUT");
        assertThat(off.get("parityAgainst").asText()).isEqualTo("expected-outputs");
        assertThat(off.get("maxAbsErr").asDouble()).isEqualTo(0.5);

        // a sweep resizes (a zero-size input is fed as it is, not resized) and says it replaced the shipped outputs
        r = CliRunner.run("run", "--native", "--model", zoo.toString(), "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--batch-sizes", "1,3",
                "--no-report", "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode all = new ObjectMapper().readTree(r.out());
        List<JsonNode> offs = new ArrayList<>();
        all.forEach(n -> {
            if (n.get("model").asText().equals("off-reference")) {
                offs.add(n);
            }
        });
        assertThat(offs).hasSize(2);
        JsonNode one = offs.stream().filter(n -> n.get("batchSize").asInt() == 1).findFirst().orElseThrow();
        // the native CPU row is the reference itself: its warnings say what it replaced
        assertThat(one.get("status").asText()).isEqualTo("PASSED");
        assertThat(one.get("warnings").get(0).asText()).startsWith("batch 1 replaced the expected outputs shipped for batch 3");
        JsonNode three = offs.stream().filter(n -> n.get("batchSize").asInt() == 3).findFirst().orElseThrow();
        assertThat(three.get("parityAgainst").asText()).isEqualTo("expected-outputs");
        assertThat(three.get("status").asText()).isEqualTo("WRONG_OUTPUT");
        assertThat(find(all, "zero-size-axes").get("status").asText()).isEqualTo("PASSED");
    }

    private static JsonNode find(JsonNode arr, String model) {
        for (JsonNode n : arr) {
            if (n.get("model").asText().equals(model)) {
                return n;
            }
        }
        throw new AssertionError("no result for " + model + " in " + arr);
    }
}
