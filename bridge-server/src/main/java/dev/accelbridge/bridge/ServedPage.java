package dev.accelbridge.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.PublicApi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Where the bridge finds the page it serves: a classpath folder holding {@code index.html}, the page's scripts, its
 * {@code package.json} (which pins onnxruntime-web) and that release's dist files under {@code ort/}. browser-runtime's
 * build puts the page there; the bridge knows only the place and the pinned release, never the page's files.
 */
@PublicApi
public final class ServedPage {
    /** Classpath folder of the page (no leading slash). */
    public static final String CLASSPATH_ROOT = "dev/accelbridge/browser/web";

    private static volatile String ortVersion;

    private ServedPage() {
    }

    /**
     * Checks that {@code files} (relative to {@link #CLASSPATH_ROOT}) are on the classpath.
     *
     * @throws AccelbridgeException naming the first missing file and how to build it
     */
    public static void verify(Iterable<String> files) {
        ClassLoader cl = ServedPage.class.getClassLoader();
        for (String f : files) {
            if (cl.getResource(CLASSPATH_ROOT + "/" + f) == null) {
                throw new AccelbridgeException("The inference page asset '" + f + "' is not on the classpath (" + CLASSPATH_ROOT + ")",
                        "build browser-runtime with Maven: it runs `npm ci` in browser-runtime/src/main/web and copies the page "
                                + "and onnxruntime-web's dist files (needs npm and the npm registry once)");
            }
        }
    }

    /** True when {@code file} (relative to {@code ort/}) is one of the pinned release's served files. */
    public static boolean servesPinned(String file) {
        return ServedPage.class.getClassLoader().getResource(CLASSPATH_ROOT + "/ort/" + file) != null;
    }

    /** The onnxruntime-web version pinned in the page's package.json (e.g. {@code 1.30.0}). */
    public static String ortWebVersion() {
        String v = ortVersion;
        if (v == null) {
            try (InputStream in = ServedPage.class.getClassLoader().getResourceAsStream(CLASSPATH_ROOT + "/package.json")) {
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
