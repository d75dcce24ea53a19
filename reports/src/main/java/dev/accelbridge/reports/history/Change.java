package dev.accelbridge.reports.history;

import dev.accelbridge.core.PublicApi;

/**
 * The comparison of a cell's newest run with its earlier runs (run-level p50s).
 *
 * @param kind          the verdict
 * @param baselineP50   geometric mean of the earlier runs' p50s (ms); NaN when there are none
 * @param currentP50    this run's p50 (ms)
 * @param ratio         currentP50 / baselineP50 (&gt; 1: slower)
 * @param noise         the run-to-run noise of the earlier runs: the standard deviation of their log p50 (≈ relative); NaN when unknown
 * @param bound         the relative change that had to be exceeded: the threshold or the prediction interval, whichever is wider
 * @param baselineRuns  how many earlier runs the baseline has
 * @param baselineRunId the newest earlier run (null when none)
 */
@PublicApi
public record Change(ChangeKind kind, double baselineP50, double currentP50, double ratio, double noise, double bound,
                     int baselineRuns, String baselineRunId) {
    /** The same with the newest baseline run named. */
    public Change against(String runId) {
        return new Change(kind, baselineP50, currentP50, ratio, noise, bound, baselineRuns, runId);
    }

    /** "+23.4 %" / "−12.0 %". */
    public String percent() {
        double pct = (ratio - 1) * 100;
        return String.format(java.util.Locale.ROOT, "%+.1f %%", pct);
    }
}
