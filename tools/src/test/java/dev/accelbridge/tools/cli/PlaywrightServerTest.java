package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.run.RequiresHostPart;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.run.NetworkNamespace;
import dev.accelbridge.run.PlaywrightServer;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Playwright's own remote browsers: a browser server ({@code run-server}) on another host, a network namespace reachable
 * only across a veth pair; {@code run --connect} runs its lane there, with the bridge's certificate trusted by key, so
 * WebGPU runs (SwiftShader, labelled) and the case names the server as its host.
 */
@RequiresBrowser
@RequiresHostPart(RequiresHostPart.Part.NETWORK_NAMESPACE)
class PlaywrightServerTest {
    @TempDir
    Path tmp;

    @Test
    void aLaneRunsOnAPlaywrightServerOnAnotherHost() throws Exception {
        Path model = TinyOnnx.write(TinyOnnx.mlp(8, 16, 4, 2, 5L), Files.createDirectories(tmp.resolve("m")), "mlp").path();
        try (NetworkNamespace ns = NetworkNamespace.create()) {
            PlaywrightServer server = PlaywrightServer.startIn(ns, tmp);
            // no retry: the one page that did not join here (its row said net::ERR_NETWORK_CHANGED for the page's modules) was
            // the namespace's own late IPv6 address, which NetworkNamespace no longer gives it; a page that does not join
            // fails this test with what the page reported
            CliRunner.Result r = CliRunner.run("run", "--connect", server.endpoint().toString(), "--connect-executable",
                    "/usr/lib/chromium/chromium", "--bridge-host", ns.hostAddress(), "--backends", "webgpu,wasm", "--engines", "jsep", "--model", model.toString(),
                    "--dim", "batch=1", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--json",
                    "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            // a server does not say its system: the line names the host alone (it read "... 10.213.N.2:3000 (null)" before)
            assertThat(r.err()).as(r.out()).contains("runs on playwright server " + ns.address() + ":3000; its outputs are checked");
            List<JsonNode> rows = new ArrayList<>();
            new ObjectMapper().readTree(r.out()).forEach(rows::add);
            assertThat(rows).hasSize(2).allSatisfy(n -> {
                assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("PASSED");
                assertThat(n.get("host").asText()).isEqualTo("playwright server " + ns.address() + ":3000");
                assertThat(n.get("driver").asText()).isEqualTo("playwright");
            });
            assertThat(rows).filteredOn(n -> n.get("requested").asText().equals("webgpu"))
                    .allSatisfy(n -> assertThat(n.get("softwareAdapter").asBoolean()).isTrue());
            assertThat(rows).filteredOn(n -> n.get("requested").asText().equals("wasm"))
                    .allSatisfy(n -> assertThat(n.get("threads").asInt()).isGreaterThan(1));
        }
    }
}
