package dev.accelbridge.core;

/**
 * What kind of hardware really executed a case, as far as the evidence goes. A status says whether a backend
 * works; this says whether its speed means anything for a GPU or NPU. Derived from the backend that ran and
 * its provenance, never from the backend's name alone.
 */
public enum Acceleration {
    /**
     * A GPU or accelerator shown by evidence: a WebGPU adapter not a software one that names itself (its vendor and
     * architecture or description), a native GPU execution provider whose device was named (the GPU the host lists).
     */
    HARDWARE("hardware"),
    /** A software rasterizer posing as a GPU (SwiftShader, lavapipe): real WebGPU, CPU speed. */
    SOFTWARE_ADAPTER("software adapter"),
    /**
     * A WebNN device type the browser accepted, a WebGPU adapter that did not say what it is (or named nothing), a native
     * execution provider whose device was not named (OpenVINO's default device, CoreML's own choice): no evidence of where
     * it executes.
     */
    UNVERIFIED_DEVICE("device unverified"),
    /**
     * The CPU, where a WebNN gpu or npu device type was asked for: Chromium on Linux runs every WebNN device type through
     * LiteRT's CPU delegate (XNNPACK), so the device type is a preference it cannot honour there ({@link #evidence}).
     */
    BROWSER_CPU("ran on the CPU"),
    /** The CPU (wasm, native cpu, WebNN cpu). */
    CPU("cpu"),
    /** Nothing executed. */
    NONE("none");

    private final String label;

    Acceleration(String label) {
        this.label = label;
    }

    /** Short label shown in a cell. */
    public String label() {
        return label;
    }

    /** The acceleration of {@code r}: {@link #NONE} when it ran on no backend. */
    public static Acceleration of(RunResult r) {
        return r.actual().map(b -> of(b, r.provenance())).orElse(NONE);
    }

    /** What {@code r}'s label rests on ({@link #evidence(BackendId, Provenance)}); null when it ran on no backend. */
    public static String evidence(RunResult r) {
        return r.actual().map(b -> evidence(b, r.provenance())).orElse(null);
    }

    /** The acceleration of a case that ran on {@code actual} with {@code p}. */
    public static Acceleration of(BackendId actual, Provenance p) {
        if (actual == null) {
            return NONE;
        }
        if (actual == BackendId.WEBGPU || actual == BackendId.NATIVE_WEBGPU) { // a browser's adapter or native Dawn's: one rule
            Boolean sw = p == null ? null : p.softwareAdapter();
            return sw == null ? UNVERIFIED_DEVICE : sw ? SOFTWARE_ADAPTER : named(p) ? HARDWARE : UNVERIFIED_DEVICE;
        }
        if (actual == BackendId.WEBNN_GPU || actual == BackendId.WEBNN_NPU) {
            return webnnOnLinuxChromium(p) ? BROWSER_CPU : UNVERIFIED_DEVICE;
        }
        if (actual == BackendId.WASM || actual == BackendId.WEBNN_CPU || actual == BackendId.CPU) {
            return CPU;
        }
        // cuda, rocm, coreml, openvino: hardware where the provider named the device it ran on (found when tried: every
        // native EP was "hardware" whatever its device, OpenVINO on its default device, the CPU, among them)
        return p != null && Boolean.FALSE.equals(p.softwareAdapter()) && named(p) ? HARDWARE : UNVERIFIED_DEVICE;
    }

    /**
     * Whether the provenance names the device: an adapter or device name that is more than the placeholder an adapter that
     * reports nothing gets (found when tried: an adapter that said nothing was "unnamed adapter", and hardware).
     */
    private static boolean named(Provenance p) {
        String a = p.adapter();
        return a != null && !a.isBlank() && !a.startsWith(UNNAMED);
    }

    /** What an adapter that reports no vendor, architecture, device or description is called. */
    public static final String UNNAMED = "unnamed adapter";

    /**
     * What the label rests on, as a sentence, for the kinds that need one (a WebNN device type run on the CPU, an unverified
     * device); null for the others.
     */
    public static String evidence(BackendId actual, Provenance p) {
        Acceleration a = of(actual, p);
        if (a == BROWSER_CPU) {
            return "Chromium on Linux (" + p.os() + ") runs every WebNN device type on LiteRT's CPU delegate (XNNPACK): the "
                    + actual.webnnDeviceType() + " device type asked for ran on the CPU";
        }
        if (a == UNVERIFIED_DEVICE) {
            return actual.isWebnn() ? "the browser accepted WebNN device type '" + actual.webnnDeviceType()
                    + "' but does not say where it executes" : actual == BackendId.WEBGPU ? "the WebGPU adapter did not say "
                    + (p == null || p.softwareAdapter() == null ? "whether it is hardware or software" : "what device it is")
                    : "the " + actual.id() + " execution provider did not name the device it ran on"
                    + (p == null || p.adapter() == null ? "" : " (" + p.adapter() + ")");
        }
        return null;
    }

    /** Chromium's WebNN on Linux (not Android, not ChromeOS): one backend, LiteRT on the CPU, whatever the device type. */
    private static boolean webnnOnLinuxChromium(Provenance p) {
        if (p == null || p.os() == null || p.browser() == null || !BrowserKind.fromName(p.browser()).chromium()) {
            return false;
        }
        String os = p.os().toLowerCase(java.util.Locale.ROOT);
        return os.contains("linux") && !os.contains("android") && !os.contains("chrome");
    }

    /** True when a speed figure of this case says something about an accelerator. */
    public boolean meaningfulForAccelerators() {
        return this == HARDWARE;
    }
}
