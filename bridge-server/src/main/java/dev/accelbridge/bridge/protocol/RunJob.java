package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.PublicApi;

/**
 * A run job ({@code run}): the session's first run (timed, if it has not run before), {@code warmups} untimed runs and
 * {@code iterations} timed ones, on past their counts for the case's least durations; its inputs travel in the frame
 * (or in chunks of at most {@code chunkBytes}). A null field is not sent.
 *
 * @param session          the session, as the bridge named it at its load
 * @param warmups          the untimed runs after the first
 * @param iterations       the timed runs
 * @param chunkBytes       the largest part of a chunked result
 * @param minDurationMs    the least time the timed runs take together
 * @param maxSamples       the most timed runs
 * @param warmupDurationMs the least time the warm-up takes; with it the page warms up until the case settles
 * @param sameInputs       true: the session's inputs of its previous job (large inputs cross once)
 * @param firstOnly        true: the first run alone, answered with its time and no outputs
 */
@PublicApi
public record RunJob(String session, int warmups, int iterations, Integer chunkBytes, Long minDurationMs, Integer maxSamples,
                     Long warmupDurationMs, Boolean sameInputs, Boolean firstOnly) implements ToPage {
    /** Timed runs under {@code durations}; {@code sameInputs} reuses the session's inputs of its previous job. */
    public static RunJob timed(String session, int warmups, int iterations, MinDurations durations, boolean sameInputs) {
        return new RunJob(session, warmups, iterations, FrameCodec.CHUNK_BYTES, durations.timed().toMillis(),
                durations.maxSamples(iterations), durations.warmup().toMillis(), sameInputs ? Boolean.TRUE : null, null);
    }

    /** The session's first run alone. */
    public static RunJob firstOnly(String session) {
        return new RunJob(session, 0, 1, null, null, null, null, null, Boolean.TRUE);
    }

    @Override
    public MessageKind kind() {
        return MessageKind.RUN;
    }
}
