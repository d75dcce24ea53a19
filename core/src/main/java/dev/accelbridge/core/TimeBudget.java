package dev.accelbridge.core;

import java.time.Duration;

/**
 * How long the parts of a case may take, the same rule natively and in a browser: session creation has its own limit
 * ({@link ExecutionRequest#effectiveLoadTimeout}), the first inference has {@link #FIRST_RUN_LIMIT}, and the warm-ups
 * and timed iterations together get a deadline derived from the measured first inference, so a model whose inference
 * takes 40 s gets the minutes it needs and a hung page is found in about the time its own first run took. The user's
 * {@code --timeout} stays a cap over the whole case.
 */
public final class TimeBudget {
    /**
     * The default cap on one case ({@code --timeout}): an hour. A cap, not the budget: session creation, the first
     * inference and the timed runs each have their own limits within it.
     */
    public static final Duration CASE_CAP = Duration.ofHours(1);
    /** The most one first inference may take (it compiles shaders, allocates, warms caches): 5 minutes. */
    public static final Duration FIRST_RUN_LIMIT = Duration.ofMinutes(5);
    /** Room over the expected time of the warm-ups and timed iterations. */
    public static final double MARGIN = 3.0;
    /** Added to every derived deadline (a scheduler hiccup, a GC, the result's way back). */
    public static final Duration BASE = Duration.ofSeconds(30);
    /** Bytes per second a result is assumed to cross the bridge at, at worst (measured here: ~150 MB/s on loopback). */
    public static final long TRANSFER_BYTES_PER_SECOND = 20_000_000L;

    private TimeBudget() {
    }

    /**
     * The deadline for {@code warmups} + {@code iterations} runs of a model whose first inference took {@code firstMs}
     * (the first run is rarely faster than a warm one, so this is generous), plus the time to move {@code transferBytes}
     * of outputs: {@code BASE + MARGIN × (warmups + iterations) × firstMs + transferBytes / TRANSFER_BYTES_PER_SECOND}.
     */
    public static Duration forTimedRuns(double firstMs, int warmups, int iterations, long transferBytes) {
        double first = Double.isFinite(firstMs) && firstMs > 0 ? firstMs : 0;
        double ms = MARGIN * (warmups + (double) iterations) * first + 1000.0 * transferBytes / TRANSFER_BYTES_PER_SECOND;
        return BASE.plusMillis((long) Math.min(ms, Long.MAX_VALUE / 4.0));
    }

    /** The same, for timed iterations that go on for at least {@code minDuration}. */
    public static Duration forTimedRuns(double firstMs, int warmups, int iterations, Duration minDuration, long transferBytes) {
        return forTimedRuns(firstMs, warmups, iterations, transferBytes).plus(minDuration.multipliedBy((long) MARGIN));
    }

    /** The shorter of two limits. */
    public static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
