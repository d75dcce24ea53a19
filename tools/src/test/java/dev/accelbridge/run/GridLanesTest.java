package dev.accelbridge.run;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser from a real Selenium Grid (standalone) joins a bridge that advertises a second loopback address: the bridge
 * binds that address only, hands the Grid's browser that URL, and requires its token on every HTTP and WebSocket request;
 * the lane's host is the Grid node the session landed on.
 */
@RequiresBrowser
@RequiresHostPart(RequiresHostPart.Part.GRID)
class GridLanesTest {
    @TempDir
    Path tmp;

    @Test
    void aGridBrowserJoinsTheAdvertisedBridgeWhichRequiresItsTokenEverywhere() throws Exception {
        try (SeleniumGrid grid = SeleniumGrid.standalone(tmp)) {
            RunPlan plan = RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WASM)).optGrid(grid.url()).optExposure(Exposure.of(null, URI.create("http://127.0.0.2:0")))).build();
            try (BridgeBrowserLanes lanes = new BridgeBrowserLanes(plan, Map.of())) {
                Lane lane = lanes.open(LaneId.of(BrowserKind.CHROMIUM), List.of(BackendId.WASM));
                BridgeServer bridge = lanes.bridge();
                assertThat(bridge.options().host()).isEqualTo("127.0.0.2");
                String token = bridge.options().token().orElseThrow();
                assertThat(token).hasSize(32);
                assertThat(lane.provenance().driver()).isEqualTo("grid");
                assertThat(lane.host()).get().satisfies(h -> {
                    assertThat(h.hostname()).isEqualTo("grid node 127.0.0.1:" + grid.nodePort());
                    assertThat(h.os()).startsWith("Linux");
                    assertThat(h.fingerprint()).startsWith("grid-");
                });
                assertThat(lane.provenance().host()).isEqualTo("grid node 127.0.0.1:" + grid.nodePort());

                // exposed, it serves HTTPS with a certificate made for the advertised address, which this client trusts alone
                assertThat(bridge.baseUrl().getScheme()).isEqualTo("https");
                java.security.KeyStore trusted = java.security.KeyStore.getInstance("PKCS12");
                trusted.load(null, null);
                trusted.setCertificateEntry("bridge", bridge.options().tls().orElseThrow().certificate());
                javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(trusted);
                javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
                ssl.init(null, tmf.getTrustManagers(), null);
                // bound to 127.0.0.2 only: the default loopback address has nothing listening on that port
                URI base = URI.create("https://127.0.0.2:" + bridge.port());
                HttpClient http = HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
                assertThat(catching(() -> http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + bridge.port()
                        + "/api/health")).build(), HttpResponse.BodyHandlers.discarding()))).isInstanceOf(java.net.ConnectException.class);
                for (String method : List.of("GET", "HEAD")) {
                    for (String path : List.of("/api/health", "/", "/models/anything")) {
                        int code = http.send(HttpRequest.newBuilder(base.resolve(path)).method(method, HttpRequest.BodyPublishers.noBody())
                                .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                        assertThat(code).as(method + " " + path + " without the token").isEqualTo(401);
                    }
                }
                assertThat(http.send(HttpRequest.newBuilder(base.resolve("/api/health?token=" + token)).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
                assertThat(wsCloseCode(http, URI.create("wss://127.0.0.2:" + bridge.port() + "/ws"))).isEqualTo(1008);

                // and a case runs on the Grid's browser, reporting the node as where it ran
                ModelCase text = SuiteCatalog.create(SuiteOptions.defaults(tmp.resolve("models"))).cases(dev.accelbridge.core.ModelFamily.TEXT).get(0);
                Execution e = lane.providers().apply(BackendId.WASM).execute(new ExecutionRequest(BackendId.WASM, text, 1, 2,
                        Duration.ofSeconds(120)));
                assertThat(e.timings().samplesMs()).hasSize(2);
                assertThat(e.provenance().host()).isEqualTo("grid node 127.0.0.1:" + grid.nodePort());
                assertThat(e.provenance().driver()).isEqualTo("grid");
                assertThat(e.provenance().browserVersion()).matches("\\d+\\..*");
            }
        }
    }

    private static int wsCloseCode(HttpClient http, URI ws) throws Exception {
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        http.newWebSocketBuilder().header("Origin", "http://127.0.0.2").buildAsync(ws, new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
                closed.completeExceptionally(error);
            }
        }).get(10, TimeUnit.SECONDS);
        return closed.get(10, TimeUnit.SECONDS);
    }

    private static Throwable catching(java.util.concurrent.Callable<?> c) {
        try {
            c.call();
            return null;
        } catch (Exception e) {
            return e;
        }
    }
}
