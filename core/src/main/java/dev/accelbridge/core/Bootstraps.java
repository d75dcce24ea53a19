package dev.accelbridge.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A generation's bootstrap intervals, each computed once per figures, by value. Each resamples every inter-token latency
 * 2000 times (a native generation's thousands of steps: tens of ms a call), and one run's store write, its table and
 * every report read them again for the same figures, a fallback's row for the figures its lane measured: a default run's
 * reports spent most of their time here. The bootstrap is seeded from the samples, so an interval that fell out of this
 * bounded memo comes back the same.
 */
final class Bootstraps {
    /** {@link Decoding#tokensPerSecCi()} of these figures. */
    record Rate(Decoding d) {
    }

    /** {@link Decoding#tokensPerSecOver} of these figures over {@code base}'s. */
    record RateOver(Decoding d, Decoding base) {
    }

    /** Enough for every generation row of a large report twice over; each entry holds its figures' samples. */
    private static final int KEPT = 256;

    private static final Map<Record, Optional<Interval>> KNOWN = new LinkedHashMap<>(KEPT, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Record, Optional<Interval>> eldest) {
            return size() > KEPT;
        }
    };

    private Bootstraps() {
    }

    /** The interval {@code key} names: known, or computed now (outside the lock: two threads may compute it alike). */
    static Interval once(Record key, Supplier<Interval> compute) {
        Optional<Interval> known;
        synchronized (KNOWN) {
            known = KNOWN.get(key);
        }
        if (known == null) {
            known = Optional.ofNullable(compute.get());
            synchronized (KNOWN) {
                KNOWN.put(key, known);
            }
        }
        return known.orElse(null);
    }
}
