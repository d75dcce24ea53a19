package dev.accelbridge.core;

import java.util.List;

/**
 * Which side of the comparison a lane is on: this host's native runtime (ONNX Runtime, where the reference runs), or a
 * browser's onnxruntime-web. A lane carries its side ({@link LaneId#side()}), and so does each version axis
 * ({@link VersionAxis#side()}); what differs by side is asked of the side, and a switch over it names every side, so a
 * third kind of lane (another runtime, a remote server) is a constant here and a compile error wherever it must be
 * taught.
 */
public enum LaneSide {
    /** This host's ONNX Runtime, in this process or a runner process at another version. */
    NATIVE("native"),
    /** onnxruntime-web in a browser's page. */
    BROWSER("browser");

    private final String id;

    LaneSide(String id) {
        this.id = id;
    }

    /** {@code native} or {@code browser}. */
    public String id() {
        return id;
    }

    /** The version axes of this side's lanes, in axis order. */
    public List<VersionAxis> axes() {
        return VersionAxes.all().stream().filter(a -> a.side() == this).toList();
    }

    /** The side {@code backend} runs on: browser backends in a browser, the rest natively. */
    public static LaneSide of(BackendId backend) {
        return backend.isBrowser() ? BROWSER : NATIVE;
    }
}
