package dev.accelbridge.core;

import java.util.Arrays;

/**
 * Whether a case's samples sit on a latency floor (the timer's step, or a readback the page learns of by polling), and
 * which: the rule {@link SampleQuality#floored()} and {@link FloorStop} rest on, mirrored in the page's {@code floor.mjs}.
 * Pure.
 */
@PublicApi
public final class LatencyFloor {
    private LatencyFloor() {
    }

    /**
     * The floor the samples sit on, or NaN when none is detected:
     * <ul>
     *   <li>the timer's: the median is fewer than {@link SampleStats#TIMER_TICKS} ticks of the measured timer resolution, so the
     *   figure is the timer's granularity, not the model's time;</li>
     *   <li>a polled readback's: the side measured an empty round trip of {@code readbackMs} (WebGPU: a 4-byte buffer
     *   mapped back) that itself takes a poll's time ({@link #POLL_MS}; no device copies 4 bytes in 10 ms), so the page
     *   learns each result at a poll, and either the readback is a third of the median or at least half of the samples sit
     *   on its multiples (within 2 % of the multiple, at least two ticks) where chance would put that many there with
     *   probability below 10⁻³ (the binomial tail);</li>
     *   <li>a short readback's (under {@link #POLL_MS}, far above the timer's resolution): nothing says it is polled, so
     *   only the multiples can, and samples clustered around one time are one observation, not many. Each multiple the
     *   samples fall nearest counts once, as on when three in four of its samples sit within the tolerance, and at least
     *   {@link #SHORT_STEPS} multiples, half of them or more, must be on where chance would put that many there with
     *   probability below 10⁻³ (each multiple's own chance, the Poisson binomial tail). Found when tried: of true times
     *   between 1× and 25× a 0.4 ms readback with 1 % jitter, 20 to 29 % were labelled floored when each of fifty samples
     *   around one time counted alone; and every Chromium WebGPU case on a real GPU under three times its sub-millisecond
     *   readback would have been floored by a rule on its share of the median; and of true times 5× to 20× the same
     *   readback with 20 % jitter, 1 % were floored and 3 % of loops stopped when a multiple was on by its samples' median,
     *   which sits near the multiple whatever the times (a multiple's samples are the ones nearest it).</li>
     * </ul>
     */
    public static double of(double[] samples, double timerResolutionMs, double readbackMs) {
        if (samples.length == 0) {
            return Double.NaN;
        }
        double res = timerResolutionMs > 0 ? timerResolutionMs : 0;
        double median = Timings.percentile(sorted(samples), 50);
        if (res > 0 && median < SampleStats.TIMER_TICKS * res) {
            return res;
        }
        if (!(readbackMs > 0) || readbackMs < 10 * res || samples.length < 3) {
            return Double.NaN;
        }
        if (readbackMs >= POLL_MS) {
            return readbackMs >= median / 3 || samplesOnSteps(samples, res, readbackMs) ? readbackMs : Double.NaN;
        }
        return stepsOnMultiples(samples, res, readbackMs) ? readbackMs : Double.NaN;
    }

    /** The fewest multiples of a short readback that samples must sit on to show a floor. */
    public static final int SHORT_STEPS = 3;

    /** The tolerance around the {@code k}-th multiple of the readback: 2 % of the multiple, at least two ticks. */
    private static double tolerance(long k, double res, double readbackMs) {
        return Math.max(2 * res, 0.02 * Math.max(1, k) * readbackMs);
    }

    /** A known poll's evidence: half of the samples or more on its multiples, each sample counted alone. */
    private static boolean samplesOnSteps(double[] samples, double res, double readbackMs) {
        int on = 0;
        double window = 0;
        for (double s : samples) {
            long k = Math.round(s / readbackMs);
            double tol = tolerance(k, res, readbackMs);
            window = Math.max(window, 2 * tol / readbackMs);
            if (k >= 1 && Math.abs(s - k * readbackMs) <= tol) {
                on++;
            }
        }
        return window < 1 && 2 * on >= samples.length && Binomial.tail(samples.length, on, window) < 1e-3;
    }

    /** A short readback's evidence: the multiples the samples fall nearest, each counted once, on by most of its samples. */
    private static boolean stepsOnMultiples(double[] samples, double res, double readbackMs) {
        java.util.TreeMap<Long, java.util.List<Double>> steps = new java.util.TreeMap<>();
        for (double s : samples) {
            steps.computeIfAbsent(Math.round(s / readbackMs), k -> new java.util.ArrayList<>()).add(s);
        }
        double[] chance = new double[steps.size()];
        int on = 0;
        int i = 0;
        for (var e : steps.entrySet()) {
            long k = e.getKey();
            double tol = tolerance(k, res, readbackMs);
            chance[i++] = Math.min(1, 2 * tol / readbackMs);
            // on when three in four of its samples sit within the tolerance: the median of a multiple's samples sits near
            // the multiple whatever the times are (they are the samples nearest it), so it is no evidence of a poll
            long within = e.getValue().stream().filter(v -> Math.abs(v - k * readbackMs) <= tol).count();
            if (k >= 1 && 4 * within >= 3L * e.getValue().size()) {
                on++;
            }
        }
        return on >= SHORT_STEPS && 2 * on >= steps.size() && Binomial.poissonTail(chance, on) < 1e-3;
    }

    /** The shortest empty readback that is a poll by itself: no device takes 10 ms to copy four bytes back. */
    public static final double POLL_MS = 10;

    private static double[] sorted(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s;
    }
}
