package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TimingsTest {
    @Test
    void aWarmUpThatDidNotSettleIsACaveat() {
        SampleQuality settled = SampleQuality.UNKNOWN.withWarmup(800, true, -0.01);
        assertThat(settled.caveats()).isEmpty();
        assertThat(SampleQuality.UNKNOWN.withWarmup(10_000, false, -0.2).caveats())
                .isEqualTo(" [not steady: warm-up still -20 % per block]");
        // found when tried: a 0.5 B decoder's generations of 13 s each on wasm left the warm-up's trend unknown
        assertThat(SampleQuality.UNKNOWN.withWarmup(30_000, false, Double.NaN).caveats())
                .isEqualTo(" [not steady: the warm-up did not settle (its trend unknown)]");
    }

    @Test
    void summaryStatisticsFollowNumpysPercentileDefinition() {
        Timings t = Timings.of(100, 20, 3, new double[]{5, 1, 4, 2, 3});
        assertThat(t.p50Ms()).isEqualTo(3);
        assertThat(Timings.percentile(new double[]{1, 2, 3, 4, 5}, 90)).isCloseTo(4.6, within(1e-12)); // numpy: 4.6
        assertThat(Timings.percentile(new double[]{1, 2, 3, 4, 5}, 99)).isCloseTo(4.96, within(1e-12));
        assertThat(t.p90Ms()).as("five samples support no p90").isNaN();
        assertThat(t.quality().p50Ci()).as("nor the median's interval").isNull();
        assertThat(t.meanMs()).isEqualTo(3);
        assertThat(t.stddevMs()).isCloseTo(Math.sqrt(2.5), within(1e-12));
        assertThat(t.throughputPerSec()).isCloseTo(1000 / 3.0, within(1e-9));
        assertThat(t.iterations()).isEqualTo(5);
        assertThat(t.samplesMs()).as("samples stay in the order measured").containsExactly(5, 1, 4, 2, 3);
    }

    @Test
    void oneSampleHasNoSpreadAndNoSamplesHaveNoFigures() {
        Timings one = Timings.of(1, 1, 0, new double[]{2.5});
        assertThat(one.p50Ms()).isEqualTo(2.5);
        assertThat(one.stddevMs()).isZero();
        Timings none = Timings.of(1, 1, 0, new double[0]);
        assertThat(none.p50Ms()).isNaN();
        assertThat(none.throughputPerSec()).isNaN();
    }
}
