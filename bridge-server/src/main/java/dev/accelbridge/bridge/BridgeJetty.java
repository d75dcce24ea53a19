package dev.accelbridge.bridge;

import io.javalin.compression.CompressionStrategy;
import io.javalin.compression.Gzip;
import io.javalin.config.JavalinConfig;
import io.javalin.http.staticfiles.Location;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The bridge's Jetty as {@link BridgeServer} sets it up before its routes: where it listens (HTTPS beside HTTP when TLS
 * is configured), its WebSocket frames' limits, compression, the page's static files, HEAD, and Jetty's own error
 * answers. A class of its own so the server's constructor reads as the bridge's steps.
 */
final class BridgeJetty {
    private BridgeJetty() {
    }

    /** @param jettyLimit the largest WebSocket message Jetty accepts: larger ones it refuses (close 1009) */
    static void configure(JavalinConfig cfg, BridgeOptions options, long jettyLimit) {
        cfg.startup.showJavalinBanner = false;
        // started at once: Javalin's watcher for an app never started is a non-daemon thread that sleeps 5 s, which kept a
        // program that had closed its bridge alive that long (found when tried: BridgeExitTest, one run in six)
        cfg.startup.startupWatcherEnabled = false;
        cfg.jetty.host = options.host();
        cfg.jetty.port = options.port();
        options.tls().ifPresent(tls -> cfg.jetty.addConnector((server, http) -> BridgeNetwork.httpsConnector(server, http, tls, options.host(), options.port())));
        cfg.jetty.modifyWebSocketServletFactory(f -> {
            f.setMaxBinaryMessageSize(jettyLimit);
            f.setMaxTextMessageSize(jettyLimit);
            f.setIdleTimeout(Duration.ofMinutes(10));
            // tensors are float bits that do not compress: permessage-deflate only spent CPU on them (200 MB of inputs
            // took 25 s to deflate and the page's 400 MB of outputs as long to inflate on this machine)
            f.getAvailableExtensionNames().remove("permessage-deflate");
        });
        cfg.http.compressionStrategy = compression();
        cfg.staticFiles.add(s -> {
            s.hostedPath = "/";
            s.directory = "/" + ServedPage.CLASSPATH_ROOT;
            s.location = Location.CLASSPATH;
            s.headers = BridgeAccess.ISOLATION_HEADERS; // the CSP is set per path by the guard
            s.mimeTypes.add("text/javascript", "mjs");
            s.mimeTypes.add("application/wasm", "wasm");
        });
        // HEAD runs the GET route and drops the body, so it answers exactly as GET would
        cfg.jetty.modifyServer(server -> server.insertHandler(new HeadAsGet()));
        // Jetty's own answers (400, 414, 431 from its parser) carry the same headers as ours
        cfg.jetty.modifyServer(server -> server.setErrorHandler(new org.eclipse.jetty.server.handler.ErrorHandler() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                                  org.eclipse.jetty.util.Callback callback) throws Exception {
                BridgeAccess.SECURITY_HEADERS.forEach((k, v) -> response.getHeaders().put(k, v));
                return super.handle(request, response, callback);
            }
        }));
    }

    /**
     * Gzip for text (the page's scripts, the dashboard's JSON), never for models or WebAssembly: float weights hardly
     * compress, and compressing on the fly was what they cost (measured: onnxruntime-web's 28 MB wasm, fetched by every
     * launched browser, took 1.0 s of a core per request against 0.2 s as it is; a 90 MB model reached the page at 25 MB/s).
     */
    private static CompressionStrategy compression() {
        var c = new CompressionStrategy(null, new Gzip());
        List<String> excluded = new ArrayList<>(c.getExcludedMimeTypes());
        excluded.addAll(List.of("application/octet-stream", "application/wasm"));
        c.setExcludedMimeTypes(excluded);
        return c;
    }
}
