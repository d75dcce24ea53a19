package dev.accelbridge.bridge.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.suites.PublishedModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Bisection that survives its own instrumentation, on a published model (the legacy Silero VAD): WebGPU's output is
 * wrong, and with its If branch's values exposed a Slice kernel fails, so the tapped model cannot run there. Bisection
 * then runs each node alone on WebGPU with the reference's inputs and names the Slice inside the branch whose output has
 * the wrong shape: FOUND, where it used to end FAILED without a node.
 */
class BisectionFallbackCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void whenTheTappedModelFailsOnTheBackendNodesRunAloneNameTheDivergence() throws Exception {
        assumeTrue(PublishedModels.installed().isPresent(), "the published models are not installed (test-suites/published)");
        Path model = PublishedModels.folder(PublishedModels.VAD_LEGACY, tmp.resolve("m"));
        CliRunner.Result r = CliRunner.run("run", "--model", model.toString(), "--family", "audio", "--backends", "cpu,webgpu",
                "--browser", "chromium", "--iterations", "1", "--warmups", "0", "--min-duration", "0", "--warmup-duration", "0",
                "--json", "--db", tmp.resolve("v.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isIn(Main.OK, Main.POLICY_FAILED);
        JsonNode gpu = null;
        for (JsonNode n : new ObjectMapper().readTree(r.out())) {
            if (n.get("requested").asText().equals("webgpu")) {
                gpu = n;
            } else {
                assertThat(n.get("status").asText()).isEqualTo("PASSED");
            }
        }
        assertThat(gpu).isNotNull();
        assertThat(gpu.get("status").asText()).isEqualTo("WRONG_OUTPUT");
        JsonNode b = gpu.get("bisection");
        assertThat(b.get("outcome").asText()).as(b.toString()).isEqualTo("FOUND");
        assertThat(b.get("opType").asText()).isEqualTo("Slice");
        assertThat(b.get("node").asText()).startsWith("If_25/then/");
        assertThat(b.get("note").asText()).contains("the exposed model failed on webgpu")
                .contains("found by running each node alone on webgpu with the reference's inputs")
                .contains("the repro diverges on its own on webgpu");
        assertThat(b.get("reproDir").asText()).isNotBlank();
    }
}
