package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.suites.OddModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any output size: a model with 200 MB of inputs and 400 MB of outputs runs natively and on wasm in Chromium and PASSES,
 * its tensors crossing the bridge in chunks (no frame holds a whole tensor, so the 64 MiB frame limit does not apply), and
 * in a JVM whose heap is fixed at 2 GB: the input once, the native reference once, the page's outputs once and ONNX
 * Runtime's own copy of the native outputs fit, with room for the collector (see docs/own-models.md, outputs of any size). A budget smaller
 * than the outputs fails that case at once, naming the sizes and the flag, instead of waiting out the timeout.
 */
class LargeResultsCliTest {
    @TempDir
    Path tmp;

    private static final long MB = 1_000_000L;

    @Nightly(guardedBy = "LargeResultsCliTest#outputsAboveTheJobsBudgetFailAtOnceNamingTheSizesAndTheFlag") // docs/testing.md#the-nightly-tier
    @RequiresBrowser
    @Test
    void twoHundredMegabytesInAndFourHundredOutPassNativelyAndOnWasmWithinTheHeapBound() throws Exception {
        Path model = OddModels.largeIo(tmp.resolve("models"));
        // The run in a JVM of its own with a fixed heap: 200 MB in + 400 MB reference + 400 MB from the page + 400 MB
        // ONNX Runtime's copy while it is converted are 1.4 GB held at once; a run that held more than the heap (another
        // copy or two of the outputs) fails with an OutOfMemoryError. Measured before as the tests' own heap's peak, which
        // also counts the garbage G1 has not yet needed to reclaim: 2.3 to 4.2 GB on clean clones, a coin flip at 4 GB.
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path out = tmp.resolve("stdout.json");
        Path err = tmp.resolve("stderr.txt");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + HEAP_MB + "m",
                "-cp", cp, Main.class.getName(), "run", "--model", model.toString(), "--backends", "wasm,cpu", "--browser", "chromium",
                "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--no-report",
                "--no-bisect", "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.MINUTES)).as("the run ends").isTrue();
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(p.exitValue()).as(java.nio.file.Files.readString(err)).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(out.toFile());
        assertThat(arr).hasSize(2);
        for (JsonNode n : arr) {
            assertThat(n.get("status").asText()).as(n.get("requested").asText() + ": " + n.get("reason")).isEqualTo("PASSED");
        }
        System.out.printf("large I/O: %.1f s in a %d MB heap%n", seconds, HEAP_MB);
    }

    /** The heap the large-I/O run must fit in: its 1.4 GB held at once and room for the collector. */
    private static final int HEAP_MB = 2048;

    @RequiresBrowser
    @Test
    void outputsAboveTheJobsBudgetFailAtOnceNamingTheSizesAndTheFlag() throws Exception {
        // y = relu(x) over x[batch, n]: the outputs' size is not declared, so the cap (--max-result-mb) is the budget
        dev.accelbridge.suites.onnx.GraphBuilder g = new dev.accelbridge.suites.onnx.GraphBuilder("wide", 1);
        String x = g.input("x", dev.accelbridge.core.DType.FLOAT32, "batch", "n");
        g.opInto("Relu", "y", java.util.List.of(x));
        g.output("y", dev.accelbridge.core.DType.FLOAT32, "batch", "n");
        Path dir = java.nio.file.Files.createDirectories(tmp.resolve("models").resolve("wide"));
        java.nio.file.Files.write(dir.resolve("model.onnx"), g.build("wide").toByteArray());
        long t0 = System.nanoTime();
        CliRunner.Result r = CliRunner.run("run", "--model", dir.toString(), "--dim", "n=2000000", "--backends", "wasm,cpu",
                "--browser", "chromium", "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--no-report", "--max-result-mb", "1",
                "--timeout", "120", "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        JsonNode wasm = null;
        for (JsonNode n : arr) {
            if (n.get("requested").asText().equals("wasm")) {
                wasm = n;
            } else {
                assertThat(n.get("status").asText()).isEqualTo("PASSED"); // natively nothing crosses a bridge
            }
        }
        assertThat(wasm).isNotNull();
        assertThat(wasm.get("status").asText()).isEqualTo("FAILED");
        assertThat(wasm.get("reason").asText()).contains("transfer: ", "8,000,000 bytes", "budget of 1,048,576 bytes",
                "--max-result-mb 1", dir.resolve("model.onnx").toString());
        // at once, not after the 120 s job timeout
        assertThat(seconds).isLessThan(60);
    }
}
