package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A progress line says what a loop is doing: a count alone counts; a least duration's runs are not "of" the count. */
class MinDurationsProgressTest {
    @Test
    void aCountAloneCountsAndADurationSaysItsRule() {
        assertThat(MinDurations.NONE.progress("timed", 3, 10)).isEqualTo("timed run 3 of 10");
        assertThat(MinDurations.NONE.progress("warmup", 1, 3)).isEqualTo("warm-up 1 of 3");
        MinDurations d = new MinDurations(Duration.ofMillis(200), Duration.ofMillis(500));
        // what a terminal said before: "timed iteration 800 of 10"
        assertThat(d.progress("timed", 800, 10)).isEqualTo("timed 800 runs (at least 10, 0.5 s)");
        assertThat(d.progress("timed", 1, 10)).isEqualTo("timed 1 run (at least 10, 0.5 s)");
        assertThat(d.progress("warmup", 6, 3)).isEqualTo("6 warm-ups (at least 3, 0.2 s, then until settled)");
        // one loop by count, the other by duration
        assertThat(new MinDurations(Duration.ZERO, Duration.ofSeconds(2)).progress("warmup", 2, 3)).isEqualTo("warm-up 2 of 3");
    }
}
