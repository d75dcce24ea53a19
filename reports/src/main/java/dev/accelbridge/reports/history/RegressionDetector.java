package dev.accelbridge.reports.history;

import dev.accelbridge.core.PublicApi;
import org.apache.commons.math3.distribution.TDistribution;

import java.util.Arrays;

/**
 * Decides whether a cell (one case identity on one host) got slower or faster, from run-level figures: the p50 of
 * each of its last {@code window} earlier runs against the newest run's p50. Timed iterations inside one run are not
 * independent evidence across runs (a run shares its browser, its warm-up, its neighbours on the machine), so it is
 * the run-to-run spread that a change must beat. Pure.
 *
 * <p>Latencies are compared on a log scale. With {@code g} the mean of the earlier runs' log p50 (their geometric
 * mean), {@code s} their standard deviation (the run-to-run noise, relative) and {@code n} their count, the newest
 * run is a change only when {@code |log(current) − g|} exceeds BOTH {@code log(1 + threshold)} (default 10 %) AND the
 * half-width of a two-sided {@code 1 − alpha} prediction interval for one more run,
 * {@code t(n−1, 1 − alpha/2) × s × sqrt(1 + 1/n)} (alpha default 0.002: noise alone is flagged at most 0.2 % of the
 * time, when the runs' noise is log-normal). Fewer than {@code minRuns} (default 3) earlier runs:
 * {@link ChangeKind#INSUFFICIENT_DATA}, said as "not enough history", never a guess.
 *
 * @param threshold relative change below which nothing is reported ({@code --regression-threshold})
 * @param alpha     the false-alarm rate allowed on noise alone
 * @param minRuns   earlier runs needed
 * @param window    earlier runs used (the newest ones)
 */
@PublicApi
public record RegressionDetector(double threshold, double alpha, int minRuns, int window) {
    /** 10 %, alpha 0.002, at least 3 earlier runs, the last 10. */
    public static RegressionDetector defaults() {
        return new RegressionDetector(0.10, 0.002, 3, 10);
    }

    /** The defaults with another threshold (e.g. {@code --regression-threshold 0.2}). */
    public RegressionDetector withThreshold(double t) {
        return new RegressionDetector(t, alpha, minRuns, window);
    }

    /**
     * Compares the newest run with the earlier ones.
     *
     * @param earlierP50s the p50 (ms) of each earlier run of the cell, oldest first
     * @param currentP50  the newest run's p50 (ms)
     */
    public Change assess(double[] earlierP50s, double currentP50) {
        double[] base = earlierP50s.length > window
                ? Arrays.copyOfRange(earlierP50s, earlierP50s.length - window, earlierP50s.length) : earlierP50s.clone();
        double[] logs = Arrays.stream(base).filter(v -> Double.isFinite(v) && v > 0).map(Math::log).toArray();
        int n = logs.length;
        double g = n == 0 ? Double.NaN : Arrays.stream(logs).average().orElse(Double.NaN);
        double m = Math.exp(g);
        double ratio = m > 0 ? currentP50 / m : Double.NaN;
        if (n < minRuns || !(currentP50 > 0)) {
            return new Change(ChangeKind.INSUFFICIENT_DATA, m, currentP50, ratio, Double.NaN, Double.NaN, n, null);
        }
        double ss = 0;
        for (double l : logs) {
            ss += (l - g) * (l - g);
        }
        double s = Math.sqrt(ss / (n - 1));
        double t = new TDistribution(n - 1).inverseCumulativeProbability(1 - alpha / 2);
        double halfWidth = t * s * Math.sqrt(1 + 1.0 / n);
        double boundLog = Math.max(Math.log1p(threshold), halfWidth);
        double d = Math.log(currentP50) - g;
        ChangeKind kind = d > boundLog ? ChangeKind.REGRESSION : d < -boundLog ? ChangeKind.IMPROVEMENT : ChangeKind.UNCHANGED;
        return new Change(kind, m, currentP50, ratio, s, Math.expm1(boundLog), n, null);
    }

    /** Median (NaN for no values). */
    public static double median(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
