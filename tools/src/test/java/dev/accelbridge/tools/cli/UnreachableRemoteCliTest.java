package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Found when tried: an unreachable or hostile remote was stored as FAILED under this host's name with exit 0, so the matrix
 * showed this machine's Chromium failing although nothing ran here. A remote that gives no browser is UNAVAILABLE, and the
 * remote's.
 */
class UnreachableRemoteCliTest {
    @TempDir
    Path tmp;

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private List<JsonNode> run(String flag, String url) throws Exception {
        CliRunner.Result r = CliRunner.run("run", flag, url, "--backends", "wasm", "--suites", "text", "--browser", "chromium",
                "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--json", "--no-report",
                "--db", tmp.resolve(flag.substring(2) + ".duckdb").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        List<JsonNode> out = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).forEach(out::add);
        return out;
    }

    @Test
    void anUnreachableGridOrPlaywrightServerIsUnavailableThereNotFailedHere() throws Exception {
        int port = closedPort();
        List<JsonNode> grid = run("--grid", "http://127.0.0.1:" + port);
        assertThat(grid).isNotEmpty().allSatisfy(n -> {
            assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("UNAVAILABLE");
            assertThat(n.get("host").asText()).isEqualTo("Grid 127.0.0.1:" + port);
            assertThat(n.get("hostFingerprint").asText()).startsWith("grid-");
            assertThat(n.get("reason").asText()).contains("could not be reached");
        });
        List<JsonNode> server = run("--connect", "ws://127.0.0.1:" + port + "/");
        assertThat(server).isNotEmpty().allSatisfy(n -> {
            assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("UNAVAILABLE");
            assertThat(n.get("host").asText()).isEqualTo("playwright server 127.0.0.1:" + port);
        });
    }
}
