package dev.accelbridge.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Test client: a raw WebSocket (JDK's) that speaks to the bridge like a page would, or deliberately does not. */
public final class WsClient implements AutoCloseable {
    public static final ObjectMapper JSON = new ObjectMapper();
    public final BlockingQueue<JsonNode> texts = new LinkedBlockingQueue<>();
    public final CompletableFuture<Integer> closeCode = new CompletableFuture<>();
    public final WebSocket ws;

    public WsClient(URI uri, String origin) throws Exception {
        this(uri, origin, java.util.Map.of());
    }

    public WsClient(URI uri, String origin, java.util.Map<String, String> headers) throws Exception {
        WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder();
        if (origin != null) {
            b.header("Origin", origin);
        }
        headers.forEach(b::header);
        ws = b.buildAsync(uri, new WebSocket.Listener() {
            final StringBuilder buf = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                buf.append(data);
                if (last) {
                    try {
                        texts.add(JSON.readTree(buf.toString()));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    buf.setLength(0);
                }
                w.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket w, int status, String reason) {
                closeCode.complete(status);
                return null;
            }

            @Override
            public void onError(WebSocket w, Throwable error) {
                closeCode.complete(-1);
            }
        }).get(10, TimeUnit.SECONDS);
    }

    public void text(String s) throws Exception {
        ws.sendText(s, true).get(10, TimeUnit.SECONDS);
    }

    public void binary(byte[] b) throws Exception {
        ws.sendBinary(ByteBuffer.wrap(b), true).get(10, TimeUnit.SECONDS);
    }

    public JsonNode next() throws InterruptedException {
        JsonNode n = texts.poll(10, TimeUnit.SECONDS);
        if (n == null) {
            throw new AssertionError("no message from the bridge within 10 s");
        }
        return n;
    }

    /** Joins like a page with a minimal probe. */
    public JsonNode hello() throws Exception {
        text("{\"v\":1,\"type\":\"hello\",\"slot\":null,\"probe\":{\"userAgent\":\"test-client\",\"wasm\":{\"present\":true,\"simd\":true}},\"ort\":{\"version\":\"1.30.0\"}}");
        return next();
    }

    @Override
    public void close() {
        ws.abort();
    }
}
