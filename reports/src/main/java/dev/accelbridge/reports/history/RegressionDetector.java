package dev.accelbridge.reports.history;

import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Decides whether a cell got slower (or faster) between two runs, on their raw timed samples. Pure.
 *
 * <p>A change is reported only when BOTH hold:
 * <ol>
 *   <li>the median moved by more than {@code threshold} (default 10 %): {@code current/baseline > 1 + t} for a
 *       regression, {@code < 1 / (1 + t)} for an improvement;</li>
 *   <li>it is significant: the two-sided Mann-Whitney U test (commons-math3) gives {@code p < alpha}
 *       (default 0.01) AND the percentile bootstrap confidence interval (level {@code 1 − alpha}) of the median
 *       ratio lies entirely on the same side of 1. The bootstrap resamples with a {@link SplittableRandom} seeded
 *       from {@code seed}, so the same samples always give the same answer.</li>
 * </ol>
 * Fewer than {@code minSamples} (default 5) samples on either side: {@link ChangeKind#INSUFFICIENT_DATA}.
 *
 * @param threshold  relative median change below which nothing is reported
 * @param alpha      significance level
 * @param resamples  bootstrap resamples
 * @param minSamples minimum samples per side
 * @param seed       bootstrap seed
 */
public record RegressionDetector(double threshold, double alpha, int resamples, int minSamples, long seed) {
    /** 10 %, p &lt; 0.01, 2000 resamples, at least 5 samples, seed 42. */
    public static RegressionDetector defaults() {
        return new RegressionDetector(0.10, 0.01, 2000, 5, 42);
    }

    /** The defaults with another threshold (e.g. {@code --regression-threshold 0.2}). */
    public RegressionDetector withThreshold(double t) {
        return new RegressionDetector(t, alpha, resamples, minSamples, seed);
    }

    /** Compares {@code current} with {@code baseline} (both in ms). */
    public Change compare(double[] baseline, double[] current) {
        double mb = median(baseline);
        double mc = median(current);
        double ratio = mb > 0 ? mc / mb : Double.NaN;
        if (baseline.length < minSamples || current.length < minSamples || !(mb > 0)) {
            return new Change(ChangeKind.INSUFFICIENT_DATA, mb, mc, ratio, Double.NaN, Double.NaN, Double.NaN, null);
        }
        boolean slower = ratio > 1 + threshold;
        boolean faster = ratio < 1 / (1 + threshold);
        if (!slower && !faster) {
            return new Change(ChangeKind.UNCHANGED, mb, mc, ratio, Double.NaN, Double.NaN, Double.NaN, null);
        }
        double p = new MannWhitneyUTest().mannWhitneyUTest(baseline, current);
        if (!(p < alpha)) {
            return new Change(ChangeKind.UNCHANGED, mb, mc, ratio, p, Double.NaN, Double.NaN, null);
        }
        double[] ci = bootstrapRatioCi(baseline, current);
        boolean significant = slower ? ci[0] > 1 : ci[1] < 1;
        ChangeKind k = !significant ? ChangeKind.UNCHANGED : slower ? ChangeKind.REGRESSION : ChangeKind.IMPROVEMENT;
        return new Change(k, mb, mc, ratio, p, ci[0], ci[1], null);
    }

    /** Percentile bootstrap CI (level 1 − alpha) of median(current)/median(baseline). */
    double[] bootstrapRatioCi(double[] baseline, double[] current) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] ratios = new double[resamples];
        double[] b = new double[baseline.length];
        double[] c = new double[current.length];
        for (int i = 0; i < resamples; i++) {
            for (int k = 0; k < b.length; k++) {
                b[k] = baseline[rnd.nextInt(baseline.length)];
            }
            for (int k = 0; k < c.length; k++) {
                c[k] = current[rnd.nextInt(current.length)];
            }
            ratios[i] = medianInPlace(c) / medianInPlace(b);
        }
        Arrays.sort(ratios);
        double lo = ratios[(int) Math.floor((alpha / 2) * (resamples - 1))];
        double hi = ratios[(int) Math.ceil((1 - alpha / 2) * (resamples - 1))];
        return new double[]{lo, hi};
    }

    /** Median (NaN for no values). */
    public static double median(double[] v) {
        return v.length == 0 ? Double.NaN : medianInPlace(v.clone());
    }

    private static double medianInPlace(double[] v) {
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
