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
 * @param p90Ms         90th percentile, NaN when the samples do not support it ({@link SampleStats#samplesNeeded})
 * @param p99Ms         99th percentile, NaN when the samples do not support it
 * @param meanMs        mean
 * @param stddevMs      sample standard deviation
 * @param throughputPerSec iterations per second over the timed iterations ({@code 1000 / mean})
 * @param quality       how far these figures can be trusted (interval, clock, floor, steady state, load)
 * @param figures       what the case's scenario adds: nothing for a single pass ({@link ScenarioFigures#SINGLE_PASS}), a
 *                      generation's own figures ({@link Decoding}: TTFT, inter-token latency, tokens/s, the cold generation,
 *                      the KV cache). A generation's samples are its timed generations' whole times, its
 *                      first is the cold generation's
 */
public record Timings(double loadMs, double firstMs, int warmups, double[] samplesMs, double p50Ms, double p90Ms,
                      double p99Ms, double meanMs, double stddevMs, double throughputPerSec, SampleQuality quality,
                      ScenarioFigures figures) {
    public Timings {
        quality = quality == null ? SampleQuality.UNKNOWN : quality;
        figures = figures == null ? ScenarioFigures.SINGLE_PASS : figures;
    }

    /** Figures of a single pass. */
    public Timings(double loadMs, double firstMs, int warmups, double[] samplesMs, double p50Ms, double p90Ms,
                   double p99Ms, double meanMs, double stddevMs, double throughputPerSec, SampleQuality quality) {
        this(loadMs, firstMs, warmups, samplesMs, p50Ms, p90Ms, p99Ms, meanMs, stddevMs, throughputPerSec, quality,
                ScenarioFigures.SINGLE_PASS);
    }

    /**
     * These figures with a generation's own. A generation's figures sit on a latency floor when its inter-token latencies
     * do (a polled readback of each step's logits: Firefox's WebGPU reads back at 100 ms), though its whole generations do
     * not: the floor is judged on them too ({@link LatencyFloor#of}), so the case is never ranked on it.
     */
    public Timings withDecoding(Decoding d) {
        java.util.Objects.requireNonNull(d, "a generation's figures");
        double floor = Double.isFinite(quality.latencyFloorMs()) ? Double.NaN
                : LatencyFloor.of(d.itlMs(), quality.timerResolutionMs(), quality.readbackMs());
        SampleQuality q = Double.isFinite(floor) ? quality.withLatencyFloor(floor) : quality;
        return new Timings(loadMs, firstMs, warmups, samplesMs, p50Ms, p90Ms, p99Ms, meanMs, stddevMs, throughputPerSec, q, d);
    }

    /** Figures whose quality is not known (read from a record that predates it). */
    public Timings(double loadMs, double firstMs, int warmups, double[] samplesMs, double p50Ms, double p90Ms,
                   double p99Ms, double meanMs, double stddevMs, double throughputPerSec) {
        this(loadMs, firstMs, warmups, samplesMs, p50Ms, p90Ms, p99Ms, meanMs, stddevMs, throughputPerSec, SampleQuality.UNKNOWN);
    }

    /**
     * Computes the summary statistics from raw samples: p90 and p99 only where the count supports them, the median's
     * interval and steady state ({@link SampleQuality}).
     */
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
        int n = s.length;
        return new Timings(loadMs, firstMs, warmups, samplesMs.clone(), percentile(s, 50),
                SampleStats.supports(n, 0.9) ? percentile(s, 90) : Double.NaN,
                SampleStats.supports(n, 0.99) ? percentile(s, 99) : Double.NaN, mean, sd, mean > 0 ? 1000.0 / mean : Double.NaN,
                SampleQuality.UNKNOWN.fromSamples(samplesMs));
    }

    /** Same, from a list. */
    public static Timings of(double loadMs, double firstMs, int warmups, List<Double> samplesMs) {
        return of(loadMs, firstMs, warmups, samplesMs.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** A time in ms as the tables write it: {@code 123}, {@code 12.34}, {@code 0.123} (three figures or so). */
    public static String formatMs(double v) {
        return v >= 100 ? String.format(java.util.Locale.ROOT, "%.0f", v) : v >= 1 ? String.format(java.util.Locale.ROOT, "%.2f", v)
                : String.format(java.util.Locale.ROOT, "%.3f", v);
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

    /** These figures with the clock that timed them and, on WebGPU, the measured readback round trip (floor detection). */
    public Timings withClock(double timerResolutionMs, double readbackMs) {
        return withQuality(quality.withClock(timerResolutionMs, readbackMs).fromSamples(samplesMs));
    }

    /** These figures with another quality. */
    public Timings withQuality(SampleQuality q) {
        return new Timings(loadMs, firstMs, warmups, samplesMs, p50Ms, p90Ms, p99Ms, meanMs, stddevMs, throughputPerSec, q, figures);
    }

    /** These figures with other samples (the store reads them apart from the row). */
    public Timings withSamples(double[] samples) {
        return new Timings(loadMs, firstMs, warmups, samples, p50Ms, p90Ms, p99Ms, meanMs, stddevMs, throughputPerSec, quality, figures);
    }

    /** Number of timed iterations. */
    public int iterations() {
        return samplesMs.length;
    }
}
