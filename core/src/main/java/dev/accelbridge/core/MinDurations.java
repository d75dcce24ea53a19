package dev.accelbridge.core;

import java.time.Duration;

/**
 * The least time a case's warm-ups and its timed iterations take ({@code --warmup-duration}, {@code --min-duration}):
 * each loop runs its count AND until its duration has passed, whichever comes later, the timed one past its count at
 * most to {@link #SAMPLE_CAP} runs. The same rule in the page ({@code settle.mjs}) and natively. A warm-up with a least
 * duration then goes on until the case has settled ({@link Settling}).
 *
 * @param warmup the least time of the warm-ups together
 * @param timed  the least time of the timed iterations together
 */
@PublicApi
public record MinDurations(Duration warmup, Duration timed) {
    /** Counts alone. */
    public static final MinDurations NONE = new MinDurations(Duration.ZERO, Duration.ZERO);
    /**
     * The most runs a duration adds to either loop, whatever the model's speed: 1000 supports p99 (368 needed) with room
     * for its interval, and keeps a tiny model's case short.
     */
    public static final int SAMPLE_CAP = 1000;

    public MinDurations {
        warmup = warmup == null ? Duration.ZERO : warmup;
        timed = timed == null ? Duration.ZERO : timed;
        if (warmup.isNegative() || timed.isNegative()) {
            throw new AccelbridgeException("a minimum duration must not be negative, got " + this,
                    "pass --min-duration / --warmup-duration in seconds, or 0");
        }
    }

    /** The most timed runs: {@code iterations}, or more up to the cap under a minimum duration. */
    public int maxSamples(int iterations) {
        return timed.isZero() ? iterations : Math.max(iterations, SAMPLE_CAP);
    }

    /** Whether the timed loop goes on after {@code done} runs taking {@code elapsedNanos} in all. */
    public boolean moreSamples(int done, int iterations, long elapsedNanos) {
        return done < iterations || done < maxSamples(iterations) && elapsedNanos < timed.toNanos();
    }

    /** Whether the warm-up loop goes on after {@code done} runs taking {@code elapsedNanos} in all. */
    public boolean moreWarmups(int done, int warmups, long elapsedNanos) {
        return done < warmups || done < Math.max(warmups, SAMPLE_CAP) && elapsedNanos < warmup.toNanos();
    }

    /**
     * These durations for the first wasm case on a fresh page: its warm-up at least {@link Settling#FIRST_ON_PAGE} (still at
     * most {@link #SAMPLE_CAP} runs); exact counts stay exact.
     */
    public MinDurations firstOnPage() {
        return warmup.isZero() || warmup.compareTo(Settling.FIRST_ON_PAGE) >= 0 ? this : new MinDurations(Settling.FIRST_ON_PAGE, timed);
    }

    /**
     * The rule that gives a case its runs, in one line for {@code run} to say: "exactly 0 warm-ups and 1 timed run" when
     * both loops are counts alone, else each loop's count and least duration.
     */
    public String describe(int warmups, int iterations) {
        String w = warmup.isZero() ? "exactly " + warmups + " warm-up" + (warmups == 1 ? "" : "s")
                : "at least " + warmups + " warm-ups and " + Seconds.of(warmup) + " s, then until settled (at most " + Settling.CAP.toSeconds() + " s of warm-ups in all)";
        String t = timed.isZero() ? "exactly " + iterations + " timed run" + (iterations == 1 ? "" : "s")
                : "at least " + iterations + " timed runs and " + Seconds.of(timed) + " s (up to " + SAMPLE_CAP + " runs)";
        // exact counts are never cut on a floor (FloorStop)
        return w + "; " + t + (total().isZero() ? "" : "; on a latency floor, only until its runs show it (" + FloorStop.RUNS + " at least)");
    }

    /**
     * Where a loop is, in words a progress line can say without lying when a duration runs it past its count: "timed run 3
     * of 10" for a count alone, "timed 800 runs (at least 10, 0.5 s)" under a least duration; warm-ups alike.
     *
     * @param phase {@code timed} or {@code warmup}, as providers report it
     */
    public String progress(String phase, int done, int count) {
        boolean timedPhase = "timed".equals(phase);
        Duration least = timedPhase ? timed : warmup;
        String what = timedPhase ? "timed run" : "warm-up";
        if (least.isZero()) {
            return what + " " + done + " of " + count;
        }
        return (timedPhase ? "timed " : "") + done + " " + (timedPhase ? "run" : "warm-up") + (done == 1 ? "" : "s") + " (at least "
                + count + ", " + Seconds.of(least) + " s" + (timedPhase ? "" : ", then until settled") + ")";
    }

    /** Both durations together. */
    public Duration total() {
        return warmup.plus(timed);
    }

    /**
     * The most these durations can add to a case (for a deadline): both, and the time a warm-up may go on settling
     * ({@link Settling#CAP}) when it has a least duration.
     */
    public Duration budget() {
        return warmup.isZero() ? total() : total().plus(Settling.CAP);
    }
}
