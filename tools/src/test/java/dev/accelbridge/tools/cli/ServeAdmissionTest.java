package dev.accelbridge.tools.cli;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.hub.ConnectedPage;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Found when tried: 200 connections to `serve` made 208 runs. A connection that says hello and then does nothing must not
 * become a run: serve gives a run only to a page that answers a fresh probe.
 */
class ServeAdmissionTest {
    @Test
    void aConnectionThatOnlySaysHelloIsNotGivenARun() throws Exception {
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            LinkedBlockingQueue<ConnectedPage> joined = new LinkedBlockingQueue<>();
            server.onPageJoined(joined::add);
            List<WebSocket> sockets = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
                        .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/ws"), new WebSocket.Listener() { })
                        .get(10, TimeUnit.SECONDS);
                ws.sendText("{\"v\":1,\"type\":\"hello\",\"probe\":{\"userAgent\":\"silent\"},\"ort\":{\"version\":\"1.30.0\"}}", true)
                        .get(10, TimeUnit.SECONDS);
                sockets.add(ws);
            }
            for (int i = 0; i < 12; i++) {
                ConnectedPage page = joined.poll(10, TimeUnit.SECONDS);
                assertThat(page).isNotNull();
                assertThat(ServeCommand.unresponsive(page, Duration.ofMillis(300))).as(page.toString()).isPresent()
                        .hasValueSatisfying(why -> assertThat(why).contains("did not answer the probe"));
            }
            sockets.forEach(WebSocket::abort);
        }
    }
}
