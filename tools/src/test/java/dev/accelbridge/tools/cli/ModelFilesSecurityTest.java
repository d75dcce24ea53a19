package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.suites.WildModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Model files as a way in: a file a model references must stay inside its folder by real path. External data
 * that is a link to /etc/passwd made the bridge serve the target (200, root:x:0:0); now the model is FAILED natively and
 * in the browser alike, naming the link and its target (a registered file swapped for a link: RegisteredModelFilesTest).
 */
class ModelFilesSecurityTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void externalDataOrAnInputFileLinkingOutOfTheFolderFailsTheModelOnEverySide() throws Exception {
        Path zoo = tmp.resolve("zoo");
        Path ext = WildModels.externalWeights(zoo);
        Files.delete(ext.resolve("model.onnx_data"));
        Files.createSymbolicLink(ext.resolve("model.onnx_data"), Path.of("/etc/passwd"));
        Path vad = WildModels.vadLike(zoo);
        Files.createSymbolicLink(vad.resolve("state.npy"), Path.of("/proc/self/environ"));
        Files.writeString(vad.resolve("accelbridge.json"), "{\"dims\": {\"samples\": 512}, \"inputs\": {\"sr\": 16000, \"state\": \"state.npy\"}}");
        CliRunner.Result r = CliRunner.run("run", "--model", zoo.toString(), "--backends", "wasm,cpu", "--browser", "chromium",
                "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--no-report",
                "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        assertThat(arr).hasSize(4);
        for (JsonNode n : arr) {
            assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("FAILED");
            assertThat(n.get("reason").asText()).startsWith("load: ").contains("outside the model's folder");
            assertThat(n.get("reason").asText()).containsAnyOf("resolves to /etc/passwd", "resolves to /proc/");
            assertThat(n.get("maxAbsErr").isNull()).isTrue();
        }
    }
}
