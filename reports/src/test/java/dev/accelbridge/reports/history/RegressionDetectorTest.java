package dev.accelbridge.reports.history;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Constructed histories with realistic run-to-run noise (log-normal, as measured latencies are): the detector must
 * not flag noise alone and must flag a real slowdown.
 */
class RegressionDetectorTest {
    private final RegressionDetector d = RegressionDetector.defaults();

    /** p50s of {@code n} runs around {@code median} with relative run-to-run noise {@code sigma}. */
    private static double[] runs(double median, double sigma, int n, SplittableRandom rnd) {
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = median * Math.exp(sigma * gaussian(rnd));
        }
        return out;
    }

    private static double gaussian(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    @Test
    void noiseAloneIsNeverFlagged() {
        SplittableRandom rnd = new SplittableRandom(7);
        int flagged = 0;
        for (int trial = 0; trial < 300; trial++) {
            double sigma = new double[]{0.02, 0.05, 0.08}[trial % 3];
            double[] history = runs(10.0, sigma, 8, rnd);
            double current = runs(10.0, sigma, 1, rnd)[0];
            if (d.assess(history, current).kind() != ChangeKind.UNCHANGED) {
                flagged++;
            }
        }
        assertThat(flagged).as("false alarms in 300 noise-only trials").isZero();
    }

    @Test
    void aRealThirtyPercentSlowdownIsFlagged() {
        SplittableRandom rnd = new SplittableRandom(11);
        int caught = 0;
        for (int trial = 0; trial < 200; trial++) {
            double[] history = runs(10.0, 0.04, 10, rnd); // the default window: the last 10 runs
            double current = runs(13.0, 0.04, 1, rnd)[0];
            Change c = d.assess(history, current);
            if (c.kind() == ChangeKind.REGRESSION) {
                caught++;
            }
        }
        // power, not certainty: the newest run is itself noisy (4 %), and the bound must hold noise at 0.2 %
        assertThat(caught).as("30 %% slowdowns caught of 200").isGreaterThanOrEqualTo(180);
        Change c = d.assess(new double[]{10, 10.2, 9.9, 10.1, 9.8}, 13.0);
        assertThat(c.kind()).isEqualTo(ChangeKind.REGRESSION);
        assertThat(c.ratio()).isCloseTo(1.3, within(0.002));
        assertThat(c.baselineRuns()).isEqualTo(5);
        assertThat(c.percent()).startsWith("+30.");
    }

    @Test
    void aSlowdownWithinTheCellsOwnNoiseIsNotFlagged() {
        // a cell whose runs swing by ±20 % (a software WebGPU adapter on a busy machine): +30 % is inside 3× its noise
        double[] history = {10, 12.5, 8.4, 11.8, 9.1, 12.2, 8.2, 10.9};
        Change c = d.assess(history, 13.5);
        assertThat(c.noise()).isGreaterThan(0.1);
        assertThat(c.bound()).isGreaterThan(0.35);
        assertThat(c.kind()).isEqualTo(ChangeKind.UNCHANGED);
    }

    @Test
    void aQuietCellStillNeedsTheThreshold() {
        double[] history = {10, 10, 10, 10, 10};
        assertThat(d.assess(history, 10.5).kind()).isEqualTo(ChangeKind.UNCHANGED);
        assertThat(d.withThreshold(0.02).assess(history, 10.5).kind()).isEqualTo(ChangeKind.REGRESSION);
        assertThat(d.assess(history, 7.0).kind()).isEqualTo(ChangeKind.IMPROVEMENT);
    }

    @Test
    void tooFewEarlierRunsIsNotEnoughHistory() {
        Change c = d.assess(new double[]{10, 10}, 30);
        assertThat(c.kind()).isEqualTo(ChangeKind.INSUFFICIENT_DATA);
        assertThat(c.kind().label()).isEqualTo("not enough history");
        assertThat(d.assess(new double[0], 1).kind()).isEqualTo(ChangeKind.INSUFFICIENT_DATA);
    }

    @Test
    void onlyTheNewestWindowCounts() {
        double[] history = new double[30];
        for (int i = 0; i < 30; i++) {
            history[i] = i < 20 ? 5.0 : 10.0; // the cell got slower long ago; the baseline is its recent runs
        }
        assertThat(d.assess(history, 10.2).kind()).isEqualTo(ChangeKind.UNCHANGED);
        assertThat(d.assess(history, 10.2).baselineP50()).isCloseTo(10.0, within(1e-9));
    }
}
