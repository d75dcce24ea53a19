package dev.accelbridge.reports.history;

/**
 * The comparison of a cell's current samples with its baseline samples.
 *
 * @param kind          the verdict
 * @param baselineP50   median of the baseline samples (ms)
 * @param currentP50    median of the current samples (ms)
 * @param ratio         currentP50 / baselineP50 (&gt; 1: slower)
 * @param pValue        two-sided Mann-Whitney U p-value (NaN when not computed)
 * @param ciLow         lower bound of the bootstrap CI of the median ratio (NaN when not computed)
 * @param ciHigh        upper bound of that CI
 * @param baselineRunId the run compared against (null when given as raw samples)
 */
public record Change(ChangeKind kind, double baselineP50, double currentP50, double ratio, double pValue, double ciLow,
                     double ciHigh, String baselineRunId) {
    /** The same with the baseline run named. */
    public Change against(String runId) {
        return new Change(kind, baselineP50, currentP50, ratio, pValue, ciLow, ciHigh, runId);
    }

    /** "+23.4 %" / "−12.0 %". */
    public String percent() {
        double pct = (ratio - 1) * 100;
        return String.format(java.util.Locale.ROOT, "%+.1f %%", pct);
    }
}
