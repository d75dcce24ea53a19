package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A duration in a message's seconds. */
class SecondsTest {
    @Test
    void underASecondIsNotZeroAndWholeSecondsHaveNoDecimals() {
        assertThat(Seconds.of(Duration.ofMillis(500))).isEqualTo("0.5");
        assertThat(Seconds.of(Duration.ofMillis(250))).isEqualTo("0.25");
        assertThat(Seconds.of(Duration.ofSeconds(3))).isEqualTo("3");
        assertThat(Seconds.of(Duration.ofMillis(2500))).isEqualTo("2.5");
        assertThat(Seconds.of(Duration.ofMinutes(2))).isEqualTo("120");
    }
}
