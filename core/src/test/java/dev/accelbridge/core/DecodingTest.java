package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** MLPerf Client's figures of a generation, from its steps' times. */
class DecodingTest {
    @Test
    void ttftIsTheFirstStepAndTokensPerSecondIsOneThousandOverTheMeanOfTheRest() {
        double[][] steps = new double[8][];
        for (int g = 0; g < 8; g++) {
            steps[g] = new double[] {10 + g, 2, 4, 2, 4};
        }
        Decoding d = Decoding.of(8, 5, steps, new double[] {300, 5, 5, 5, 5}, java.util.OptionalLong.of(1024));
        assertThat(d.ttftMs()).containsExactly(10, 11, 12, 13, 14, 15, 16, 17);
        assertThat(d.ttftP50Ms()).isEqualTo(13.5);
        assertThat(d.ttftCi()).isNotNull();
        assertThat(d.itlMs()).hasSize(32);
        assertThat(d.tokensPerSec()).isCloseTo(1000 / 3.0, within(1e-9));
        assertThat(d.itlP50Ms()).isEqualTo(3);
        assertThat(d.itlP90Ms()).as("32 latencies do not support a p90 (it needs 36)").isNaN();
        assertThat(d.coldTtftMs()).isEqualTo(300);
        assertThat(d.coldTotalMs()).isEqualTo(320);
        assertThat(d.tokensPerSecCi().lo()).isLessThanOrEqualTo(d.tokensPerSec());
        assertThat(d.tokensPerSecCi().hi()).isGreaterThanOrEqualTo(d.tokensPerSec());
        assertThat(d.tokensVerified()).as("not judged yet").isFalse();
        assertThat(d.withVerified(TokenCheck.REFERENCE, 9, 9).tokensVerified()).isTrue();
        assertThat(d.withVerified(TokenCheck.OWN_FIRST, 9, 9).tokensVerified()).as("the reference's repeats verify nothing").isFalse();
        assertThat(d.withVerified(TokenCheck.OWN_FIRST, 9, 9).tokensWord()).isEqualTo("repeated 9/9");
        assertThat(d.withVerified(TokenCheck.REFERENCE, 9, 8).tokensWord()).isEqualTo("not verified 8/9");
        assertThat(d.tokensWord()).isEqualTo("not checked");
    }

    @Test
    void aGenerationWhoseTokensSitOnAPolledReadbackIsFlooredThoughItsWholeGenerationsAreNot() {
        // Firefox's WebGPU, seen here: every step's logits read back on a 100 ms poll, a generation of 16 takes 1.6 s
        double[][] steps = new double[6][];
        for (int g = 0; g < 6; g++) {
            steps[g] = new double[16];
            java.util.Arrays.fill(steps[g], 100.0 + 0.1 * g);
        }
        double[] totals = java.util.Arrays.stream(steps).mapToDouble(s -> java.util.Arrays.stream(s).sum()).toArray();
        Timings whole = Timings.of(20, 1700, 1, totals).withClock(0.02, 99.5);
        assertThat(whole.quality().floored()).as("1.6 s generations are far above a 99.5 ms readback").isFalse();
        Timings t = whole.withDecoding(Decoding.of(8, 16, steps, new double[] {100}, java.util.OptionalLong.empty()));
        assertThat(t.quality().floored()).isTrue();
        assertThat(t.quality().latencyFloorMs()).isEqualTo(99.5);
        // wasm's sub-millisecond tokens, no readback: no floor
        double[][] fast = {{0.4, 0.3, 0.3, 0.31}, {0.41, 0.3, 0.29, 0.3}, {0.4, 0.31, 0.3, 0.3}};
        assertThat(Timings.of(1, 2, 0, new double[] {1.3, 1.3, 1.31}).withClock(0.005, Double.NaN)
                .withDecoding(Decoding.of(8, 4, fast, new double[] {1}, java.util.OptionalLong.empty())).quality().floored()).isFalse();
    }

    @Test
    void theBootstrapIntervalsAreComputedOncePerFiguresByValue() {
        // the store, the table and each report ask again for the same figures (a fallback's row carries its lane's): the
        // same interval object is the proof that the 2000 resamples ran once
        double[][] steps = new double[6][];
        for (int g = 0; g < 6; g++) {
            steps[g] = new double[] {10 + g, 2, 4, 2.5, 4};
        }
        Decoding a = Decoding.of(8, 5, steps, new double[] {30}, java.util.OptionalLong.empty());
        Decoding same = Decoding.of(8, 5, steps, new double[] {30}, java.util.OptionalLong.empty());
        steps[0][1] = 2.1;
        Decoding other = Decoding.of(8, 5, steps, new double[] {30}, java.util.OptionalLong.empty());
        assertThat(same).isNotSameAs(a).isEqualTo(a);
        assertThat(same.tokensPerSecCi()).isNotNull().isSameAs(a.tokensPerSecCi());
        assertThat(other.tokensPerSecCi()).isNotSameAs(a.tokensPerSecCi());
        assertThat(same.tokensPerSecOver(other)).containsExactly(a.tokensPerSecOver(other));
        double[] over = a.tokensPerSecOver(other);
        assertThat(over[1]).isLessThanOrEqualTo(over[0]);
        assertThat(over[2]).isGreaterThanOrEqualTo(over[0]);
    }

    @Test
    void oneTokenHasNoTokensPerSecond() {
        Decoding d = Decoding.of(8, 1, new double[][] {{10}, {11}}, new double[] {40}, java.util.OptionalLong.empty());
        assertThat(d.itlMs()).isEmpty();
        assertThat(d.tokensPerSec()).isNaN();
        assertThat(d.tokensPerSecCi()).isNull();
    }

    @Test
    void aScenarioReadsBackFromItsName() {
        assertThat(ScenarioId.parse("generate p8 n32")).isEqualTo(ScenarioId.generate(8, 32));
        assertThat(ScenarioId.parse(ScenarioId.SINGLE_PASS.id())).isEqualTo(ScenarioId.SINGLE_PASS);
        assertThat(ScenarioId.parse(ScenarioId.OBSERVED.id())).isEqualTo(ScenarioId.OBSERVED).isNotEqualTo(ScenarioId.SINGLE_PASS);
        assertThat(ScenarioId.OBSERVED.generates()).isFalse();
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ScenarioId.parse("generate 8"))).hasMessageContaining("Unknown scenario");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ScenarioId.generate(0, 4))).hasMessageContaining("prompt of 1..");
    }
}
