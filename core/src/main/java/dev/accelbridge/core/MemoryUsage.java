package dev.accelbridge.core;

/**
 * Process memory around a case, in bytes, where the platform tells it (-1 when not measurable, e.g. a
 * browser process the bridge does not own).
 *
 * @param rssBefore resident set size before the model was loaded
 * @param rssAfter  resident set size after the timed iterations
 * @param rssPeak   the highest resident set size sampled during the case
 */
public record MemoryUsage(long rssBefore, long rssAfter, long rssPeak) {
    /** Nothing measurable. */
    public static final MemoryUsage UNKNOWN = new MemoryUsage(-1, -1, -1);
}
