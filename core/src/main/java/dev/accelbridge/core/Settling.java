package dev.accelbridge.core;

import java.util.Arrays;

/**
 * When a case is warm: its warm-up goes on past its count and its least duration ({@link MinDurations}) until the runs
 * stop getting faster. Found when tried: the same 89 MB text model, three times in one fresh Chromium lane, measured
 * 120, 122, 111 ms, each "steady" (the first copy's first quarter of samples 156 ms, its last 121 ms): V8 compiles
 * onnxruntime-web's WebAssembly with a baseline tier and optimizes hot functions later, in background threads that
 * compete with the inference threads, so a case that falls early in its lane is timed while its engine is still warming
 * (docs/scoring.md, "Where a case falls in its run").
 *
 * <p>The rule, the same in the page ({@code settle.mjs}) and natively: once the count and the least duration are done, the
 * warm-up runs are cut into blocks of {@link #blockRuns} runs (about {@link #BLOCK_MS} ms of runs, at least
 * {@link #MIN_BLOCK} and at most {@link #MAX_BLOCK}); the case is warm when, at two judgements in a row, the last block's
 * median is within {@link #FALL} of the median of the block before it, faster or slower: three blocks at one level. Found
 * when tried: judged once on two blocks and one-sided, the second of three copies of a published model in one lane was
 * called settled after 6 warm-ups while its runs were getting slower, and measured twice as slow as the others. It is
 * judged after every block, and gives up after
 * {@link #CAP} of warm-ups (or {@link #MAX_RUNS} runs): such a case is timed anyway and is not steady, its
 * trend the last block's change. A warm-up of exact counts ({@code --warmup-duration 0}) is not extended or judged.
 */
@PublicApi
public final class Settling {
    /** A block this much faster or slower than the one before means the case is not yet at its level. */
    public static final double FALL = 0.05;
    /** The fewest runs in a block. */
    public static final int MIN_BLOCK = 3;
    /** The most runs in a block (a sub-millisecond model judges on 100 runs, not 250 ms of them). */
    public static final int MAX_BLOCK = 100;
    /** About how long a block's runs take together. */
    public static final double BLOCK_MS = 250;
    /** The most time the warm-up of one case may take while it settles. */
    public static final java.time.Duration CAP = java.time.Duration.ofSeconds(10);
    /**
     * The most warm-up runs while a case settles. Found when tried: at the timed loop's cap of 1000 runs a 0.14 ms model
     * had warmed 0.14 s and was called unsettled; settling is bounded by its time, and by this only for memory.
     */
    public static final int MAX_RUNS = 10 * MinDurations.SAMPLE_CAP;
    /**
     * The least warm-up of the first wasm case a fresh page runs: V8 is still tiering onnxruntime-web's code up (the position
     * bench measured the first copy of a model up to 13 % slower than later ones with 2 s of warm-up, 2 % after 5 s;
     * docs/scoring.md). A sub-millisecond model stops at its 1000 warm-ups first: it costs those nothing. Other backends' first-use costs (WebGPU's pipelines) are the model's own, not the lane's.
     */
    public static final java.time.Duration FIRST_ON_PAGE = java.time.Duration.ofSeconds(5);

    private Settling() {
    }

    /** The runs in a block, for runs of about {@code medianMs} each. */
    public static int blockRuns(double medianMs) {
        if (!(medianMs > 0)) {
            return MIN_BLOCK;
        }
        return (int) Math.max(MIN_BLOCK, Math.min(MAX_BLOCK, Math.ceil(BLOCK_MS / medianMs)));
    }

    /**
     * One warm-up loop: {@link #add} each run's time, and ask {@link #more} before the next. Not thread-safe.
     */
    public static final class Loop {
        private final int warmups;
        private final MinDurations durations;
        private double[] runs = new double[64];
        private int done;
        private int judgedAt = -1;
        private boolean levelBefore;
        private Boolean settled;
        private double trend = Double.NaN;

        /**
         * @param warmups   the least number of warm-ups
         * @param durations the least time of the warm-ups (none: exactly {@code warmups}, never extended)
         */
        public Loop(int warmups, MinDurations durations) {
            this.warmups = warmups;
            this.durations = durations;
        }

        /** One warm-up run took {@code ms}. */
        public void add(double ms) {
            if (done == runs.length) {
                runs = Arrays.copyOf(runs, runs.length * 2);
            }
            runs[done++] = ms;
        }

        /** Whether another warm-up runs, after {@code elapsedNanos} of them. */
        public boolean more(long elapsedNanos) {
            if (durations.moreWarmups(done, warmups, elapsedNanos)) {
                return true;
            }
            if (durations.warmup().isZero() || Boolean.TRUE.equals(settled)) {
                return false;
            }
            int block = blockRuns(median(Math.max(0, done - 10), done));
            if (done >= 2 * block && (judgedAt < 0 || done - judgedAt >= block)) {
                judgedAt = done;
                double last = median(done - block, done);
                double before = median(done - 2 * block, done - block);
                trend = before > 0 ? last / before - 1 : 0;
                boolean level = Math.abs(trend) <= FALL;
                if (level && levelBefore) {
                    settled = true;
                    return false;
                }
                levelBefore = level;
            }
            if (elapsedNanos >= CAP.toNanos() || done >= MAX_RUNS) {
                settled = false;
                return false;
            }
            return true;
        }

        /** The warm-up runs so far. */
        public int done() {
            return done;
        }

        /** True when the runs stopped getting faster, false when the cap came first, null when not judged (exact counts). */
        public Boolean settled() {
            return settled;
        }

        /** The last block's median against the block before it, minus one (NaN when not judged). */
        public double trend() {
            return trend;
        }

        private double median(int from, int to) {
            if (to <= from) {
                return Double.NaN;
            }
            double[] s = Arrays.copyOfRange(runs, from, to);
            Arrays.sort(s);
            return Timings.percentile(s, 50);
        }
    }
}
