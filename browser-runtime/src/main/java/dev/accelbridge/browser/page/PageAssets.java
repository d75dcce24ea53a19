package dev.accelbridge.browser.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.AccelbridgeException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Where the inference page and onnxruntime-web's dist files are on the classpath. The build copies them there
 * from {@code src/main/web/page} and from the npm package pinned in {@code src/main/web/package.json}. Published: a plan's
 * browser lanes run under {@link #ortWebVersion()} unless it names other versions.
 */
@dev.accelbridge.core.PublicApi
public final class PageAssets {
    /** Classpath folder of the page (no leading slash). */
    public static final String CLASSPATH_ROOT = "dev/accelbridge/browser/web";

    /** The files the page cannot work without, relative to {@link #CLASSPATH_ROOT}. */
    public static final List<String> REQUIRED = List.of("index.html", "page.mjs", "kinds.mjs", "probe.mjs", "frames.mjs", "clock.mjs", "settle.mjs", "floor.mjs", "ledger.mjs", "session.mjs", "placement.mjs",
            "generate.mjs", "socket.mjs", "relay.js", "ui.mjs", "capture.mjs", "link.mjs", "queue.mjs", "inbox.mjs", "transfer.mjs", "tensors.mjs",
            "jobs/table.mjs", "jobs/common.mjs", "jobs/control.mjs", "jobs/probe.mjs", "jobs/load.mjs", "jobs/run.mjs", "jobs/generation.mjs",
            "jobs/profile.mjs", "jobs/release.mjs",
            "ort/ort.all.min.mjs", "ort/ort-wasm-simd-threaded.jsep.mjs", "ort/ort-wasm-simd-threaded.jsep.wasm");

    private static volatile String ortVersion;

    private PageAssets() {
    }

    /**
     * Checks that every required asset is on the classpath.
     *
     * @throws AccelbridgeException naming the missing file and how to build it
     */
    public static void verify() {
        ClassLoader cl = PageAssets.class.getClassLoader();
        for (String f : REQUIRED) {
            if (cl.getResource(CLASSPATH_ROOT + "/" + f) == null) {
                throw new AccelbridgeException("The inference page asset '" + f + "' is not on the classpath (" + CLASSPATH_ROOT + ")",
                        "build browser-runtime with Maven: it runs `npm ci` in browser-runtime/src/main/web and copies the page "
                                + "and onnxruntime-web's dist files (needs npm and the npm registry once)");
            }
        }
    }

    /** The onnxruntime-web version pinned in the page's package.json (e.g. {@code 1.30.0}). */
    public static String ortWebVersion() {
        String v = ortVersion;
        if (v == null) {
            try (InputStream in = PageAssets.class.getClassLoader().getResourceAsStream(CLASSPATH_ROOT + "/package.json")) {
                if (in == null) {
                    throw new AccelbridgeException("package.json of the inference page is not on the classpath", "rebuild browser-runtime");
                }
                JsonNode pkg = new ObjectMapper().readTree(in);
                v = pkg.path("dependencies").path("onnxruntime-web").asText();
                ortVersion = v;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return v;
    }
}
