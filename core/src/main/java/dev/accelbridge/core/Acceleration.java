package dev.accelbridge.core;

/**
 * What kind of hardware really executed a case, as far as the evidence goes. A status says whether a backend
 * works; this says whether its speed means anything for a GPU or NPU. Derived from the backend that ran and
 * its provenance, never from the backend's name alone.
 */
public enum Acceleration {
    /** A GPU or accelerator the runtime named (a native GPU execution provider, a hardware WebGPU adapter). */
    HARDWARE("hardware"),
    /** A software rasterizer posing as a GPU (SwiftShader, lavapipe): real WebGPU, CPU speed. */
    SOFTWARE_ADAPTER("software adapter"),
    /** A WebNN device type the browser accepted, or a WebGPU adapter that did not say what it is: no evidence of where it executes. */
    UNVERIFIED_DEVICE("device unverified"),
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

    /** The acceleration of a case that ran on {@code actual} with {@code p}. */
    public static Acceleration of(BackendId actual, Provenance p) {
        if (actual == null) {
            return NONE;
        }
        if (actual == BackendId.WEBGPU) {
            Boolean sw = p == null ? null : p.softwareAdapter();
            return sw == null ? UNVERIFIED_DEVICE : sw ? SOFTWARE_ADAPTER : HARDWARE;
        }
        if (actual == BackendId.WEBNN_GPU || actual == BackendId.WEBNN_NPU) {
            return UNVERIFIED_DEVICE;
        }
        if (actual == BackendId.WASM || actual == BackendId.WEBNN_CPU || actual == BackendId.CPU) {
            return CPU;
        }
        return HARDWARE; // cuda, rocm, coreml, openvino: the EP ran on its device or the case failed
    }

    /** True when a speed figure of this case says something about an accelerator. */
    public boolean meaningfulForAccelerators() {
        return this == HARDWARE;
    }
}
