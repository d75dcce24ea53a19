package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** When a case is warm: the warm-up goes on while the runs still get faster, and says when it gave up. Pure. */
class SettlingTest {
    /** Runs a loop over {@code runs} (ms each), the clock advancing by each run; returns the loop. */
    static Settling.Loop warm(double[] runs, int warmups, MinDurations d) {
        Settling.Loop l = new Settling.Loop(warmups, d);
        long elapsed = 0;
        int i = 0;
        while (l.more(elapsed)) {
            double ms = runs[Math.min(i++, runs.length - 1)];
            l.add(ms);
            elapsed += (long) (ms * 1e6);
        }
        return l;
    }

    /** An engine that tiers up: 160 ms runs that fall to 120 ms over the first {@code falling} runs, with noise. */
    static double[] tieringUp(int n, int falling, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            double base = i < falling ? 160 - 40.0 * i / falling : 120;
            out[i] = base * (1 + 0.02 * (r.nextDouble() - 0.5));
        }
        return out;
    }

    @Test
    void aWarmUpThatStillGetsFasterGoesOnUntilItStops() {
        MinDurations half = new MinDurations(Duration.ofMillis(500), Duration.ofMillis(500));
        // found when tried: 3 warm-ups and 0.5 s (4 runs of this model) timed it while it still fell from 156 to 121 ms
        Settling.Loop l = warm(tieringUp(200, 12, 1), 3, half);
        assertThat(l.settled()).isTrue();
        assertThat(l.done()).isGreaterThanOrEqualTo(12);
        assertThat(l.trend()).isGreaterThan(-Settling.FALL);
    }

    @Test
    void aFlatWarmUpEndsAtItsLeastDurationPlusThreeBlocks() {
        Settling.Loop l = warm(tieringUp(100, 0, 2), 3, new MinDurations(Duration.ofMillis(500), Duration.ZERO));
        assertThat(l.settled()).isTrue();
        assertThat(l.done()).isEqualTo(9); // 120 ms runs: blocks of 3, judged level at 6 and 9 runs (0.5 s takes 5 runs)
        // a sub-millisecond model judges on blocks of 100 runs, inside its least duration (whose runs stop at 1000)
        double[] fast = new double[5000];
        java.util.Arrays.fill(fast, 0.3);
        Settling.Loop f = warm(fast, 3, new MinDurations(Duration.ofMillis(500), Duration.ZERO));
        assertThat(f.settled()).isTrue();
        assertThat(f.done()).isEqualTo(MinDurations.SAMPLE_CAP + 100);
    }

    @Test
    void aWarmUpWhoseRunsStepSlowerSettlesOnlyAtItsNewLevel() {
        // found when tried: a copy of a published model judged settled after 6 warm-ups, its last block slower than the one
        // before, then timed twice as slow as its twins; a slower block is not a level either
        double[] runs = new double[200];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = i < 3 ? 120 : 180;
        }
        Settling.Loop l = warm(runs, 3, new MinDurations(Duration.ofMillis(300), Duration.ZERO));
        assertThat(l.settled()).isTrue();
        assertThat(l.done()).as("three blocks at 180 ms").isEqualTo(12);
        assertThat(l.trend()).isZero();
    }

    @Test
    void aTinyModelStillWarmingPastTheTimedLoopsCapKeepsSettling() {
        // found when tried: native bert-mini at 0.14 ms, 1000 warm-ups in 0.14 s, its last 100 runs 6 % faster than the 100
        // before, was called unsettled; it settles a few hundred runs later
        double[] runs = new double[20000];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = i < 900 ? 0.16 : 0.15; // the last 100 of its first 1000 runs 6 % faster
        }
        Settling.Loop l = warm(runs, 3, new MinDurations(Duration.ofMillis(500), Duration.ZERO));
        assertThat(l.settled()).isTrue();
        assertThat(l.done()).isBetween(MinDurations.SAMPLE_CAP + 1, Settling.MAX_RUNS);
    }

    @Test
    void aWarmUpThatNeverSettlesGivesUpAtItsCapAndSaysSo() {
        double[] falling = new double[2 * Settling.MAX_RUNS];
        for (int i = 0; i < falling.length; i++) {
            falling[i] = 100 * Math.pow(0.92, i / 3.0); // 8 % faster every three runs, for ever
        }
        Settling.Loop l = warm(falling, 3, new MinDurations(Duration.ofMillis(500), Duration.ZERO));
        assertThat(l.settled()).isFalse();
        assertThat(l.done()).isEqualTo(Settling.MAX_RUNS);
        assertThat(l.trend()).isLessThan(-Settling.FALL);
        SampleQuality q = Timings.of(1, 1, l.done(), tieringUp(20, 0, 3)).quality().withWarmup(1000, l.settled(), l.trend());
        assertThat(q.steady()).as("timed samples that look flat do not make it steady").isFalse();
        assertThat(q.trend()).isEqualTo(l.trend());
        assertThat(q.settled()).isFalse();
    }

    @Test
    void exactCountsAreNeitherExtendedNorJudged() {
        Settling.Loop l = warm(tieringUp(100, 50, 4), 3, MinDurations.NONE);
        assertThat(l.done()).isEqualTo(3);
        assertThat(l.settled()).isNull();
        assertThat(new MinDurations(Duration.ofMillis(500), Duration.ZERO).budget()).isEqualTo(Duration.ofMillis(500).plus(Settling.CAP));
        assertThat(MinDurations.NONE.budget()).isZero();
    }

    @Test
    void aGradualDriftOfTenSamplesIsNotSteady() {
        // found when tried: ten timed samples falling from 156 to 121 ms were called steady (halves of five cannot tell)
        double[] drift = {158, 154, 149, 144, 138, 133, 129, 125, 122, 121};
        SampleStats.Steadiness s = SampleStats.steadiness(drift);
        assertThat(s.steady()).isFalse();
        assertThat(s.trend()).isLessThan(-0.1);
        assertThat(SampleStats.mannKendallP(drift)).isLessThan(0.001);
        SplittableRandom r = new SplittableRandom(5);
        double[] flat = new double[10];
        for (int i = 0; i < flat.length; i++) {
            flat[i] = 120 + 20 * r.nextDouble();
        }
        assertThat(SampleStats.steadiness(flat).steady()).isTrue();
    }
}
