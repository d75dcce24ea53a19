package dev.accelbridge.bridge.run;

/**
 * How the browser cases are scheduled.
 *
 * @param parallel browser lanes at once, each with its own browser and page
 * @param retries  re-runs of a FAILED case on a fresh page (a fresh browser when it crashed); one that passes on a
 *                 re-run is flaky, never silently PASSED
 * @param maxResultBytes the most bytes a browser case's outputs may total when the model does not declare their sizes
 *                 ({@code --max-result-mb}); a model that declares them gets exactly that budget
 */
public record Scheduling(int parallel, int retries, long maxResultBytes) {
    /** One lane, no retry, the default result cap. */
    public static final Scheduling SERIAL = new Scheduling(1, 0);

    /** Lanes and retries with the default result cap (2 GiB). */
    public Scheduling(int parallel, int retries) {
        this(parallel, retries, dev.accelbridge.bridge.server.OutputBudget.DEFAULT_CAP);
    }
}
