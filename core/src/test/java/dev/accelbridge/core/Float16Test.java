package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class Float16Test {
    @Test
    void halfPrecisionRoundsToNearestEven() {
        assertThat(Float16.fromFloat(1f)).isEqualTo((short) 0x3c00);
        assertThat(Float16.fromFloat(65504f)).isEqualTo((short) 0x7bff);
        assertThat(Float16.fromFloat(1e6f)).as("overflow is infinity").isEqualTo((short) 0x7c00);
        assertThat(Float16.fromFloat(-2f)).isEqualTo((short) 0xc000);
        assertThat(Float16.fromFloat(5.9604645e-8f)).as("smallest subnormal").isEqualTo((short) 1);
        assertThat(Float16.fromFloat(1f + 1f / 2048)).as("a tie rounds to even").isEqualTo((short) 0x3c00);
        assertThat(Float16.fromFloat(1f + 3f / 2048)).as("a tie rounds to even").isEqualTo((short) 0x3c02);
        for (float f : new float[] {0.1f, -3.3f, 1234.5f, 6.1e-5f}) {
            assertThat(Float16.toFloat(Float16.fromFloat(f))).isCloseTo(f, org.assertj.core.data.Percentage.withPercentage(0.1));
        }
        assertThat(Float16.toFloat(Float16.fromFloat(1e-7f))).as("subnormals step by 2^-24").isEqualTo(2 * 0x1p-24f);
    }
}
