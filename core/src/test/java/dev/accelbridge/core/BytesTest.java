package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Byte counts written and read the one way: powers of 1024, unknown as unknown. */
class BytesTest {
    @Test
    void countsAreWrittenInPowersOf1024AndUnknownIsSaid() {
        assertThat(Bytes.iec(0)).isEqualTo("0 B");
        assertThat(Bytes.iec(1023)).isEqualTo("1023 B");
        assertThat(Bytes.iec(1536)).isEqualTo("1.5 KiB");
        assertThat(Bytes.iec(6_355_600)).isEqualTo("6.1 MiB");
        assertThat(Bytes.iec(1L << 30)).isEqualTo("1.0 GiB");
        assertThat(Bytes.iec(-1)).isEqualTo("unknown");
    }

    @Test
    void sizesAreReadAsAPersonWritesThem() {
        assertThat(Bytes.parse("1073741824")).isEqualTo(1L << 30);
        assertThat(Bytes.parse("4GiB")).isEqualTo(4L << 30);
        assertThat(Bytes.parse("512 MiB")).isEqualTo(512L << 20);
        assertThat(Bytes.parse("1.5g")).isEqualTo(3L << 29);
        assertThat(Bytes.parse("64KB")).isEqualTo(64L << 10);
        for (String bad : new String[] {"", "4XB", "-1", "0", "GiB", "1e9", "2EiB"}) {
            assertThatThrownBy(() -> Bytes.parse(bad)).as(bad).isInstanceOf(AccelbridgeException.class).hasMessageContaining("is not a size");
        }
    }
}
