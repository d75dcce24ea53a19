package dev.accelbridge.bridge;

import dev.accelbridge.tools.dashboard.Dashboard;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DNS rebinding against the tokenless loopback bridge: a page on another web site whose name was rebound to
 * 127.0.0.1 sends its own name as Host (and Origin). Before, it got the whole API (200) and started runs (202); now every
 * route refuses a Host this bridge is not reached by (421) before any handler, and a state-changing request from another
 * origin (403). Raw sockets, because an HTTP client will not let a test choose the Host header.
 */
class HostOriginSecurityTest {
    @TempDir
    Path tmp;

    private static String request(int port, String method, String path, String host, String origin, String body) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            String head = method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n" + (origin == null ? "" : "Origin: " + origin + "\r\n")
                    + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + b.length + "\r\n")
                    + "Connection: close\r\n\r\n";
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    @Test
    void aRequestNamingAnotherHostIsRefusedOnEveryRouteAndAForeignOriginCannotChangeState() throws Exception {
        try (MatrixStore store = MatrixStore.openForRun(tmp.resolve("m.duckdb"));
             Dashboard dashboard = new Dashboard(store, tmp.resolve("out"), Duration.ofSeconds(5));
             BridgeServer server = BridgeServer.start(BridgeOptions.builder().port(0).build(), List.of(dashboard.routes()))) {
            int port = server.port();
            String evil = "attacker.example:" + port;
            for (String path : List.of("/api/health", "/api/runs", "/api/matrix", "/dashboard/", "/", "/page.mjs", "/models/x")) {
                assertThat(status(request(port, "GET", path, evil, null, null))).as(path).isEqualTo(421);
                assertThat(status(request(port, "HEAD", path, evil, null, null))).as("HEAD " + path).isEqualTo(421);
            }
            String started = request(port, "POST", "/api/runs", evil, "http://" + evil, "{\"suites\":[\"vision\"]}");
            assertThat(status(started)).isEqualTo(421);
            // the bridge's own names still work, and a foreign page cannot post even by a good Host
            assertThat(status(request(port, "GET", "/api/health", "127.0.0.1:" + port, null, null))).isEqualTo(200);
            assertThat(status(request(port, "GET", "/api/health", "localhost:" + port, null, null))).isEqualTo(200);
            assertThat(status(request(port, "POST", "/api/runs", "127.0.0.1:" + port, "http://attacker.example:" + port,
                    "{\"suites\":[\"vision\"]}"))).isEqualTo(403);
            assertThat(store.runs()).isEmpty();
        }
    }

    @Test
    void headAnswersExactlyAsGetWould() throws Exception {
        try (MatrixStore store = MatrixStore.openForRun(tmp.resolve("h.duckdb"));
             Dashboard dashboard = new Dashboard(store, tmp.resolve("out"), Duration.ofSeconds(5));
             BridgeServer server = BridgeServer.start(BridgeOptions.builder().port(0).build(), List.of(dashboard.routes()))) {
            int port = server.port();
            String host = "127.0.0.1:" + port;
            // before: HEAD said 200 on every GET route without running it
            for (String path : List.of("/models/x", "/api/case", "/dashboard/nope.js", "/api/health", "/nope", "/dashboard/", "/api/runs")) {
                int get = status(request(port, "GET", path, host, null, null));
                String head = request(port, "HEAD", path, host, null, null);
                assertThat(status(head)).as("HEAD " + path).isEqualTo(get);
                assertThat(head.substring(head.indexOf("\r\n\r\n") + 4)).as("HEAD has no body").isEmpty();
            }
        }
    }
}
