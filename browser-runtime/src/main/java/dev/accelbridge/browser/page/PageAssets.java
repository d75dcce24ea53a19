package dev.accelbridge.browser.page;

import dev.accelbridge.bridge.ServedPage;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * The inference page's files, which the build copies to the classpath folder the bridge serves ({@link ServedPage})
 * from {@code src/main/web/page} and from the npm package pinned in {@code src/main/web/package.json}. Published: a plan's
 * browser lanes run under {@link #ortWebVersion()} unless it names other versions.
 */
@PublicApi
public final class PageAssets {
    /** Classpath folder of the page (no leading slash). */
    public static final String CLASSPATH_ROOT = ServedPage.CLASSPATH_ROOT;

    /** The files the page cannot work without, relative to {@link #CLASSPATH_ROOT}. */
    public static final List<String> REQUIRED = List.of("index.html", "page.mjs", "kinds.mjs", "bundle.mjs", "ortload.mjs", "probe.mjs", "frames.mjs", "clock.mjs", "settle.mjs", "floor.mjs", "ledger.mjs", "session.mjs", "placement.mjs",
            "generate.mjs", "socket.mjs", "relay.js", "ui.mjs", "capture.mjs", "link.mjs", "queue.mjs", "inbox.mjs", "transfer.mjs", "tensors.mjs",
            "jobs/table.mjs", "jobs/common.mjs", "jobs/control.mjs", "jobs/probe.mjs", "jobs/load.mjs", "jobs/run.mjs", "jobs/generation.mjs",
            "jobs/profile.mjs", "jobs/release.mjs",
            "ort/ort.all.min.mjs", "ort/ort-wasm-simd-threaded.jsep.mjs", "ort/ort-wasm-simd-threaded.jsep.wasm");

    private PageAssets() {
    }

    /**
     * Checks that every required asset is on the classpath.
     *
     * @throws AccelbridgeException naming the missing file and how to build it
     */
    public static void verify() {
        ServedPage.verify(REQUIRED);
    }

    /** The onnxruntime-web version pinned in the page's package.json (e.g. {@code 1.30.0}). */
    public static String ortWebVersion() {
        return ServedPage.ortWebVersion();
    }
}
