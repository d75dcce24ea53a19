package dev.accelbridge.core;

import java.util.Locale;

/**
 * How far a case's sampling goes ({@code --sampling}). A figure taken on a software adapter (SwiftShader, lavapipe:
 * WebGPU run by the CPU) describes no user's device, neither a GPU's speed nor the CPU's: what a machine without a GPU (a
 * CI runner) needs from it is the verdict. So by default such a case runs what its verdict needs (the load, the first
 * inference, a generation's teacher-forced pass) and a short fixed window of {@link #WINDOW_RUNS} timed runs, so a
 * figure exists, without warm-ups or a settling loop; that figure is indicative, never settled, and is never ranked,
 * recommended or compared as speed ({@link SpeedStanding}). A hardware adapter and the CPU always get the full rule.
 */
@PublicApi
public enum SamplingDepth {
    /** The full rule where the hardware is what it claims, the verdict's window on a software adapter (the default). */
    AUTO("auto"),
    /** The full rule everywhere: a software adapter's figures are settled too (still never ranked as a GPU's). */
    FULL("full"),
    /** The verdict's window everywhere: every case loads, runs and is judged, with {@link #WINDOW_RUNS} timed runs at most. */
    VERDICT("verdict");

    /** The timed runs of the verdict's window: enough for a figure and its spread, nothing settled. */
    public static final int WINDOW_RUNS = 3;

    private final String id;

    SamplingDepth(String id) {
        this.id = id;
    }

    /** The option's word: {@code auto}, {@code full}, {@code verdict}. */
    public String id() {
        return id;
    }

    /** Parses {@code auto}, {@code full} or {@code verdict} (any case). */
    public static SamplingDepth parse(String text) {
        for (SamplingDepth d : values()) {
            if (d.id.equals(text == null ? "" : text.trim().toLowerCase(Locale.ROOT))) {
                return d;
            }
        }
        throw new AccelbridgeException("Unknown sampling " + Untrusted.quote(String.valueOf(text)),
                "use --sampling auto (settle figures, a software adapter runs for its verdict), full or verdict");
    }

    /**
     * The depth a case gets on a backend whose probe said {@code a}: {@link #AUTO} becomes {@link #VERDICT} where the probe
     * labels what it found software ({@link Availability#software()}), else {@link #FULL}; the others stay.
     */
    public SamplingDepth on(Availability a) {
        if (this != AUTO) {
            return this;
        }
        return a != null && a.software() ? VERDICT : FULL;
    }
}
