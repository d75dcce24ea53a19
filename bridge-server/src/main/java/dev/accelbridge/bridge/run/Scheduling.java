package dev.accelbridge.bridge.run;

/**
 * How the browser cases are scheduled.
 *
 * @param parallel browser lanes at once, each with its own browser and page
 * @param retries  re-runs of a FAILED case on a fresh page (a fresh browser when it crashed); one that passes on a
 *                 re-run is flaky, never silently PASSED
 */
public record Scheduling(int parallel, int retries) {
    /** One lane, no retry. */
    public static final Scheduling SERIAL = new Scheduling(1, 0);
}
