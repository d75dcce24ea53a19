package dev.accelbridge.bridge;

import dev.accelbridge.core.Untrusted;
import dev.accelbridge.core.fetch.Ownership;

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
 * folder (the rule {@link ModelRegistry} keeps for models) and that have one name (a hard link could make another user's
 * file one of them), so no request reaches anything else. A release from Accelbridge's cache was verified file by file
 * when its lane took it; each file is served only as bytes that still have the sha256 verified then, read and hashed at
 * every request, so a file changed afterwards is refused, never served.
 */
final class OrtWebFiles {
    /** The route; the page imports {@code /ort-web/VERSION/ENTRY}. */
    static final String ROUTE = "/ort-web/{version}/<file>";
    private static final Map<String, String> TYPES = Map.of(".mjs", "text/javascript", ".js", "text/javascript",
            ".wasm", "application/wasm");

    /** The largest file served: onnxruntime-web's biggest WebAssembly is about 25 MB. */
    private static final long MAX_FILE = 256L << 20;

    private record Registered(Path dist, Map<String, String> sha256) {
    }

    private final Map<String, Registered> byVersion = new ConcurrentHashMap<>();

    /** Serves {@code build} from now on (the pinned build needs nothing: it is on the classpath). */
    void register(ServedOrtWeb build) {
        if (build.dist().isEmpty()) {
            return;
        }
        try {
            byVersion.put(build.version(), new Registered(build.dist().get().toRealPath(), build.sha256()));
        } catch (IOException e) {
            throw new BridgeServerException("onnxruntime-web " + build.version() + "'s folder " + build.dist().get() + " cannot be read: "
                    + e.getMessage(), "delete it from Accelbridge's cache and run again", e);
        }
    }

    void serve(Context ctx) throws IOException {
        Registered r = byVersion.get(ctx.pathParam("version"));
        String file = ctx.pathParam("file");
        String type = TYPES.entrySet().stream().filter(e -> file.endsWith(e.getKey())).map(Map.Entry::getValue).findFirst().orElse(null);
        Path dist = r == null ? null : r.dist();
        Path p = dist == null || type == null ? null : dist.resolve(file).normalize();
        if (p == null || !p.startsWith(dist) || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || !p.toRealPath().startsWith(dist)
                || links(p) > 1 || Files.size(p) > MAX_FILE) {
            ctx.status(HttpStatus.NOT_FOUND).contentType("text/plain").result("no such onnxruntime-web file");
            return;
        }
        BridgeAccess.ISOLATION_HEADERS.forEach(ctx::header);
        if (r.sha256().isEmpty()) { // the pinned build's folder or the build's own installation
            ctx.header("Cache-Control", "max-age=3600").contentType(type).result(Files.newInputStream(p));
            return;
        }
        byte[] bytes = Files.readAllBytes(p);
        String want = r.sha256().get(dist.relativize(p).toString().replace('\\', '/'));
        String got = java.util.HexFormat.of().formatHex(sha256().digest(bytes));
        if (!got.equals(want)) {
            LOG.warn("onnxruntime-web {}'s {} has sha256 {}, verified as {} when its lane began: not served", ctx.pathParam("version"),
                    Untrusted.quote(file), got, want);
            ctx.status(HttpStatus.CONFLICT).contentType("text/plain").result("this onnxruntime-web file changed since it was verified");
            return;
        }
        ctx.header("Cache-Control", "no-store").contentType(type).result(bytes);
    }

    private static int links(Path p) throws IOException {
        return Ownership.unix()
                ? ((Number) Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue() : 1;
    }

    private static java.security.MessageDigest sha256() {
        try {
            return java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(OrtWebFiles.class);
}
