package dev.accelbridge.reports.history;

import org.junit.jupiter.api.Test;

import static dev.accelbridge.reports.Fixtures.samples;
import static org.assertj.core.api.Assertions.assertThat;

class RegressionDetectorTest {
    private final RegressionDetector d = RegressionDetector.defaults();

    @Test
    void aRealTwentyPercentSlowdownIsFlagged() {
        double[] before = samples(10.0, 0.05, 40, 1);
        double[] after = samples(12.0, 0.05, 40, 2);
        Change c = d.compare(before, after);
        assertThat(c.kind()).isEqualTo(ChangeKind.REGRESSION);
        assertThat(c.ratio()).isBetween(1.15, 1.25);
        assertThat(c.pValue()).isLessThan(0.01);
        assertThat(c.ciLow()).isGreaterThan(1.0);
        assertThat(c.percent()).startsWith("+");
    }

    @Test
    void sameMedianWithNoiseOnlyIsNotFlagged() {
        for (long seed = 0; seed < 20; seed++) {
            double[] before = samples(10.0, 0.30, 30, seed);
            double[] after = samples(10.0, 0.30, 30, seed + 1000);
            Change c = d.compare(before, after);
            assertThat(c.kind()).as("seed " + seed + " ratio " + c.ratio()).isIn(ChangeKind.UNCHANGED);
        }
    }

    @Test
    void aBigMedianShiftOnTooFewNoisySamplesIsNotFlagged() {
        // 20 % apart on medians, but the spread is so wide that the test cannot tell it from noise
        double[] before = {5, 15, 10, 2, 18, 9};
        double[] after = {6, 16, 12, 3, 19, 11};
        Change c = d.compare(before, after);
        assertThat(c.ratio()).isGreaterThan(1.1);
        assertThat(c.kind()).isEqualTo(ChangeKind.UNCHANGED);
        assertThat(c.pValue()).isGreaterThan(0.01);
    }

    @Test
    void aSignificantButSmallSlowdownIsBelowTheThreshold() {
        double[] before = samples(10.0, 0.01, 100, 3);
        double[] after = samples(10.5, 0.01, 100, 4);
        assertThat(d.compare(before, after).kind()).isEqualTo(ChangeKind.UNCHANGED);
        assertThat(d.withThreshold(0.02).compare(before, after).kind()).isEqualTo(ChangeKind.REGRESSION);
    }

    @Test
    void anImprovementIsReportedAsOne() {
        double[] before = samples(10.0, 0.05, 40, 5);
        double[] after = samples(7.0, 0.05, 40, 6);
        Change c = d.compare(before, after);
        assertThat(c.kind()).isEqualTo(ChangeKind.IMPROVEMENT);
        assertThat(c.ciHigh()).isLessThan(1.0);
        assertThat(c.percent()).startsWith("-");
    }

    @Test
    void tooFewSamplesIsInsufficient() {
        assertThat(d.compare(new double[]{1, 2}, new double[]{5, 6, 7, 8, 9}).kind()).isEqualTo(ChangeKind.INSUFFICIENT_DATA);
    }

    @Test
    void seededBootstrapIsDeterministic() {
        double[] before = samples(10.0, 0.05, 40, 1);
        double[] after = samples(12.0, 0.05, 40, 2);
        assertThat(d.compare(before, after)).isEqualTo(d.compare(before, after));
    }
}
