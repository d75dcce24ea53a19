package dev.accelbridge.core;

/**
 * The stated upper bounds of a run and of what a store takes in, declared once: the command line and the plan
 * builder refuse a value above them (exit 2), and {@code merge} refuses a file whose records exceed them, so a
 * store never holds what no run of this Accelbridge could have measured. docs/security.md lists them.
 */
public final class Limits {
    /** The most warm-ups or timed iterations a case may ask for: every sample is kept, so this bounds memory. */
    public static final int MAX_ITERATIONS = 100_000;
    /** The largest batch size: beyond it nothing is a browser-sized batch. */
    public static final int MAX_BATCH = 4096;
    /** The most profiled iterations or leak-check re-creations of a case. */
    public static final int MAX_REPEATS = 10_000;
    /**
     * The default cap on the bytes a browser case's outputs may total when the model does not declare their sizes
     * ({@code --max-result-mb}): 2 GiB.
     */
    public static final long DEFAULT_RESULT_BYTES = 2L << 30;
    /** The most re-runs of a FAILED case ({@code --retries}). */
    public static final int MAX_RETRIES = 10;
    /**
     * The longest text field a store takes from a file (a name, a reason, an evidence line), in characters: far
     * beyond any message Accelbridge writes, small enough that one record cannot blow up a report.
     */
    public static final int MAX_TEXT = 65_536;
    /** The longest recorded plan of a run (the JSON of its options and model list), in characters. */
    public static final int MAX_PLAN_TEXT = 4 << 20;

    /**
     * The most cases one run makes (models and their inputs, times batch sizes, precisions and session options, before
     * the backends): ten times the op suite at three precisions. More is refused before the store is touched.
     */
    public static final int MAX_CASES = 10_000;

    /**
     * The most bytes of inputs a run's cases may hold together: a quarter of this JVM's heap, so the inputs of a run
     * that is accepted fit beside its outputs, references and the store. More is refused before the store is touched.
     */
    public static long maxInputBytes() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    private Limits() {
    }
}
