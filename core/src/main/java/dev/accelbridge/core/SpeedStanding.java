package dev.accelbridge.core;

/**
 * Whether a result's figure may stand as a speed: be ranked, recommended, put in a speed ratio or score, or called a
 * significant change by {@code compare} and the regression detector. One rule for all of them; a figure that may not
 * is still stored and shown, with {@link #why()}.
 */
@PublicApi
public enum SpeedStanding {
    /** A settled figure of the device it claims (hardware, or the CPU as the CPU). */
    COUNTS(null),
    /** Nothing executed: no figure. */
    NOT_EXECUTED("nothing executed"),
    /** WebGPU on a software adapter (SwiftShader, lavapipe): the CPU posing as a GPU. */
    SOFTWARE_ADAPTER("software adapter: WebGPU run by the CPU, neither a GPU's speed nor the CPU's; it runs for its verdict"),
    /** A WebNN device type that ran on the CPU. */
    DEVICE_IS_CPU("the WebNN device type asked for ran on the CPU"),
    /** A device that did not say what it is. */
    DEVICE_UNVERIFIED("the device did not say what executed"),
    /** The verdict's window only ({@link SamplingDepth#VERDICT}): a few runs, no warm-up. */
    INDICATIVE("the verdict's runs only: indicative, not settled"),
    /** The figures sit on a latency floor (a polled readback, the timer), not on the model's time. */
    FLOORED("its figures sit on a latency floor, not on the model's time");

    private final String why;

    SpeedStanding(String why) {
        this.why = why;
    }

    /** Whether the figure counts as a speed. */
    public boolean counts() {
        return this == COUNTS;
    }

    /** Why it does not, in a few words; null when it counts. */
    public String why() {
        return why;
    }

    /** The standing of {@code r}'s figure, as the backend that actually ran it. */
    public static SpeedStanding of(RunResult r) {
        // only a case that ran on a backend and was timed has a speed to stand
        if (r == null || !r.status().executed() || !(r.outcome() instanceof Outcome.Ran ran)) {
            return NOT_EXECUTED;
        }
        switch (Acceleration.of(r)) {
            case SOFTWARE_ADAPTER:
                return SOFTWARE_ADAPTER;
            case BROWSER_CPU:
                return DEVICE_IS_CPU;
            case UNVERIFIED_DEVICE:
                return DEVICE_UNVERIFIED;
            case NONE:
                return NOT_EXECUTED;
            default:
                break;
        }
        SampleQuality q = ran.timings().quality();
        if (q.verdictWindow()) {
            return INDICATIVE;
        }
        return q.floored() ? FLOORED : COUNTS;
    }
}
