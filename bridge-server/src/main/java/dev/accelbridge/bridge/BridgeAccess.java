package dev.accelbridge.bridge;

import dev.accelbridge.bridge.hub.PageHub;

import io.javalin.http.Context;
import io.javalin.websocket.WsContext;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Who may reach the bridge, decided before every route: the security headers every response carries, the Host and
 * Origin rule ({@link HostCheck}), and with a token configured, the token (query, bearer header or cookie) or a
 * launched browser's one-time join code ({@link JoinCodes}), exchanged for the token's cookie on first contact. The
 * WebSocket presents its token in its query or the same cookie; {@link PageHub} admits it.
 */
final class BridgeAccess {
    /** Headers on every response: cross-origin isolation for threaded WASM, and no cross-origin reads. */
    static final Map<String, String> ISOLATION_HEADERS = Map.of(
            "Cross-Origin-Opener-Policy", "same-origin",
            "Cross-Origin-Embedder-Policy", "require-corp",
            "Cross-Origin-Resource-Policy", "same-origin",
            "X-Content-Type-Options", "nosniff");

    /** What any response may load, when it is not the inference page: its own origin only, no script evaluation. */
    static final String CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' blob:; worker-src 'self' blob:; "
            + "connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; "
            + "frame-ancestors 'none'";

    /**
     * The inference page and its scripts: the same origin-only policy, plus {@code 'unsafe-eval'}, because
     * onnxruntime-web's WebNN execution provider evaluates strings (measured: "EvalError ... 'unsafe-eval' is not an
     * allowed source of script" from session creation in the WebNN-capable headless shell). It still cannot load or
     * connect to anything but its origin.
     */
    static final String PAGE_CSP = CSP.replace("'wasm-unsafe-eval'", "'wasm-unsafe-eval' 'unsafe-eval'");

    /** Every response's headers, Jetty's own errors included: isolation, no sniffing, the CSP. */
    static final Map<String, String> SECURITY_HEADERS = withCsp();

    /** The cookie that carries the token after a page was opened with {@code ?token=}, so its scripts load too. */
    static final String TOKEN_COOKIE = "accelbridge_token";

    private static Map<String, String> withCsp() {
        Map<String, String> m = new java.util.LinkedHashMap<>(ISOLATION_HEADERS);
        m.put("Content-Security-Policy", CSP);
        return Map.copyOf(m);
    }

    private final BridgeOptions options;
    private final PageHub hub;
    private final HostCheck hosts;
    private final JoinCodes joinCodes = new JoinCodes(java.time.Clock.systemUTC());

    BridgeAccess(BridgeOptions options, PageHub hub) {
        this.options = options;
        this.hub = hub;
        this.hosts = new HostCheck(options);
    }

    /** A one-time join code for a launched browser's URL (only meaningful with a token configured). */
    String joinCode() {
        return joinCodes.issue();
    }

    /**
     * Before every request, whatever its method (HEAD included) or route (static files included): the security headers,
     * and with a token configured, the token. A page opened with {@code ?token=} gets it back as an HttpOnly, SameSite
     * cookie so the scripts, WebAssembly and workers it loads carry it too.
     */
    void guard(Context ctx) {
        SECURITY_HEADERS.forEach(ctx::header);
        hosts.check(ctx); // DNS rebinding: the request must name this bridge, a state change come from its own pages
        String path = ctx.path();
        if (path.equals("/") || path.endsWith(".html") || path.endsWith(".mjs") || path.startsWith("/ort/") || path.startsWith("/ort-web/")) {
            ctx.header("Content-Security-Policy", PAGE_CSP);
        }
        if (options.token().isEmpty() || path.equals("/ws")) {
            return; // the WebSocket checks its token when it connects (PageHub)
        }
        String join = ctx.queryParam("join");
        if (join != null && !tokenOk(ctx) && joinCodes.redeem(join)) {
            // a launched browser's first request: the one-time code buys the token's cookie, which its page, scripts,
            // WebAssembly, workers and WebSocket then carry (the token itself never stood in its command line)
            setTokenCookie(ctx, options.token().get());
            return;
        }
        if (!tokenOk(ctx)) {
            throw new io.javalin.http.UnauthorizedResponse("token required: pass ?token=, Authorization: Bearer, or open the URL the bridge printed");
        }
        String q = ctx.queryParam("token");
        if (q != null && !q.equals(ctx.cookie(TOKEN_COOKIE))) {
            setTokenCookie(ctx, q);
        }
    }

    private static void setTokenCookie(Context ctx, String token) {
        ctx.header("Set-Cookie", TOKEN_COOKIE + "=" + URLEncoder.encode(token, StandardCharsets.UTF_8)
                + "; Path=/; HttpOnly; SameSite=Strict" + (ctx.scheme().equals("https") ? "; Secure" : ""));
    }

    /** The token a WebSocket handshake presents: in its query, else in the cookie its page was given. */
    static String presentedToken(WsContext ctx) {
        String q = ctx.queryParam("token");
        String c = ctx.cookie(TOKEN_COOKIE);
        return q != null ? q : c == null ? null : java.net.URLDecoder.decode(c, StandardCharsets.UTF_8);
    }

    /** True when the request carries the token (query, bearer header or the cookie), or the bridge has none. */
    private boolean tokenOk(Context ctx) {
        if (options.token().isEmpty()) {
            return true;
        }
        String auth = ctx.header("Authorization");
        String cookie = ctx.cookie(TOKEN_COOKIE);
        return hub.admission().tokenMatches(ctx.queryParam("token"))
                || (auth != null && auth.startsWith("Bearer ") && hub.admission().tokenMatches(auth.substring(7).trim()))
                || (cookie != null && hub.admission().tokenMatches(java.net.URLDecoder.decode(cookie, StandardCharsets.UTF_8)));
    }
}
