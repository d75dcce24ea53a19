package dev.accelbridge.core;

/**
 * Where a running case is, for a progress bar: a provider reports its warm-ups and timed iterations as they go (a page
 * at most once a second, never inside a timed window), so a case longer than a few seconds shows "timed 3 of 10".
 */
@FunctionalInterface
public interface CaseProgress {
    /**
     * @param phase {@code warmup} or {@code timed}
     * @param done  runs of that phase done
     * @param total runs of that phase in all
     */
    void update(String phase, int done, int total);

    /** Reports nothing. */
    CaseProgress NONE = (phase, done, total) -> { };
}
