package dev.accelbridge.bridge.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the bridge serves over HTTP, and what it refuses to. */
class HttpSurfaceTest {
    static BridgeServer server;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        server = BridgeServer.start(BridgeOptions.defaults());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static HttpResponse<byte[]> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void thePageAndOrtAreServedCrossOriginIsolatedWithTheRightTypes() throws Exception {
        HttpResponse<byte[]> index = get("/");
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(new String(index.body(), StandardCharsets.UTF_8)).contains("Accelbridge inference page");
        assertThat(index.headers().firstValue("Cross-Origin-Opener-Policy")).hasValue("same-origin");
        assertThat(index.headers().firstValue("Cross-Origin-Embedder-Policy")).hasValue("require-corp");
        HttpResponse<byte[]> mjs = get("/ort/ort.all.min.mjs");
        assertThat(mjs.statusCode()).isEqualTo(200);
        assertThat(mjs.headers().firstValue("Content-Type").orElse("")).startsWith("text/javascript");
        HttpResponse<byte[]> wasm = get("/ort/ort-wasm-simd-threaded.jsep.wasm");
        assertThat(wasm.headers().firstValue("Content-Type")).hasValue("application/wasm");
        assertThat(wasm.headers().firstValue("Cross-Origin-Embedder-Policy")).hasValue("require-corp");
        assertThat(new String(get("/page.mjs").body(), StandardCharsets.UTF_8)).contains("session.run(feeds)");
    }

    @Test
    void onlyRegisteredModelsAreServedAndOnlyByTheirOpaqueId() throws Exception {
        Path model = Files.write(dir.resolve("m.onnx"), new byte[] {8, 1, 2, 3});
        ModelRegistry.ModelRef ref = server.models().register(model);
        HttpResponse<byte[]> ok = get(ref.urlPath());
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).containsExactly(8, 1, 2, 3);
        server.models().unregister(ref);
        assertThat(get(ref.urlPath()).statusCode()).isEqualTo(404);
        assertThat(get("/models/" + model.toString().replace("/", "%2F")).statusCode()).isEqualTo(404);
        assertThat(get("/models/..%2F..%2F..%2Fetc%2Fpasswd").statusCode()).isEqualTo(404);
    }

    @Test
    void noRequestPathReachesFilesOutsideTheAssets() throws Exception {
        for (String raw : new String[] {"/../../../../etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/etc/passwd",
                "/ort/../../../../../../etc/passwd", "/dev/accelbridge/bridge/server/BridgeServer.class"}) {
            String response = rawGet(raw);
            assertThat(response).as(raw).doesNotContain("root:x:0:0").doesNotStartWith("HTTP/1.1 200");
        }
    }

    @Test
    void bindingBeyondLoopbackWithoutATokenIsRefused() {
        assertThatThrownBy(() -> BridgeOptions.builder().host("0.0.0.0").build())
                .isInstanceOf(BridgeServerException.class).hasMessageContaining("without a token");
        assertThat(BridgeOptions.builder().host("0.0.0.0").token("t").build().loopback()).isFalse();
        assertThat(BridgeOptions.defaults().loopback()).isTrue();
    }

    /** Sends the request line verbatim (java.net.http would normalise the dots away). */
    private static String rawGet(String path) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
