package dev.accelbridge.browser.bridge;

import dev.accelbridge.browser.page.OrtWebBuild;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The onnxruntime-web builds the bridge serves besides the pinned one: a registered version's {@code dist} folder under
 * {@code /ort-web/VERSION/}. Only scripts and WebAssembly are served, and only files whose real path stays inside that
 * folder (the rule {@link ModelRegistry} keeps for models), so no request reaches anything else.
 */
final class OrtWebFiles {
    /** The route; the page imports {@code /ort-web/VERSION/ENTRY}. */
    static final String ROUTE = "/ort-web/{version}/<file>";
    private static final Map<String, String> TYPES = Map.of(".mjs", "text/javascript", ".js", "text/javascript",
            ".wasm", "application/wasm");

    private final Map<String, Path> byVersion = new ConcurrentHashMap<>();

    /** Serves {@code build} from now on (the pinned build needs nothing: it is on the classpath). */
    void register(OrtWebBuild build) {
        if (build.isPinned()) {
            return;
        }
        try {
            byVersion.put(build.version(), build.dist().toRealPath());
        } catch (IOException e) {
            throw new BridgeServerException("onnxruntime-web " + build.version() + "'s folder " + build.dist() + " cannot be read: "
                    + e.getMessage(), "delete it from Accelbridge's cache and run again", e);
        }
    }

    void serve(Context ctx) throws IOException {
        Path dist = byVersion.get(ctx.pathParam("version"));
        String file = ctx.pathParam("file");
        String type = TYPES.entrySet().stream().filter(e -> file.endsWith(e.getKey())).map(Map.Entry::getValue).findFirst().orElse(null);
        Path p = dist == null || type == null ? null : dist.resolve(file).normalize();
        if (p == null || !p.startsWith(dist) || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || !p.toRealPath().startsWith(dist)) {
            ctx.status(HttpStatus.NOT_FOUND).contentType("text/plain").result("no such onnxruntime-web file");
            return;
        }
        BridgeAccess.ISOLATION_HEADERS.forEach(ctx::header);
        ctx.header("Cache-Control", "max-age=3600").contentType(type).result(Files.newInputStream(p));
    }
}
