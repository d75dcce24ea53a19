package dev.accelbridge.browser.launch;

import dev.accelbridge.core.Untrusted;

import io.javalin.Javalin;
import io.javalin.websocket.WsContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A hop on loopback between Playwright's driver and a Playwright server on another machine ({@code --connect}) that holds
 * each message the server sends to {@link #MAX_MESSAGE}: Playwright's driver and its Java side read every message whole
 * (found when tried: a 50 MB answer took the JVM to 1.43 GB and the driver to 0.90 GB). A bigger message closes the
 * connection (1009) and is said, never read further; the handshake with the server has {@link #HANDSHAKE} to complete.
 * The driver's own messages pass as they are.
 */
final class ServerRelay implements AutoCloseable {
    /** The largest message taken from a Playwright server: far above any this toolkit's use of the protocol makes. */
    static final int MAX_MESSAGE = 16 << 20;
    /** How long the server's WebSocket handshake may take. */
    static final Duration HANDSHAKE = Duration.ofSeconds(15);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final Javalin app;
    private final URI upstream;
    private final Map<String, String> headers;
    private final int max;
    private volatile String refused;
    private volatile String failed;

    private ServerRelay(URI upstream, Map<String, String> headers, int max) {
        this.upstream = upstream;
        this.headers = Map.copyOf(headers);
        this.max = max;
        this.app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.startup.startupWatcherEnabled = false; // started at once; the watcher is a non-daemon thread of 5 s
            cfg.jetty.host = "127.0.0.1";
            cfg.jetty.port = 0;
            cfg.jetty.modifyWebSocketServletFactory(f -> {
                f.setMaxTextMessageSize(max);
                f.setMaxBinaryMessageSize(max);
                f.setIdleTimeout(Duration.ofDays(1)); // a long case sends nothing over this connection for a while
            });
            cfg.routes.ws("/", this::relay);
        });
        app.start();
    }

    private void relay(io.javalin.websocket.WsConfig ws) {
        ws.onConnect(ctx -> {
            WebSocket.Builder b = HTTP.newWebSocketBuilder().connectTimeout(HANDSHAKE);
            // the driver's own headers say which browser to launch (x-playwright-browser) and who asks: passed on
            ctx.headerMap().forEach((k, v) -> {
                String n = k.toLowerCase(java.util.Locale.ROOT);
                if ((n.startsWith("x-") || n.equals("user-agent")) && !headers.containsKey(k)) {
                    b.header(k, v);
                }
            });
            headers.forEach(b::header);
            try {
                WebSocket up = b.buildAsync(upstream, new Down(ctx)).get(HANDSHAKE.toMillis(), TimeUnit.MILLISECONDS);
                ctx.attribute("up", CompletableFuture.completedFuture(up));
            } catch (Exception e) {
                failed = handshake(e);
                ctx.closeSession(1011, "the Playwright server did not open its WebSocket");
            }
        });
        ws.onMessage(ctx -> send(ctx, w -> w.sendText(ctx.message(), true)));
        ws.onBinaryMessage(ctx -> send(ctx, w -> w.sendBinary(ctx.data(), true)));
        ws.onClose(ctx -> {
            CompletableFuture<WebSocket> up = ctx.attribute("up");
            if (up != null) {
                up.thenAccept(WebSocket::abort);
            }
        });
    }

    /** A relay to {@code upstream}, whose handshake carries {@code headers}. */
    static ServerRelay start(URI upstream, Map<String, String> headers) {
        return new ServerRelay(upstream, headers, MAX_MESSAGE);
    }

    /** Same, holding messages to {@code max} bytes (for tests). */
    static ServerRelay start(URI upstream, Map<String, String> headers, int max) {
        return new ServerRelay(upstream, headers, max);
    }

    /** Where Playwright connects instead of the server. */
    URI uri() {
        return URI.create("ws://127.0.0.1:" + app.port() + "/");
    }

    /** Why the relay closed a connection (a message over the bound), if it did. */
    Optional<String> refused() {
        return Optional.ofNullable(refused);
    }

    /** Why the server's handshake failed, if it did: its status and the start of what it said (a version mismatch, say). */
    Optional<String> failed() {
        return Optional.ofNullable(failed);
    }

    private String handshake(Exception e) {
        Throwable c = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
        if (c instanceof java.net.http.WebSocketHandshakeException h && h.getResponse() != null) {
            Object body = h.getResponse().body();
            String text = body instanceof byte[] b ? new String(b, 0, Math.min(b.length, 2048), java.nio.charset.StandardCharsets.UTF_8)
                    : body == null ? "" : String.valueOf(body);
            return "WebSocket error: " + upstream + " " + h.getResponse().statusCode() + (h.getResponse().statusCode() == 428
                    ? " Precondition Required " : " ") + Untrusted.bounded(text, 2048);
        }
        if (c instanceof java.util.concurrent.TimeoutException) {
            return "WebSocket error: " + upstream + " did not complete its handshake within " + HANDSHAKE.toSeconds() + " s";
        }
        return "WebSocket error: " + upstream + " " + Untrusted.bounded(String.valueOf(c.getMessage() == null
                ? c.getClass().getSimpleName() : c.getMessage()), 300);
    }

    private static void send(WsContext ctx, java.util.function.Function<WebSocket, CompletableFuture<WebSocket>> op) {
        CompletableFuture<WebSocket> up = ctx.attribute("up");
        if (up != null) {
            ctx.attribute("up", up.thenCompose(op)); // one send at a time, in order
        }
    }

    /** The server's messages, gathered to the bound and passed on whole. */
    private final class Down implements WebSocket.Listener {
        private final WsContext client;
        private final StringBuilder text = new StringBuilder();
        private final java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();

        Down(WsContext client) {
            this.client = client;
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            if (over(ws, text.length() + (long) data.length())) {
                return null;
            }
            text.append(data);
            if (last) {
                client.send(text.toString());
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            if (over(ws, binary.size() + (long) data.remaining())) {
                return null;
            }
            byte[] chunk = new byte[data.remaining()];
            data.get(chunk);
            binary.writeBytes(chunk);
            if (last) {
                client.send(ByteBuffer.wrap(binary.toByteArray()));
                binary.reset();
            }
            ws.request(1);
            return null;
        }

        private boolean over(WebSocket ws, long size) {
            if (size <= max) {
                return false;
            }
            refused = "the Playwright server at " + upstream + " sent a message of more than " + max + " bytes (read no further)";
            ws.abort();
            client.closeSession(1009, "message too big");
            return true;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
            client.closeSession(status == WebSocket.NORMAL_CLOSURE ? 1000 : 1011, Untrusted.bounded(reason, 100));
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            client.closeSession(1011, "the Playwright server's connection failed");
        }
    }

    @Override
    public void close() {
        app.stop();
    }
}
