package dev.accelbridge.core;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * A duration in seconds as a message says it: {@code 3}, {@code 0.5}, {@code 2.25} (to the millisecond, no trailing
 * zeros). {@link Duration#toSeconds()} floors, so an idle of half a second read "quiet for 0 s".
 */
@PublicApi
public final class Seconds {
    private Seconds() {
    }

    /** {@code d} in seconds, to the millisecond: {@code 0.5} for 500 ms, {@code 3} for 3 s. */
    public static String of(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
    }
}
