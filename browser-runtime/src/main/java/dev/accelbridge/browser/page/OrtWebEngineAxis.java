package dev.accelbridge.browser.page;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.VersionAxis;

import java.util.List;

/**
 * onnxruntime-web's engine in a browser lane ({@code --engines jsep,webgpu-ep}): which bundle the page imports and so
 * which WebAssembly module, with which WebGPU execution provider, runs every case of the lane ({@link OrtWebEngine}).
 * Not a version, but a part of the lane the same way: each lane runs one, and a case's cell is per engine. The pinned
 * engine, JSEP, the only one before engines were an axis, is left out of a lane's key, so that its cells keep their
 * history ({@code chromium@156+ort-web@1.30.0}; {@code chromium@156+ort-web@1.30.0+engine@webgpu-ep}).
 */
@PublicApi
public final class OrtWebEngineAxis implements VersionAxis {
    /** Its dimension ({@code ortWebEngine}, column {@code ort_web_engine}, written {@code +engine@webgpu-ep} in a lane's key). */
    public static final Dimension<String> DIMENSION = Dimension.version(OrtWebEngine.AXIS, "onnxruntime-web engine", "--engines", "engine");

    @Override
    public Dimension<String> dimension() {
        return DIMENSION;
    }

    @Override
    public String subject() {
        return "onnxruntime-web engine";
    }

    @Override
    public LaneSide side() {
        return LaneSide.BROWSER;
    }

    @Override
    public int order() {
        return 20;
    }

    @Override
    public String keyPart(String v) {
        return OrtWebEngine.PINNED.id().equals(v) ? "" : VersionAxis.super.keyPart(v);
    }

    @Override
    public void check(String v) {
        OrtWebEngine.of(v);
    }

    @Override
    public String pinned() {
        return OrtWebEngine.PINNED.id();
    }

    /** JSEP for every backend, and the native WebGPU EP (asyncify) for WebGPU: the engine most users now run WebGPU on. */
    @Override
    public List<Default> defaults() {
        return List.of(Default.every(OrtWebEngine.PINNED.id()), new Default(OrtWebEngine.WEBGPU_EP.id(), java.util.Set.of(BackendId.WEBGPU)));
    }

    @Override
    public List<String> published() {
        return OrtWebEngine.ids();
    }

    @Override
    public List<String> atHand() {
        return OrtWebEngine.ids();
    }

    @Override
    public String olderRecordsTake() {
        return OrtWebEngine.PINNED.id(); // the only bundle the page imported before
    }

    @Override
    public boolean onlyReleases() {
        return true;
    }
}
