package dev.accelbridge.browser.launch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A loopback page whose script reports what the browser really offers (user agent, WebGPU adapter, WebNN context)
 * back to this server, so launcher tests assert on the browser's own answers.
 */
public final class ReportPage implements AutoCloseable {
    private static final String HTML = """
            <!doctype html><html><head><meta charset="utf-8"><title>accelbridge launcher test</title></head><body>
            <script type="module">
            const id = new URLSearchParams(location.search).get('id');
            const r = {id, ua: navigator.userAgent, gpu: {api: !!navigator.gpu}, ml: {api: !!navigator.ml}};
            try {
              const a = navigator.gpu ? await navigator.gpu.requestAdapter() : null;
              r.gpu.adapter = !!a;
              if (a) { r.gpu.vendor = a.info.vendor; r.gpu.architecture = a.info.architecture;
                       r.gpu.fallback = a.info.isFallbackAdapter ?? a.isFallbackAdapter ?? null; }
            } catch (e) { r.gpu.error = String(e); }
            try {
              if (navigator.ml) { const c = await navigator.ml.createContext({deviceType: 'cpu'}); r.ml.context = !!c; }
            } catch (e) { r.ml.context = false; r.ml.error = e.name + ': ' + e.message; }
            await fetch('/report?r=' + encodeURIComponent(JSON.stringify(r)));
            </script></body></html>
            """;

    private final HttpServer server;
    private final Map<String, BlockingQueue<JsonNode>> reports = new ConcurrentHashMap<>();
    private final ObjectMapper json = new ObjectMapper();

    public ReportPage() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            byte[] body;
            String path = ex.getRequestURI().getPath();
            if (path.equals("/report")) {
                String q = ex.getRequestURI().getRawQuery();
                JsonNode r = json.readTree(URLDecoder.decode(q.substring(q.indexOf('=') + 1), StandardCharsets.UTF_8));
                queue(r.path("id").asText()).add(r);
                body = "ok".getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "text/plain");
            } else if (path.equals("/")) {
                body = HTML.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            } else {
                ex.sendResponseHeaders(404, -1);
                ex.close();
                return;
            }
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
    }

    /** A fresh URL whose report can be awaited with {@link #await}. */
    public URI newUrl() {
        String id = UUID.randomUUID().toString();
        queue(id);
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/?id=" + id);
    }

    /** The report of the page opened at {@code url}. */
    public JsonNode await(URI url, Duration timeout) throws InterruptedException {
        String id = url.getQuery().substring("id=".length());
        JsonNode r = queue(id).poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (r == null) {
            throw new AssertionError("the page at " + url + " did not report within " + timeout);
        }
        return r;
    }

    private BlockingQueue<JsonNode> queue(String id) {
        return reports.computeIfAbsent(id, k -> new LinkedBlockingQueue<>());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
