package dev.accelbridge.core;

import org.apache.commons.math3.special.Beta;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * How far a case's timed samples can be trusted: which percentiles they support, the median's interval, the interval of
 * a ratio of two medians and whether the case had reached steady state (whether they sit on a floor: {@link LatencyFloor}). Pure; the
 * rules are stated in docs/scoring.md ("Figures and their uncertainty").
 */
@PublicApi
public final class SampleStats {
    /** Each tail of a two-sided 95 % interval. */
    public static final double TAIL = 0.025;
    /** Bootstrap draws of a ratio's interval. */
    public static final int BOOTSTRAP_DRAWS = 4000;
    /** The fewest samples a steady-state check is made on (two halves of five). */
    public static final int STEADY_MIN_SAMPLES = 10;
    /**
     * A trend smaller than this (second half's median against the first's) is steady whatever its p-value: the change a
     * comparison calls significant ({@link #CHANGE_THRESHOLD}), since a smaller drift cannot make one.
     */
    public static final double STEADY_TREND = 0.10;
    /** The significance a trend must reach (Mann–Whitney U of the halves or Mann–Kendall, two-sided) to call a case not steady. */
    public static final double STEADY_P = 0.01;
    /** A median closer than this many timer ticks to zero is quantized by the timer. */
    public static final int TIMER_TICKS = 5;

    private SampleStats() {
    }

    /**
     * The fewest samples whose equal-tailed 95 % order-statistic interval for the {@code q} quantile lies inside the
     * sample: {@code max(q, 1 − q)^n ≤ 2.5 %}. p50 needs 6, p90 36, p99 368.
     */
    public static int samplesNeeded(double q) {
        double m = Math.max(q, 1 - q);
        int n = 1;
        while (Math.pow(m, n) > TAIL) {
            n++;
        }
        return n;
    }

    /** Whether {@code n} samples support the {@code q} quantile ({@link #samplesNeeded}). */
    public static boolean supports(int n, double q) {
        return n >= samplesNeeded(q);
    }

    /**
     * The distribution-free 95 % interval of the {@code q} quantile from order statistics: {@code [x(l), x(u)]} with
     * {@code P(B ≤ l−1) ≤ 2.5 %} and {@code P(B ≥ u) ≤ 2.5 %}, {@code B ~ Binomial(n, q)}; null when the sample does not
     * support it.
     *
     * @param sorted the samples in ascending order
     */
    public static Interval quantileCi(double[] sorted, double q) {
        int n = sorted.length;
        if (!supports(n, q)) {
            return null;
        }
        BinomialDistribution b = new BinomialDistribution(null, n, q);
        int k = 0; // l − 1: the largest k with P(B ≤ k) ≤ TAIL
        while (k + 1 < n && b.cumulativeProbability(k + 1) <= TAIL) {
            k++;
        }
        int u = n; // the smallest u with P(B ≤ u − 1) ≥ 1 − TAIL
        while (u - 1 > k + 1 && b.cumulativeProbability(u - 2) >= 1 - TAIL) {
            u--;
        }
        return new Interval(sorted[k], sorted[u - 1]);
    }

    /**
     * The bootstrap 95 % interval of {@code median(other) / median(base)} (percentile method, {@link #BOOTSTRAP_DRAWS}
     * draws). Each draw takes each side's resampled median from its exact distribution (the ⌈n/2⌉-th order statistic of
     * n draws with replacement: {@code P(J ≤ j) = P(Binomial(n, j/n) ≥ ⌈n/2⌉)}), so a draw costs a binary search, not a
     * resample. The draws are seeded from the samples themselves: the same samples give the same interval. Null when
     * either side has fewer samples than a median's interval needs, or a non-positive median.
     */
    public static Interval ratioCi(double[] base, double[] other) {
        return geomeanRatioCi(java.util.List.of(base == null ? new double[0] : base),
                java.util.List.of(other == null ? new double[0] : other));
    }

    /**
     * The bootstrap 95 % interval of {@code mean(other) / mean(base)}, or of {@code mean(other)} when {@code base} is null
     * (percentile method, 2000 resamples of each side, seeded from the samples): what a mean-based figure such as tokens per
     * second (1000 / mean inter-token latency) is given. Null below 6 samples a side or for a non-positive mean.
     */
    public static Interval meanRatioCi(double[] base, double[] other) {
        if (other == null || other.length < 6 || base != null && base.length < 6) {
            return null;
        }
        SplittableRandom rnd = new SplittableRandom(31L * Arrays.hashCode(other) + (base == null ? 0 : Arrays.hashCode(base)));
        double[] r = new double[2000];
        for (int i = 0; i < r.length; i++) {
            double b = base == null ? 1 : resampledMean(base, rnd);
            r[i] = resampledMean(other, rnd) / b;
            if (!(r[i] > 0) || Double.isInfinite(r[i])) {
                return null;
            }
        }
        Arrays.sort(r);
        return new Interval(Timings.percentile(r, 100 * TAIL), Timings.percentile(r, 100 * (1 - TAIL)));
    }

    private static double resampledMean(double[] x, SplittableRandom rnd) {
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            sum += x[rnd.nextInt(x.length)];
        }
        return sum / x.length;
    }

    /**
     * The same for the geometric mean of several such ratios ({@code bases.get(m)} against {@code others.get(m)}, one
     * pair per model): each draw resamples every pair's medians. Null when any pair lacks what {@link #ratioCi} needs.
     */
    public static Interval geomeanRatioCi(java.util.List<double[]> bases, java.util.List<double[]> others) {
        int m = bases.size();
        if (m == 0 || others.size() != m) {
            return null;
        }
        double[][] a = new double[m][];
        double[][] b = new double[m][];
        double[][] ca = new double[m][];
        double[][] cb = new double[m][];
        long seed = 17;
        for (int k = 0; k < m; k++) {
            if (bases.get(k) == null || others.get(k) == null || !supports(bases.get(k).length, 0.5)
                    || !supports(others.get(k).length, 0.5)) {
                return null;
            }
            a[k] = sorted(bases.get(k));
            b[k] = sorted(others.get(k));
            if (!(a[k][0] > 0) || !(b[k][0] > 0)) {
                return null;
            }
            ca[k] = medianIndexCdf(a[k].length);
            cb[k] = medianIndexCdf(b[k].length);
            seed = 31 * (31 * seed + Arrays.hashCode(a[k])) + Arrays.hashCode(b[k]);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] r = new double[BOOTSTRAP_DRAWS];
        for (int i = 0; i < r.length; i++) {
            double log = 0;
            for (int k = 0; k < m; k++) {
                log += Math.log(b[k][draw(cb[k], rnd.nextDouble())] / a[k][draw(ca[k], rnd.nextDouble())]);
            }
            r[i] = Math.exp(log / m);
        }
        Arrays.sort(r);
        return new Interval(Timings.percentile(r, 100 * TAIL), Timings.percentile(r, 100 * (1 - TAIL)));
    }

    /** The smallest change a comparison calls significant unless told otherwise: 10 % (the regression threshold's default). */
    public static final double CHANGE_THRESHOLD = 0.10;

    /**
     * Whether a ratio of medians is a significant change: its 95 % interval excludes 1 (no change) AND the ratio itself
     * differs from 1 by more than {@code threshold} either way ({@code |log r| > log(1 + threshold)}). No interval: never.
     */
    public static boolean significant(double ratio, Interval ci, double threshold) {
        return ci != null && ci.excludes(1) && ratio > 0 && Math.abs(Math.log(ratio)) > Math.log1p(threshold);
    }

    /** The two-sided error rate of an interval that takes in run-to-run noise: 0.2 %, the regression detector's. */
    public static final double RUN_ALPHA = 0.002;
    /** The fewest run-level figures a run-to-run noise is estimated from. */
    public static final int NOISE_MIN_RUNS = 3;

    /** The standard deviation of the logs of run-level p50s (a cell's run-to-run noise); NaN below {@link #NOISE_MIN_RUNS}. */
    public static double runNoise(double[] p50s) {
        double[] logs = Arrays.stream(p50s).filter(v -> Double.isFinite(v) && v > 0).map(Math::log).toArray();
        int n = logs.length;
        if (n < NOISE_MIN_RUNS) {
            return Double.NaN;
        }
        double mean = Arrays.stream(logs).average().orElse(0);
        double ss = Arrays.stream(logs).map(l -> (l - mean) * (l - mean)).sum();
        return Math.sqrt(ss / (n - 1));
    }

    /**
     * A ratio's interval that also holds run-to-run noise: the within-run (bootstrap) interval, widened on each side to
     * {@code ratio × exp(±t(n−1, 1 − α/2) × logSd)}, where {@code logSd} is the noise of the log ratio (for two single
     * runs of one cell, √2 × its run-to-run noise) estimated from {@code runs} run-level figures. Without an estimate
     * ({@code logSd} NaN) the within-run interval alone.
     */
    public static Interval withRunNoise(double ratio, Interval within, double logSd, int runs) {
        if (!Double.isFinite(logSd) || runs < NOISE_MIN_RUNS || !(ratio > 0)) {
            return within;
        }
        double t = new org.apache.commons.math3.distribution.TDistribution(null, runs - 1)
                .inverseCumulativeProbability(1 - RUN_ALPHA / 2);
        double lo = ratio * Math.exp(-t * logSd);
        double hi = ratio * Math.exp(t * logSd);
        return within == null ? new Interval(lo, hi) : new Interval(Math.min(lo, within.lo()), Math.max(hi, within.hi()));
    }

    /** {@code cdf[j] = P(resampled median index ≤ j)}, 0-based. */
    private static double[] medianIndexCdf(int n) {
        int m = (n + 1) / 2;
        double[] cdf = new double[n];
        for (int j = 1; j <= n; j++) {
            // P(at least m of n draws fall at or below position j) = I_{j/n}(m, n − m + 1)
            cdf[j - 1] = j == n ? 1 : Beta.regularizedBeta((double) j / n, m, n - m + 1);
        }
        return cdf;
    }

    private static int draw(double[] cdf, double u) {
        int i = Arrays.binarySearch(cdf, u);
        return Math.min(cdf.length - 1, i >= 0 ? i : -i - 1);
    }

    /**
     * Steady state from the timed samples in the order measured: the second half's median against the first half's. A
     * case is not steady when the two differ by more than {@link #STEADY_TREND} and either a two-sided Mann–Whitney U test
     * of the halves (a step) or a two-sided Mann–Kendall test of the whole series (a gradual drift, which the halves'
     * test misses at ten samples) gives {@code p < } {@link #STEADY_P}; null (not judged) below
     * {@link #STEADY_MIN_SAMPLES} samples. The warm-up before them is judged on its own ({@link Settling}).
     */
    public static Steadiness steadiness(double[] inOrder) {
        int n = inOrder.length;
        if (n < STEADY_MIN_SAMPLES) {
            return null;
        }
        double[] first = Arrays.copyOfRange(inOrder, 0, n / 2);
        double[] second = Arrays.copyOfRange(inOrder, n - n / 2, n);
        double m1 = Timings.percentile(sorted(first), 50);
        double m2 = Timings.percentile(sorted(second), 50);
        double trend = m1 > 0 ? m2 / m1 - 1 : 0;
        boolean constant = Arrays.stream(inOrder).distinct().count() < 2;
        double p = constant ? 1 : Math.min(new MannWhitneyUTest().mannWhitneyUTest(first, second), mannKendallP(inOrder));
        return new Steadiness(!(Math.abs(trend) > STEADY_TREND && p < STEADY_P), trend, p);
    }

    /**
     * The two-sided p-value of the Mann–Kendall test for a monotone trend in {@code x} (in order), with the variance
     * corrected for ties (timer steps make many), by the normal approximation with continuity correction.
     */
    public static double mannKendallP(double[] x) {
        int n = x.length;
        long s = 0;
        for (int i = 0; i < n - 1; i++) {
            for (int j = i + 1; j < n; j++) {
                s += Double.compare(x[j], x[i]) > 0 ? 1 : Double.compare(x[j], x[i]) < 0 ? -1 : 0;
            }
        }
        double var = n * (n - 1.0) * (2 * n + 5) / 18;
        double[] sorted = sorted(x);
        for (int i = 0; i < n; ) {
            int j = i;
            while (j < n && sorted[j] == sorted[i]) {
                j++;
            }
            long t = j - i;
            var -= t * (t - 1.0) * (2 * t + 5) / 18;
            i = j;
        }
        if (var <= 0 || s == 0) {
            return 1;
        }
        double z = (s - Math.signum(s)) / Math.sqrt(var);
        return 2 * (1 - new org.apache.commons.math3.distribution.NormalDistribution().cumulativeProbability(Math.abs(z)));
    }

    /**
     * The result of {@link #steadiness}.
     *
     * @param steady whether the case had reached steady state
     * @param trend  second half's median over the first half's, minus one
     * @param p      the smaller of the Mann–Whitney U and Mann–Kendall tests' two-sided p-values
     */
    public record Steadiness(boolean steady, double trend, double p) {
    }

    private static double[] sorted(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s;
    }
}
