package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Precision and batch size as dimensions, through the real CLI: the vision suite's fp16 and int8 variants, derived in
 * Java, at batch 1 and 2, natively and in headless Chromium on wasm and WebGPU (SwiftShader); then recommend and
 * predict on the store that run filled.
 */
@Nightly(guardedBy = "DtypeFolderCliTest") // docs/testing.md#the-nightly-tier
class PrecisionBatchCliTest {
    @TempDir
    Path tmp;

    private static JsonNode find(JsonNode arr, String requested, String precision, int batch) {
        for (JsonNode n : arr) {
            if (n.get("requested").asText().equals(requested) && n.get("precision").asText().equals(precision)
                    && n.get("batchSize").asInt() == batch) {
                return n;
            }
        }
        throw new AssertionError("no " + requested + " " + precision + " b" + batch + " in " + arr);
    }

    @RequiresBrowser
    @Test
    void variantsAndBatchesRunJudgedAgainstFp32ThenRecommendAndPredictReadTheStore() throws Exception {
        Path db = tmp.resolve("m.duckdb");
        Path out = tmp.resolve("out");
        CliRunner.Result r = CliRunner.run("run", "--suites", "vision", "--backends", "cpu,wasm,webgpu", "--browser", "chromium", "--engines", "jsep",
                "--precision", "fp32,fp16,int8", "--batch-sizes", "1,2", "--warmups", "0", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0", "--json",
                "--db", db.toString(), "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        assertThat(arr).hasSize(3 * 2 * 3);

        for (String p : List.of("fp16", "int8")) {
            for (int b : List.of(1, 2)) {
                JsonNode cpu = find(arr, "cpu", p, b);
                assertThat(cpu.get("status").asText()).as(cpu.toString()).isEqualTo("PASSED");
                assertThat(cpu.get("parityAgainst").asText()).isEqualTo("native-cpu fp32");
                assertThat(cpu.get("maxAbsErr").asDouble()).as("%s differs from fp32 by more than fp32 noise", p).isGreaterThan(1e-4);
                assertThat(cpu.get("toleranceBasis").asText()).contains("half precision or quantized");
                assertThat(cpu.get("inputShapes").asText()).isEqualTo("pixel_values=" + b + "x3x64x64");
                JsonNode wasm = find(arr, "wasm", p, b);
                assertThat(wasm.get("status").asText()).as(wasm.toString()).isEqualTo("PASSED");
                assertThat(wasm.get("variantParity").get("against").asText()).isEqualTo("native-cpu " + p);
                assertThat(wasm.get("itemsPerSec").asDouble()).isEqualTo(wasm.get("throughputPerSec").asDouble() * b,
                        org.assertj.core.data.Offset.offset(1e-6));
            }
        }
        JsonNode fp16Gpu = find(arr, "webgpu", "fp16", 1);
        JsonNode hop = fp16Gpu.get("fallbackPath").get(0);
        if (hop.toString().contains("shader-f16")) {
            // SwiftShader offers no shader-f16: the fp16 variant is UNSUPPORTED on WebGPU with the adapter's features
            assertThat(hop.toString()).contains("lacks the shader-f16 feature").contains("its features:");
            assertThat(fp16Gpu.get("status").asText()).isIn("FELL_BACK", "UNSUPPORTED");
        } else {
            assertThat(fp16Gpu.get("status").asText()).as(fp16Gpu.toString()).isEqualTo("PASSED");
        }
        assertThat(find(arr, "webgpu", "fp32", 2).get("status").asText()).isEqualTo("PASSED");
        assertThat(Files.readString(out.resolve("report.md"))).contains("## Batch scaling").contains("vision/convnet-small int8");

        CliRunner.Result rec = CliRunner.run("recommend", "--json", "--db", db.toString());
        assertThat(rec.exitCode()).as(rec.err()).isEqualTo(Main.OK);
        List<String> precisions = new ArrayList<>();
        new ObjectMapper().readTree(rec.out()).forEach(n -> precisions.add(n.get("precision").asText()));
        assertThat(precisions).contains("fp32", "fp16", "int8");

        long before;
        try (MatrixStore s = MatrixStore.openReadOnly(db)) {
            before = s.allResults().size();
        }
        CliRunner.Result pred = CliRunner.run("predict", "--json", "--model", "convnet-small", "--precision", "int8", "--batch", "2",
                "--backend", "webgpu", "--db", db.toString());
        assertThat(pred.exitCode()).as(pred.err()).isEqualTo(Main.OK);
        JsonNode p = new ObjectMapper().readTree(pred.out());
        assertThat(p.get("kind").asText()).isEqualTo("prediction");
        assertThat(p.get("predictedP50Ms").asDouble()).isPositive();
        assertThat(p.get("leaveOneOut").get("trials").asInt()).isPositive();
        try (MatrixStore s = MatrixStore.openReadOnly(db)) {
            assertThat(s.allResults()).as("a prediction is never stored").hasSize((int) before);
        }
    }
}
