package dev.accelbridge.bridge;

import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.hub.PageHub;
import dev.accelbridge.core.TrustedCertificate;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.FrameCodec;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.websocket.WsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The browser bridge: serves the inference page and onnxruntime-web from the classpath (with COOP/COEP so the page is
 * cross-origin isolated and WASM runs multithreaded), other onnxruntime-web releases a lane asked for under
 * {@code /ort-web/VERSION/} ({@link ServedOrtWeb}), the current run's models by opaque id, {@code /api/health},
 * and the WebSocket endpoint {@code /ws} where pages join and take jobs (docs/protocol.md). Handlers only delegate:
 * the protocol lives in {@link PageHub} and {@link ConnectedPage}.
 */
@PublicApi
public final class BridgeServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BridgeServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BridgeOptions options;
    private final ModelRegistry models = new ModelRegistry();
    private final OrtWebFiles ortWeb = new OrtWebFiles();
    private final BridgeAccess access;
    private final PageHub hub;
    private final PagePings pings = new PagePings(15);
    private final Javalin app;
    private final URI baseUrl;
    private final List<BridgeRoutes> extra;

    private BridgeServer(BridgeOptions options, List<BridgeRoutes> extra) {
        this.options = options;
        this.hub = new PageHub(options);
        this.access = new BridgeAccess(options, hub);
        this.extra = extra;
        ServedPage.verify(java.util.List.of("index.html", "package.json"));
        options.models().forEach(models::register);
        long jettyLimit = PageHub.jettyLimit(options.maxFrameBytes()); // larger frames are refused by Jetty (close 1009)
        this.app = Javalin.create(cfg -> {
            BridgeJetty.configure(cfg, options, jettyLimit);
            cfg.routes.before(access::guard);
            cfg.routes.get("/api/health", this::health);
            cfg.routes.get("/models/{id}", this::model);
            cfg.routes.get(OrtWebFiles.ROUTE, ortWeb::serve);
            extra.forEach(r -> r.register(cfg.routes)); // behind guard(): the same headers and token
            cfg.routes.ws("/ws", this::pageSocket);
        });
        app.start();
        this.baseUrl = boundUrl(options, app.port());
        LOG.info("Bridge listening on {} (token {})", baseUrl, options.token().isPresent() ? "required" : "not set, loopback only");
    }

    /** Where pages join: each connection and its messages handed to the hub, which holds the protocol. */
    private void pageSocket(WsConfig ws) {
        ws.onConnect(ctx -> {
            // until it has joined, a connection may send only small messages (PageHub raises the limit on hello)
            ctx.session.setMaxTextMessageSize(PageHub.UNJOINED_MESSAGE_BYTES);
            ctx.session.setMaxBinaryMessageSize(PageHub.UNJOINED_MESSAGE_BYTES);
            pings.start(ctx);
            hub.connected(ctx.sessionId(), new JettyPageChannel(ctx), String.valueOf(ctx.session.getRemoteSocketAddress()),
                    ctx.header("Origin"), BridgeAccess.presentedToken(ctx), ctx.header("Host"));
        });
        ws.onMessage(ctx -> hub.text(ctx.sessionId(), ctx.message()));
        ws.onBinaryMessage(ctx -> hub.binary(ctx.sessionId(), ctx.data()));
        ws.onClose(ctx -> {
            pings.stop(ctx.sessionId());
            hub.closed(ctx.sessionId(), ctx.status(), ctx.reason());
        });
        ws.onError(ctx -> {
            // A browser that goes away mid-write shows up here as ClosedChannelException; onClose handles it.
            if (ctx.error() instanceof java.nio.channels.ClosedChannelException) {
                LOG.debug("WebSocket {} closed while writing", ctx.sessionId());
            } else {
                LOG.warn("WebSocket error on {}: {}", ctx.sessionId(), String.valueOf(ctx.error()));
            }
        });
    }

    /** The bound address as a URL: an IPv6 literal bracketed, and every interface's address reached at loopback. */
    private static URI boundUrl(BridgeOptions options, int port) {
        String h = options.host().contains(":") && !options.host().startsWith("[") ? "[" + options.host() + "]" : options.host();
        if (h.equals("0.0.0.0") || h.equals("[::]")) {
            h = "127.0.0.1"; // the URL for browsers on this machine; others use this machine's address
        }
        return URI.create((options.tls().isPresent() ? "https://" : "http://") + h + ":" + port);
    }

    /**
     * Starts a bridge.
     *
     * @throws BridgeServerException when the options are unsafe (non-loopback without token) or the port is taken
     */
    public static BridgeServer start(BridgeOptions options) {
        return start(options, List.of());
    }

    /**
     * Starts a bridge that also serves {@code extra} routes (the dashboard) on its port, behind its token.
     *
     * @throws BridgeServerException as {@link #start(BridgeOptions)}
     */
    public static BridgeServer start(BridgeOptions options, List<BridgeRoutes> extra) {
        try {
            return new BridgeServer(options, List.copyOf(extra));
        } catch (BridgeServerException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new BridgeServerException("The bridge could not start on " + options.host() + ":" + options.port() + ": " + e.getMessage(),
                    "choose another port (0 picks a free one) or host", e);
        }
    }

    /** The options it runs with. */
    public BridgeOptions options() {
        return options;
    }

    /** The port it listens on. */
    public int port() {
        return app.port();
    }

    /** {@code http://host:port}, without token. */
    public URI baseUrl() {
        return baseUrl;
    }

    /** The page's URL, with {@code ?token=} when the bridge has a token: what {@code serve} prints for a person to open. */
    public URI pageUrl() {
        return personalPageUrl();
    }

    /**
     * The URLs other machines use to reach {@code path}, with the token: this machine's non-loopback addresses when
     * bound to every interface, the bound address when it is not loopback, none when bound to loopback.
     */
    public List<URI> remoteUrls(String path) {
        String host = options.host();
        if (BridgeOptions.isLoopback(host)) {
            return List.of();
        }
        List<String> hosts = BridgeNetwork.remoteHosts(host);
        String q = tokenQuery();
        return hosts.stream().map(h -> URI.create(baseUrl.getScheme() + "://" + h + ":" + port() + path + q)).toList();
    }

    /**
     * The certificate a browser this bridge launches must trust, when it serves HTTPS: its key's pin and fingerprint, and
     * the addresses it is reached at (the advertised one and the bound one).
     */
    public java.util.Optional<TrustedCertificate> trustedCertificate() {
        return options.tls().map(t -> {
            java.util.Set<String> at = new java.util.LinkedHashSet<>();
            URI adv = advertisedBase();
            at.add(adv.getHost() + ":" + adv.getPort());
            at.add(baseUrl.getHost() + ":" + baseUrl.getPort());
            return new TrustedCertificate(t.spkiPin(), t.fingerprint(), List.copyOf(at));
        });
    }

    /** {@code baseUrl + path}, with {@code ?token=} when the bridge has a token: a URL a person opens (the dashboard). */
    public URI url(String path) {
        return URI.create(baseUrl + path + tokenQuery());
    }

    /** {@code ?token=...} when the bridge has a token, else "": the query of a URL a person is given. */
    private String tokenQuery() {
        return options.token().map(t -> "?token=" + URLEncoder.encode(t, StandardCharsets.UTF_8)).orElse("");
    }

    /** The page's URL, with {@code ?token=} when the bridge has a token: what {@code serve} prints for a person. */
    private URI personalPageUrl() {
        return URI.create(advertisedBase() + "/" + tokenQuery());
    }

    /**
     * The page's URL for a launched browser: {@code slot} lets the bridge tell which page is that browser's. With a
     * token configured it carries a one-time join code instead ({@link JoinCodes}): this URL stands in the browser's
     * command line, which every local user can read.
     */
    public URI pageUrl(String slot) {
        return pageUrl(slot, ServedOrtWeb.pinned());
    }

    /**
     * The page's URL for a launched browser that loads onnxruntime-web {@code build} (registered here first, so the bridge
     * serves it); see {@link #pageUrl(String)}.
     */
    public URI pageUrl(String slot, ServedOrtWeb build) {
        ortWeb.register(build);
        if (slot == null && build.isPinned()) {
            return personalPageUrl();
        }
        StringBuilder q = new StringBuilder(build.pageQuery());
        if (slot == null) {
            return URI.create(advertisedBase() + "/?" + q + tokenQuery().replace('?', '&'));
        }
        if (options.token().isPresent()) {
            q.append(q.length() == 0 ? "" : "&").append("join=").append(access.joinCode());
        }
        q.append(q.length() == 0 ? "" : "&").append("slot=").append(URLEncoder.encode(slot, StandardCharsets.UTF_8));
        return URI.create(advertisedBase() + "/?" + q);
    }

    /** The base URL launched browsers are given: the advertised one (its port filled from the bound one), else the bound one. */
    public URI advertisedBase() {
        return options.advertise().map(a -> URI.create(a.getScheme() + "://" + a.getRawAuthority().replaceFirst(":\\d+$", "")
                + ":" + (a.getPort() > 0 ? a.getPort() : port()))).orElse(baseUrl);
    }

    /** The models this run serves. */
    ModelRegistry models() {
        return models;
    }

    /** The pages joined and still connected. */
    public List<ConnectedPage> pages() {
        return hub.pages();
    }

    /** The joined page with this id. */
    public Optional<ConnectedPage> page(String id) {
        return hub.page(id);
    }

    /**
     * Waits for the page opened with {@link #pageUrl(String) slot} to join.
     *
     * @throws BridgeServerException when none joins within {@code timeout}
     */
    public ConnectedPage awaitPage(String slot, Duration timeout) {
        return hub.awaitSlot(slot, timeout);
    }

    /** Calls {@code listener} for every page that joins (serve mode prints them). */
    public void onPageJoined(Consumer<ConnectedPage> listener) {
        hub.onJoin(listener);
    }

    /** WebSocket connections refused (token / Origin), since start. */
    public long rejectedConnections() {
        return hub.rejectedCount();
    }

    /** Protocol errors answered with an error frame, since start. */
    public long protocolErrors() {
        return hub.protocolErrorCount();
    }

    /** Stops serving; pages are disconnected. */
    @Override
    public void close() {
        hub.closeAll("bridge shutting down");
        extra.forEach(BridgeRoutes::close); // open streams end while their responses still exist
        app.stop();
        pings.close();
    }

    // ---- handlers (small; they delegate) ------------------------------------------------------------------------

    private void health(Context ctx) {
        ObjectNode n = JSON.createObjectNode();
        n.put("status", "ok").put("protocol", FrameCodec.PROTOCOL_VERSION).put("onnxruntimeWeb", ServedPage.ortWebVersion())
                .put("pages", hub.pages().size()).put("models", models.size());
        ctx.contentType("application/json").result(n.toString());
    }

    private void model(Context ctx) throws IOException {
        Optional<ModelRegistry.ModelRef> ref = models.find(ctx.pathParam("id"));
        if (ref.isEmpty()) {
            ctx.status(HttpStatus.NOT_FOUND).contentType("text/plain").result("no such model in the current run");
            return;
        }
        Path p = ref.get().path();
        InputStream in = Files.newInputStream(p);
        ctx.header("Cache-Control", "no-store").contentType("application/octet-stream").result(in);
    }
}
