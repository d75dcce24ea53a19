package dev.accelbridge.core;

/**
 * When a case stops sampling because its figures sit on a latency floor ({@link LatencyFloor#of}): once
 * {@link #RUNS} of a loop's waits show the floor, each further run would time the floor again. Found when tried:
 * Firefox learns that a WebGPU readback finished by a 100 ms poll, so one speech-to-text generation there took 11.8 s,
 * and the case ran 15 of them (the cold one, warm-ups, ten timed, the teacher-forced pass) to learn a floor its first
 * steps already showed.
 *
 * <p>The rule, in the page ({@code floor.mjs}; a test runs both on the same waits): a loop with a least duration (not
 * exact counts, which stay exact) stops before its next run once its waits (at least {@link #RUNS}) show a floor by the
 * evidence {@link LatencyFloor#of} asks for (a first wait off the poll's steps asks for a few more): a single
 * pass's warm-ups on their own runs, its timed loop on its timed runs; a generation's warm-ups on the steps after each
 * generation's first (the cold generation's included), its timed loop on its timed generations' steps, so one timed
 * generation can establish it. Only a polled readback's floor stops a loop, not the timer's: found when tried, a tiny
 * wasm model's runs (about 0.09 ms) against a timer step the page measured coarser on one launch than the next stopped
 * after 40 of the runs its least duration asks for, and a sub-tick model's figure is its many samples' mean. A case
 * stopped so says so ({@link SampleQuality#floorStopped()}); its verdict still judges
 * every generation that ran, and its figures are never ranked (they are floored).
 */
@PublicApi
public final class FloorStop {
    /** The fewest waits that establish a floor. */
    public static final int RUNS = 3;

    private FloorStop() {
    }

    /**
     * Whether a loop stops before its next run.
     *
     * @param waits             the loop's waits so far
     * @param timerResolutionMs the clock's measured step
     * @param readbackMs        the measured empty readback round trip (NaN where none applies)
     * @param exact             the loop runs exact counts (no least duration): never cut
     */
    public static boolean stops(double[] waits, double timerResolutionMs, double readbackMs, boolean exact) {
        return !exact && waits.length >= RUNS && readbackMs > 0
                && LatencyFloor.of(waits, timerResolutionMs, readbackMs) == readbackMs;
    }
}
