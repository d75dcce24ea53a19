package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.run.RequiresHostPart;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.run.SeleniumGrid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three suites through {@code run --grid} on a real Selenium Grid of a hub and a node (started by the test on
 * loopback), the bridge advertising a second loopback address: every browser case ran on the Grid's node, says so as its
 * host, and its parity names the host whose native CPU run it was checked against.
 */
@RequiresBrowser
@RequiresHostPart(RequiresHostPart.Part.GRID)
class GridRunCliTest {
    @TempDir
    Path tmp;

    @Test
    void theSuitesRunThroughAHubAndNodeGridWithTheNodeAsTheirHost() throws Exception {
        try (SeleniumGrid grid = SeleniumGrid.hubAndNode(tmp)) {
            CliRunner.Result r = CliRunner.run("run", "--grid", grid.url().toString(), "--advertise", "http://127.0.0.2:0",
                    "--backends", "wasm,cpu", "--suites", "text,vision,audio", "--browser", "chromium", "--warmups", "0",
                    "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--json", "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            List<JsonNode> wasm = new ArrayList<>();
            List<JsonNode> cpu = new ArrayList<>();
            new ObjectMapper().readTree(r.out()).forEach(n -> (n.get("requested").asText().equals("wasm") ? wasm : cpu).add(n));
            assertThat(wasm).hasSize(4); // text, vision, the audio encoder and speech-to-text (its encoder served to the node too)
            String node = "grid node 127.0.0.1:" + grid.nodePort();
            for (JsonNode n : wasm) {
                assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("PASSED");
                assertThat(n.get("driver").asText()).isEqualTo("grid");
                assertThat(n.get("host").asText()).isEqualTo(node);
                assertThat(n.get("hostFingerprint").asText()).startsWith("grid-");
                assertThat(n.get("lane").asText()).isEqualTo("chromium");
                assertThat(n.get("parityAgainst").asText()).startsWith("native-cpu").contains("(reference from host ");
            }
            for (JsonNode n : cpu) {
                assertThat(n.get("host").asText()).isNotEqualTo(node);
                assertThat(n.get("parityAgainst").asText()).doesNotContain("reference from host");
            }
            assertThat(r.err()).contains("runs on " + node);
        }
    }
}
