package dev.accelbridge.core;

/**
 * A probe's answer for one backend: present or not, and the evidence either way (ORT's provider list,
 * the CUDA device count, the WebGPU adapter info, the exact error a WebNN context creation threw, ...).
 *
 * @param backend   the backend probed
 * @param available true when it can run here
 * @param evidence  what the probe saw; never empty
 * @param where     the host or browser the probe ran in ({@code native}, {@code chromium 156.0...})
 * @param software  what the probe found is a software implementation of the backend's device (a WebGPU software adapter:
 *                  SwiftShader, lavapipe): it runs, for its verdict ({@link SamplingDepth})
 */
public record Availability(BackendId backend, boolean available, String evidence, String where, boolean software) {
    /** A probe's answer about hardware that is what it claims (or about none). */
    public Availability(BackendId backend, boolean available, String evidence, String where) {
        this(backend, available, evidence, where, false);
    }

    /** An available backend. */
    public static Availability available(BackendId backend, String evidence, String where) {
        return new Availability(backend, true, evidence, where);
    }

    /** A backend present as a software implementation of its device (a WebGPU software adapter). */
    public static Availability availableInSoftware(BackendId backend, String evidence, String where) {
        return new Availability(backend, true, evidence, where, true);
    }

    /** A backend that is not present. */
    public static Availability unavailable(BackendId backend, String evidence, String where) {
        return new Availability(backend, false, evidence, where);
    }
}
