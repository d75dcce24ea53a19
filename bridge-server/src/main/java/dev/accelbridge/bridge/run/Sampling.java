package dev.accelbridge.bridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Limits;

import java.time.Duration;

/** The ranges of a plan's sampling options: warm-ups, timed iterations and their minimum durations. */
final class Sampling {
    /** The longest {@code --min-duration}: a case's timed iterations beyond it say nothing a longer run would not. */
    static final Duration MAX_MIN_DURATION = Duration.ofMinutes(10);

    private Sampling() {
    }

    /** @throws AccelbridgeException naming the option out of range and a value that works */
    static void check(int warmups, int iterations, Duration minDuration, Duration warmupDuration) {
        if (iterations < 1 || iterations > Limits.MAX_ITERATIONS) {
            throw new AccelbridgeException("--iterations must be 1.." + Limits.MAX_ITERATIONS + ", got " + iterations, "e.g. --iterations 10");
        }
        if (warmups < 0 || warmups > Limits.MAX_ITERATIONS) {
            throw new AccelbridgeException("--warmups must be 0.." + Limits.MAX_ITERATIONS + ", got " + warmups, "e.g. --warmups 3");
        }
        if (minDuration == null || minDuration.isNegative() || minDuration.compareTo(MAX_MIN_DURATION) > 0) {
            throw new AccelbridgeException("--min-duration must be 0.." + MAX_MIN_DURATION.toSeconds() + " seconds, got " + minDuration,
                    "e.g. --min-duration 0.5 (seconds; 0 runs exactly --iterations)");
        }
        if (warmupDuration == null || warmupDuration.isNegative() || warmupDuration.compareTo(MAX_MIN_DURATION) > 0) {
            throw new AccelbridgeException("--warmup-duration must be 0.." + MAX_MIN_DURATION.toSeconds() + " seconds, got "
                    + warmupDuration, "e.g. --warmup-duration 0.5 (seconds; 0 runs exactly --warmups)");
        }
    }
}
