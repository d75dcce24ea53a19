package dev.accelbridge.browser.provider;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.Settling;

/**
 * What one page's engine has run since it was launched: whether a case is the first it runs (its first inference meets
 * a cold engine, {@link dev.accelbridge.core.ColdStart#freshPage}), and whether V8 has had its lane warm-up on wasm
 * ({@link Settling#FIRST_ON_PAGE}), whose optimised code every later wasm case of the page shares. Not thread-safe: a
 * provider runs one case at a time.
 */
final class PageWarmth {
    private int cases;
    private boolean wasmWarm;

    /** A new page: nothing run yet. */
    void reset() {
        cases = 0;
        wasmWarm = false;
    }

    /** The durations a case on {@code backend} runs with here: the lane warm-up's for the page's first wasm case. */
    MinDurations durations(BackendId backend, MinDurations asked) {
        return !wasmWarm && backend == BackendId.WASM ? asked.firstOnPage() : asked;
    }

    /**
     * A case on {@code backend} ran its warm-ups and timed runs under {@code used}: the page's wasm engine is warm once a
     * wasm case warmed up for the lane warm-up's duration, a single pass or a generation (not after exact counts: a sweep
     * of one run each warms nothing for the cases after it).
     */
    void ran(BackendId backend, MinDurations used) {
        wasmWarm |= backend == BackendId.WASM && used.warmup().compareTo(Settling.FIRST_ON_PAGE) >= 0;
    }

    /** Whether the case now finishing was the page's first; counts it. */
    boolean firstCase() {
        return cases++ == 0;
    }
}
