package dev.accelbridge.core;

import java.util.Arrays;
import java.util.List;

/**
 * Timing figures of one case, all in milliseconds, all measured where the inference happens (inside the
 * page around {@code session.run}, or around the native call), so harness overhead is not counted.
 *
 * @param loadMs        model load / session creation
 * @param firstMs       the first inference after load (includes shader compilation on WebGPU)
 * @param warmups       warm-up iterations run and discarded
 * @param samplesMs     every timed iteration, in order
 * @param p50Ms         median of the samples
 * @param p90Ms         90th percentile
 * @param p99Ms         99th percentile
 * @param meanMs        mean
 * @param stddevMs      sample standard deviation
 * @param throughputPerSec iterations per second over the timed iterations ({@code 1000 / mean})
 */
public record Timings(double loadMs, double firstMs, int warmups, double[] samplesMs, double p50Ms, double p90Ms,
                      double p99Ms, double meanMs, double stddevMs, double throughputPerSec) {

    /** Computes the summary statistics from raw samples. */
    public static Timings of(double loadMs, double firstMs, int warmups, double[] samplesMs) {
        if (samplesMs.length == 0) {
            return new Timings(loadMs, firstMs, warmups, samplesMs, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN);
        }
        double[] s = samplesMs.clone();
        Arrays.sort(s);
        double mean = Arrays.stream(s).average().orElse(Double.NaN);
        double var = 0;
        for (double v : s) {
            var += (v - mean) * (v - mean);
        }
        double sd = s.length > 1 ? Math.sqrt(var / (s.length - 1)) : 0;
        return new Timings(loadMs, firstMs, warmups, samplesMs.clone(), percentile(s, 50), percentile(s, 90),
                percentile(s, 99), mean, sd, mean > 0 ? 1000.0 / mean : Double.NaN);
    }

    /** Same, from a list. */
    public static Timings of(double loadMs, double firstMs, int warmups, List<Double> samplesMs) {
        return of(loadMs, firstMs, warmups, samplesMs.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Linear-interpolated percentile (the "R-7" definition used by numpy) of sorted values. */
    public static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double h = (sorted.length - 1) * p / 100.0;
        int lo = (int) Math.floor(h);
        int hi = (int) Math.ceil(h);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    /** Number of timed iterations. */
    public int iterations() {
        return samplesMs.length;
    }
}
