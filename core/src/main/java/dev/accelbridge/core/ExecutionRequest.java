package dev.accelbridge.core;

import java.time.Duration;

/**
 * Ask a provider to run one case on one backend.
 *
 * @param backend    the backend to run on (not a chain: the resolver has already chosen)
 * @param modelCase  model and inputs
 * @param warmups    warm-up iterations (run, not timed)
 * @param iterations timed iterations
 * @param timeout    for the whole case (load, warm-up, timed)
 * @param threads    intra-op threads the runtime should use (the same on both sides of a browser-vs-native
 *                   comparison); null for the runtime's default
 * @param loadTimeout limit for loading (session creation) alone, within {@code timeout}, so a session that never
 *                   returns costs this and not the whole case; null: {@link #defaultLoadTimeout}
 * @param profileIterations iterations to profile per op (0: no profile); they run in their own session after the timed
 *                   ones, so profiling never touches the timed samples
 * @param recreate   create/run/release cycles for the leak check (0: none), after everything else
 * @param progress   where the provider reports warm-ups and timed iterations as they go (never null)
 * @param durations  the least time the warm-ups and the timed iterations take ({@code --warmup-duration},
 *                   {@code --min-duration}): each loop goes on past its count until its duration has passed
 * @param depth      how far the sampling goes, already decided for the backend's device ({@link SamplingDepth#on}):
 *                   {@link SamplingDepth#VERDICT} is the verdict's window, so its counts are cut here, once (no warm-up, at
 *                   most {@link SamplingDepth#WINDOW_RUNS} timed runs, no least durations) and every provider runs what it
 *                   is given
 */
public record ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout,
                               Integer threads, Duration loadTimeout, int profileIterations, int recreate, CaseProgress progress,
                               MinDurations durations, SamplingDepth depth) {
    /** A request whose sampling is the rule's, unchanged ({@link SamplingDepth#FULL}). */
    public ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout,
                            Integer threads, Duration loadTimeout, int profileIterations, int recreate, CaseProgress progress,
                            MinDurations durations) {
        this(backend, modelCase, warmups, iterations, timeout, threads, loadTimeout, profileIterations, recreate, progress,
                durations, SamplingDepth.FULL);
    }

    /** The most timed iterations a minimum duration adds ({@link MinDurations#SAMPLE_CAP}). */
    public static final int DURATION_SAMPLE_CAP = MinDurations.SAMPLE_CAP;

    /** A request without minimum durations. */
    public ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout,
                            Integer threads, Duration loadTimeout, int profileIterations, int recreate, CaseProgress progress) {
        this(backend, modelCase, warmups, iterations, timeout, threads, loadTimeout, profileIterations, recreate, progress,
                MinDurations.NONE);
    }

    /** This request with a minimum duration of the timed iterations. */
    public ExecutionRequest withMinDuration(Duration d) {
        return withDurations(new MinDurations(durations.warmup(), d));
    }

    /** This request with other minimum durations. */
    public ExecutionRequest withDurations(MinDurations d) {
        return new ExecutionRequest(backend, modelCase, warmups, iterations, timeout, threads, loadTimeout, profileIterations,
                recreate, progress, d, depth);
    }

    /** Whether this request runs the verdict's window only: its figures are indicative, never settled. */
    public boolean verdictWindow() {
        return depth == SamplingDepth.VERDICT;
    }

    /** The least time of the timed iterations together. */
    public Duration minDuration() {
        return durations.timed();
    }

    /** The most timed iterations this request may take. */
    public int maxSamples() {
        return durations.maxSamples(iterations);
    }

    /** Whether the timed loop goes on after {@code done} iterations taking {@code elapsedNanos} in all. */
    public boolean moreSamples(int done, long elapsedNanos) {
        return durations.moreSamples(done, iterations, elapsedNanos);
    }

    /** A request that reports no progress. */
    public ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout,
                            Integer threads, Duration loadTimeout, int profileIterations, int recreate) {
        this(backend, modelCase, warmups, iterations, timeout, threads, loadTimeout, profileIterations, recreate, CaseProgress.NONE);
    }

    /** A request without profile or leak check. */
    public ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout,
                            Integer threads, Duration loadTimeout) {
        this(backend, modelCase, warmups, iterations, timeout, threads, loadTimeout, 0, 0);
    }

    /**
     * One run of {@code modelCase} for its outputs alone (a bisection's tapped model, a node run alone, a repro's check):
     * no warm-up, one timed run, in the verdict's window ({@link SamplingDepth#VERDICT}): nothing settled, and where a
     * browser checks placement it does not list the nodes (one more session, made with ONNX Runtime's verbose log, which
     * nothing reading these outputs needs).
     */
    public static ExecutionRequest forOutputs(BackendId backend, ModelCase modelCase, Duration timeout, Integer threads) {
        return new ExecutionRequest(backend, modelCase, 0, 1, timeout, threads, null, 0, 0, CaseProgress.NONE, MinDurations.NONE,
                SamplingDepth.VERDICT);
    }

    /** A request with the runtime's default thread count. */
    public ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout) {
        this(backend, modelCase, warmups, iterations, timeout, null, null);
    }

    /** A request with a thread count and the default load timeout. */
    public ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout, Integer threads) {
        this(backend, modelCase, warmups, iterations, timeout, threads, null);
    }

    /**
     * The load limit when none is given: 30 s plus 1 s per 10 MB of model (a first WebGPU compile of a big model on a
     * software adapter takes long; a WebNN session that never returns should not cost minutes), at most the case's.
     */
    public static Duration defaultLoadTimeout(ModelCase mc, Duration caseTimeout) {
        long bytes = 0;
        try {
            bytes = mc.model().path() == null ? 0 : java.nio.file.Files.size(mc.model().path());
        } catch (java.io.IOException | RuntimeException e) {
            // unknown size: the base limit
        }
        Duration d = Duration.ofSeconds(30 + bytes / 10_000_000L);
        return caseTimeout == null || d.compareTo(caseTimeout) < 0 ? d : caseTimeout;
    }

    /** The load limit that applies: the given one, else {@link #defaultLoadTimeout}. */
    public Duration effectiveLoadTimeout() {
        return loadTimeout != null ? loadTimeout : defaultLoadTimeout(modelCase, timeout);
    }

    public ExecutionRequest {
        progress = progress == null ? CaseProgress.NONE : progress;
        durations = durations == null ? MinDurations.NONE : durations;
        depth = depth == null ? SamplingDepth.FULL : depth;
        if (depth == SamplingDepth.VERDICT) {
            warmups = 0;
            iterations = Math.max(1, Math.min(iterations, SamplingDepth.WINDOW_RUNS));
            durations = MinDurations.NONE;
        }
        if (threads != null && threads < 1) {
            throw new AccelbridgeException("threads must be at least 1, got " + threads, "pass --threads N with N >= 1");
        }
        if (iterations < 1) {
            throw new AccelbridgeException("iterations must be at least 1, got " + iterations, "pass --iterations N with N >= 1");
        }
        if (profileIterations < 0 || recreate < 0) {
            throw new AccelbridgeException("profile iterations and re-creation cycles must not be negative", "pass --profile / --recreate N with N >= 1");
        }
        if (warmups < 0) {
            throw new AccelbridgeException("warm-up count must not be negative, got " + warmups, "pass --warmups N with N >= 0");
        }
    }

    /** The same request with {@code n} profiled iterations. */
    public ExecutionRequest withProfile(int n) {
        return new ExecutionRequest(backend, modelCase, warmups, iterations, timeout, threads, loadTimeout, n, recreate, progress, durations, depth);
    }

    /** The same request with {@code n} re-creation cycles. */
    public ExecutionRequest withRecreate(int n) {
        return new ExecutionRequest(backend, modelCase, warmups, iterations, timeout, threads, loadTimeout, profileIterations, n, progress, durations, depth);
    }

    /** The same request for another model case (e.g. a model with its intermediates exposed). */
    public ExecutionRequest withModelCase(ModelCase mc) {
        return new ExecutionRequest(backend, mc, warmups, iterations, timeout, threads, loadTimeout, profileIterations, recreate, progress, durations, depth);
    }

    /** The same request reporting to {@code p}. */
    public ExecutionRequest withProgress(CaseProgress p) {
        return new ExecutionRequest(backend, modelCase, warmups, iterations, timeout, threads, loadTimeout, profileIterations, recreate, p, durations, depth);
    }
}
