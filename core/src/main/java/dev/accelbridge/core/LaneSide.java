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
    NATIVE("native", false),
    /** onnxruntime-web in a browser's page. */
    BROWSER("browser", true);

    private final String id;
    private final boolean comparedWithNative;

    LaneSide(String id, boolean comparedWithNative) {
        this.id = id;
        this.comparedWithNative = comparedWithNative;
    }

    /**
     * True when this side's cells are set beside the native CPU's: the browser-against-native figures, and the fallbacks
     * and floors a report sums up for them. False for the native side, which is what they are set beside.
     */
    public boolean comparedWithNative() {
        return comparedWithNative;
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
