package dev.accelbridge.browser.launch;

import io.javalin.Javalin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hop between Playwright's driver and a Playwright server (found when tried: a server's 50 MB answer was read whole,
 * taking the JVM to 1.43 GB and Playwright's driver to 0.90 GB). A fake server on loopback: messages pass both ways with
 * the driver's headers, and one over the bound closes the connection (1009) unread and is said.
 */
class ServerRelayTest {
    private Javalin server;
    private ServerRelay relay;

    @AfterEach
    void stop() {
        if (relay != null) {
            relay.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    private URI fake(int answerBytes) {
        server = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.jetty.host = "127.0.0.1";
            cfg.jetty.port = 0;
            cfg.routes.ws("/", ws -> ws.onMessage(ctx -> ctx.send(ctx.message().equals("flood") ? "x".repeat(answerBytes)
                    : "echo " + ctx.message() + " " + ctx.header("x-playwright-browser") + " " + ctx.header("x-playwright-launch-options"))));
        }).start();
        return URI.create("ws://127.0.0.1:" + server.port() + "/");
    }

    private static final class Client implements WebSocket.Listener {
        final CompletableFuture<String> text = new CompletableFuture<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder b = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            b.append(data);
            if (last) {
                text.complete(b.toString());
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
            closed.complete(status);
            return null;
        }
    }

    private WebSocket connect(Client c) throws Exception {
        return HttpClient.newHttpClient().newWebSocketBuilder().header("x-playwright-browser", "chromium")
                .buildAsync(relay.uri(), c).get(10, TimeUnit.SECONDS);
    }

    @Test
    void messagesPassWithTheDriversHeadersAndTheRelaysOwn() throws Exception {
        relay = ServerRelay.start(fake(10), Map.of("x-playwright-launch-options", "{}"));
        Client c = new Client();
        connect(c).sendText("hello", true);
        assertThat(c.text.get(10, TimeUnit.SECONDS)).isEqualTo("echo hello chromium {}");
        assertThat(relay.refused()).isEmpty();
    }

    @Test
    void aFiftyMegabyteAnswerClosesTheConnectionUnreadAndIsSaid() throws Exception {
        relay = ServerRelay.start(fake(50 << 20), Map.of(), 1 << 20);
        Client c = new Client();
        connect(c).sendText("flood", true);
        assertThat(c.closed.get(30, TimeUnit.SECONDS)).isEqualTo(1009);
        assertThat(c.text).isNotDone();
        assertThat(relay.refused()).hasValueSatisfying(r -> assertThat(r).contains("more than 1048576 bytes", "read no further"));
    }

    @Test
    void aServerThatIsNotThereIsSaidAsTheHandshakeFailed() throws Exception {
        relay = ServerRelay.start(URI.create("ws://127.0.0.1:9/"), Map.of());
        Client c = new Client();
        connect(c);
        assertThat(c.closed.get(30, TimeUnit.SECONDS)).isEqualTo(1011);
        assertThat(relay.failed()).hasValueSatisfying(f -> assertThat(f).startsWith("WebSocket error: ws://127.0.0.1:9/"));
    }
}
