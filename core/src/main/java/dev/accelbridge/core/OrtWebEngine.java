package dev.accelbridge.core;

import java.util.Arrays;
import java.util.List;

/**
 * Which onnxruntime-web engine a page runs: the bundle it imports decides the WebAssembly module it loads, and with it
 * how WebGPU runs. Every backend of a page (wasm, WebNN, WebGPU) runs on the module its engine brings.
 */
@PublicApi
public enum OrtWebEngine {
    /** The JavaScript execution provider for WebGPU (JSEP), deprecated since ONNX Runtime 1.29: the default bundles. */
    JSEP("jsep", "ort.all.min.mjs", ".jsep.wasm", "the JavaScript WebGPU EP (JSEP)"),
    /** The native WebGPU EP (C++ on Dawn, in the module), built with asyncify: what {@code onnxruntime-web/webgpu} imports. */
    WEBGPU_EP("webgpu-ep", "ort.webgpu.min.mjs", ".asyncify.wasm", "the native WebGPU EP (asyncify)"),
    /** The native WebGPU EP over JavaScript Promise Integration, where the browser has JSPI. */
    WEBGPU_EP_JSPI("webgpu-ep-jspi", "ort.jspi.min.mjs", ".jspi.wasm", "the native WebGPU EP over JSPI");

    /** The name of the version axis engines are ({@code ortWebEngine}): a browser lane's key for its engine. */
    public static final String AXIS = "ortWebEngine";

    private final String id;
    private final String bundle;
    private final String moduleSuffix;
    private final String description;

    OrtWebEngine(String id, String bundle, String moduleSuffix, String description) {
        this.id = id;
        this.bundle = bundle;
        this.moduleSuffix = moduleSuffix;
        this.description = description;
    }

    /**
     * What limits a GPU ledger's peak taken on this engine, or null: JSEP keeps the GPU buffers a session releases in a pool
     * and hands them to the next session, so a case that reuses an earlier case's buffers makes fewer, and its peak (above
     * what was live when it began) may read low.
     */
    public String ledgerCaveat() {
        return this == JSEP ? "JSEP reuses pooled GPU buffers of earlier cases: the peak may read low" : null;
    }

    /**
     * The engine a browser lane runs when its key names none, decided here once: the one onnxruntime-web's default bundle
     * carries (JSEP). The engine axis (browser-runtime's {@code OrtWebEngineAxis}) pins it and leaves it out of a lane's
     * key; the page is always told its bundle in its URL, and its own fallback for a URL typed by hand is held to this.
     */
    public static final OrtWebEngine PINNED = JSEP;

    /** {@code engine}, or {@link #PINNED} where none is named. */
    public static OrtWebEngine orPinned(java.util.Optional<OrtWebEngine> engine) {
        return engine.orElse(PINNED);
    }

    /** The engine a browser lane's cases ran on: the one its key names, else {@link #PINNED}; empty off the browser side. */
    public static java.util.Optional<OrtWebEngine> ranIn(LaneId lane) {
        return lane.side() == LaneSide.BROWSER ? java.util.Optional.of(orPinned(of(lane))) : java.util.Optional.empty();
    }

    /** {@code lane} keyed with this engine: the pinned one is not named in a key, as the engine axis writes keys. */
    public LaneId keyed(LaneId lane) {
        return this == PINNED ? lane : lane.with(AXIS, id);
    }

    /** Its name in a lane's key, the store and {@code --engines} ({@code webgpu-ep}). */
    public String id() {
        return id;
    }

    /** The ES module bundle a page imports for it, in a release's {@code dist} folder from 1.19 on. */
    public String bundle() {
        return bundle;
    }

    /** The WebAssembly module it loads, in the threaded SIMD build ({@code ort-wasm-simd-threaded.asyncify.wasm}). */
    public String module() {
        return "ort-wasm-simd-threaded" + moduleSuffix;
    }

    /** True when a module file a page loaded is this engine's (older releases name theirs {@code ort-wasm-simd.jsep.wasm}). */
    public boolean isModule(String fileName) {
        return fileName.endsWith(moduleSuffix);
    }

    /** For a person: "the native WebGPU EP (asyncify)". */
    public String description() {
        return description;
    }

    /** The engine whose bundle {@code entry} is ({@code esm/ort.all.min.js} of 1.17 and 1.18 is JSEP's). */
    public static OrtWebEngine ofEntry(String entry) {
        String name = entry.substring(entry.lastIndexOf('/') + 1).replace(".min.js", ".min.mjs");
        return Arrays.stream(values()).filter(e -> e.bundle.equals(name)).findFirst().orElse(PINNED);
    }

    /**
     * The engine called {@code id}.
     *
     * @throws AccelbridgeException naming the engines there are
     */
    public static OrtWebEngine of(String id) {
        return Arrays.stream(values()).filter(e -> e.id.equals(id)).findFirst().orElseThrow(() -> new AccelbridgeException(
                "There is no onnxruntime-web engine " + Untrusted.quote(String.valueOf(id)), "give one of " + ids()));
    }

    /**
     * The engine of {@code lane}: its {@link #AXIS} version; empty for the native lane and for a browser lane that names
     * none (a page joined by hand).
     */
    public static java.util.Optional<OrtWebEngine> of(LaneId lane) {
        String v = lane.version(AXIS);
        return v == null ? java.util.Optional.empty() : java.util.Optional.of(of(v));
    }

    /** Whether it is the native WebGPU EP (either build). */
    public boolean isNativeEp() {
        return this != JSEP;
    }

    /** Every engine's id, in declaration order. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(OrtWebEngine::id).toList();
    }
}
