package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class Int64CutTest {
    private static NamedTensor longs(String name, long... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long x : v) {
            b.putLong(x);
        }
        return new NamedTensor(name, DType.INT64, new long[] {v.length}, b.array());
    }

    @Test
    void valuesCutToTheirLowThirtyTwoBitsOrClampedAreFoundAndCounted() {
        long big = (1L << 33) + 5;
        assertThat(Int64Cut.find(List.of(longs("y", big, 7, big + 1)), List.of(longs("y", 5, 7, 6))))
                .hasValue("output 'y': 2 of 3 int64 values are the reference's cut to 32 bits");
        assertThat(Int64Cut.find(List.of(longs("y", 10_000_000_000L)), List.of(longs("y", Integer.MAX_VALUE)))).isPresent();
        assertThat(Int64Cut.find(List.of(longs("y", -10_000_000_000L)), List.of(longs("y", Integer.MIN_VALUE)))).isPresent();
    }

    @Test
    void anyOtherDifferenceOrNoneClaimsNothing() {
        long big = (1L << 33) + 5;
        assertThat(Int64Cut.find(List.of(longs("y", big, 7)), List.of(longs("y", 5, 8)))).as("7 → 8 is no cut").isEmpty();
        assertThat(Int64Cut.find(List.of(longs("y", big)), List.of(longs("y", big)))).isEmpty();
        assertThat(Int64Cut.find(List.of(longs("y", 3)), List.of(longs("y", 4)))).isEmpty();
    }
}
