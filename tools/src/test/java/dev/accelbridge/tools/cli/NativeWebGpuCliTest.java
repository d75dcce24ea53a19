package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code native-webgpu} backend through the real CLI: ONNX Runtime's native WebGPU EP (onnxruntime-node 1.29.0's
 * library, in a runner process) on SwiftShader's Vulkan (this host shows no GPU), judged against native CPU, its row a
 * software adapter's with the library's pinned sha256 among the code it verified. The headless shell is asked for first:
 * its cache entry carries the SwiftShader driver the backend takes.
 */
@RequiresBrowser(BrowserKind.CHROMIUM_SHELL)
class NativeWebGpuCliTest {
    @TempDir
    Path tmp;

    @Test
    void aNativeWebGpuCellPassesAgainstNativeCpuOnASoftwareAdapterSaidSo() throws Exception {
        assertThat(BrowserDiscovery.find(BrowserKind.CHROMIUM_SHELL)).isPresent(); // unpacks it, SwiftShader with it
        CliRunner.Result r = CliRunner.run("run", "--backends", "native-webgpu,cpu", "--suites", "vision", "--db",
                tmp.resolve("m.duckdb").toString(), "--json", "--no-report", "--warmups", "1", "--iterations", "3");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        JsonNode gpu = null;
        for (JsonNode n : arr) {
            if (n.get("requested").asText().equals("native-webgpu")) {
                gpu = n;
            }
        }
        assertThat(gpu).as(r.out()).isNotNull();
        assertThat(gpu.get("status").asText()).as(gpu.toString()).isEqualTo("PASSED");
        assertThat(gpu.get("actual").asText()).isEqualTo("native-webgpu");
        assertThat(gpu.get("parityAgainst").asText()).isEqualTo("native-cpu");
        assertThat(gpu.get("softwareAdapter").asBoolean()).isTrue();
        assertThat(gpu.get("acceleration").asText()).isEqualTo("software adapter");
        assertThat(gpu.get("adapter").asText()).contains("SwiftShader");
        assertThat(gpu.get("provenance").get("verified").toString()).contains("89688f5cf51c7e31befbb7b9101bc027799009b18d1baa9a5b1146a72e69538d");
        assertThat(gpu.get("p50Ms").asDouble()).isPositive();
    }
}
