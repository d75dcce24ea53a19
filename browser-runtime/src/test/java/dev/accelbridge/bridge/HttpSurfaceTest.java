package dev.accelbridge.bridge;

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
        // the page may evaluate strings (onnxruntime-web's WebNN EP does) but reach nothing beyond its origin; the API may not
        assertThat(index.headers().firstValue("Content-Security-Policy")).hasValue(BridgeAccess.PAGE_CSP);
        assertThat(BridgeAccess.PAGE_CSP).contains("connect-src 'self'").contains("default-src 'self'");
        assertThat(get("/api/health").headers().firstValue("Content-Security-Policy")).hasValue(BridgeAccess.CSP);
        assertThat(new String(get("/page.mjs").body(), StandardCharsets.UTF_8)).contains("./inbox.mjs");
        HttpResponse<byte[]> job = get("/jobs/run.mjs"); // the page's modules in their folders too
        assertThat(new String(job.body(), StandardCharsets.UTF_8)).contains("session.run(feeds)");
        assertThat(job.headers().firstValue("Content-Type").orElse("")).startsWith("text/javascript");
        assertThat(job.headers().firstValue("Content-Security-Policy")).hasValue(BridgeAccess.PAGE_CSP);
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

    /**
     * Asked for gzip (as every browser asks), the bridge compresses text but never a model or WebAssembly: float weights
     * hardly compress, and gzip on the fly was the cost (measured: onnxruntime-web's 28 MB wasm in 1.0 s of a core per
     * request against 0.2 s as it is; a 90 MB model reached the page at 25 MB/s).
     */
    @Test
    void modelsAndWebAssemblyAreServedAsTheyAreTextCompressed() throws Exception {
        byte[] weights = new byte[64 * 1024]; // zeros: as compressible as bytes get
        ModelRegistry.ModelRef ref = server.models().register(Files.write(dir.resolve("zeros.onnx"), weights));
        try {
            HttpResponse<byte[]> model = getGzip(ref.urlPath());
            assertThat(model.headers().firstValue("Content-Encoding")).isEmpty();
            assertThat(model.body()).hasSize(weights.length);
        } finally {
            server.models().unregister(ref);
        }
        HttpResponse<byte[]> wasm = getGzip("/ort/ort-wasm-simd-threaded.jsep.wasm");
        assertThat(wasm.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(java.util.Arrays.copyOf(wasm.body(), 4)).containsExactly(0, 'a', 's', 'm'); // WebAssembly's magic, as it is
        HttpResponse<byte[]> js = getGzip("/ort/ort.all.min.mjs");
        assertThat(js.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(js.body().length).isLessThan(get("/ort/ort.all.min.mjs").body().length / 2);
    }

    static HttpResponse<byte[]> getGzip(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void noRequestPathReachesFilesOutsideTheAssets() throws Exception {
        for (String raw : new String[] {"/../../../../etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/etc/passwd",
                "/ort/../../../../../../etc/passwd", "/dev/accelbridge/bridge/BridgeServer.class"}) {
            String response = rawGet(raw);
            assertThat(response).as(raw).doesNotContain("root:x:0:0").doesNotStartWith("HTTP/1.1 200");
        }
    }

    @Test
    void bindingBeyondLoopbackWithoutATokenIsRefused() {
        assertThatThrownBy(() -> BridgeOptions.builder().host("0.0.0.0").build())
                .isInstanceOf(BridgeServerException.class).hasMessageContaining("without a token");
        assertThat(BridgeOptions.builder().host("0.0.0.0").token(STRONG).build().loopback()).isFalse();
        assertThat(BridgeOptions.defaults().loopback()).isTrue();
    }

    static final String STRONG = "c0ffee-4a1b-9e2d-77f3";

    @Test
    void offLoopbackAWeakTokenIsRefusedNamingTheRule() {
        for (String weak : new String[] {"t", "0123456789abcde", "aaaaaaaaaaaaaaaaaaaaaaaa"}) {
            assertThatThrownBy(() -> BridgeOptions.builder().host("0.0.0.0").token(weak).build())
                    .as(weak).isInstanceOf(BridgeServerException.class).hasMessageContaining("too weak")
                    .satisfies(e -> assertThat(((BridgeServerException) e).oneLine()).contains("openssl rand"));
        }
        // on loopback a short token is the user's business
        assertThat(BridgeOptions.builder().token("t").build().token()).hasValue("t");
    }

    @Test
    void withATokenEveryMethodAndRouteNeedsItAndThePagesScriptsGetItAsACookie() throws Exception {
        try (BridgeServer open = BridgeServer.start(BridgeOptions.builder().host("0.0.0.0").port(0).token(STRONG).build())) {
            Path model = Files.write(dir.resolve("t.onnx"), new byte[] {8, 1});
            String modelPath = open.models().register(model).urlPath();
            String base = "http://127.0.0.1:" + open.port();
            for (String method : new String[] {"GET", "HEAD", "POST", "OPTIONS"}) {
                for (String path : new String[] {"/", "/page.mjs", "/ort/ort.all.min.mjs", "/api/health", modelPath, "/no-such"}) {
                    HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path))
                            .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
                    assertThat(r.statusCode()).as(method + " " + path).isEqualTo(401);
                    assertThat(r.headers().firstValue("Content-Security-Policy")).as(method + " " + path).isPresent();
                }
            }
            HttpResponse<Void> page = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/?token=" + STRONG)).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(page.statusCode()).isEqualTo(200);
            String cookie = page.headers().firstValue("Set-Cookie").orElseThrow();
            assertThat(cookie).startsWith(BridgeAccess.TOKEN_COOKIE + "=").contains("HttpOnly").contains("SameSite=Strict");
            HttpResponse<Void> script = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/ort/ort.all.min.mjs"))
                    .header("Cookie", cookie.substring(0, cookie.indexOf(';'))).build(), HttpResponse.BodyHandlers.discarding());
            assertThat(script.statusCode()).isEqualTo(200);
            HttpResponse<Void> head = HTTP.send(HttpRequest.newBuilder(URI.create(base + modelPath))
                    .header("Authorization", "Bearer " + STRONG).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(open.remoteUrls("/")).allSatisfy(u -> assertThat(u.getHost()).isNotEqualTo("127.0.0.1"))
                    .allSatisfy(u -> assertThat(u.getQuery()).isEqualTo("token=" + STRONG));
        }
    }

    @Test
    void jettysOwnErrorsCarryTheSecurityHeaders() throws Exception {
        String tooLarge = raw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "a".repeat(40_000) + "\r\nConnection: close\r\n\r\n");
        String uriTooLong = raw("GET /" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        String bad = raw("GARBAGE\r\n\r\n");
        for (String r : new String[] {tooLarge, uriTooLong, bad}) {
            assertThat(r).matches("(?s)HTTP/1.1 4\\d\\d .*").contains("Content-Security-Policy: default-src 'self'")
                    .contains("X-Content-Type-Options: nosniff").contains("Cross-Origin-Embedder-Policy: require-corp");
        }
        assertThat(tooLarge).startsWith("HTTP/1.1 431");
        assertThat(uriTooLong).startsWith("HTTP/1.1 414");
        assertThat(bad).startsWith("HTTP/1.1 400");
    }

    /** Sends the request line verbatim (java.net.http would normalise the dots away). */
    private static String rawGet(String path) throws Exception {
        return raw("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    }

    private static String raw(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
