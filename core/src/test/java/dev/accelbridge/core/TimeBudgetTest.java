package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class TimeBudgetTest {
    @Test
    void theTimedRunsDeadlineScalesWithTheFirstInferenceAndTheOutputs() {
        // a 40 s inference, 3 warm-ups and 10 timed runs: 30 s + 3 x 13 x 40 s = 1590 s, not a fixed 180 s
        assertThat(TimeBudget.forTimedRuns(40_000, 3, 10, 0)).isEqualTo(Duration.ofSeconds(1590));
        // a 1 ms model gets the base and nothing much more
        assertThat(TimeBudget.forTimedRuns(1, 3, 10, 0)).isEqualTo(Duration.ofMillis(30_039));
        // 400 MB of outputs add their transfer at 20 MB/s
        assertThat(TimeBudget.forTimedRuns(1, 0, 1, 400_000_000L)).isEqualTo(Duration.ofMillis(50_003));
        // an unknown first time (a session that had run before) leaves the base
        assertThat(TimeBudget.forTimedRuns(Double.NaN, 3, 10, 0)).isEqualTo(TimeBudget.BASE);
        assertThat(TimeBudget.min(Duration.ofSeconds(5), TimeBudget.FIRST_RUN_LIMIT)).isEqualTo(Duration.ofSeconds(5));
    }
}
