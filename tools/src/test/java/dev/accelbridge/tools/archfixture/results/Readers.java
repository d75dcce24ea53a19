package dev.accelbridge.tools.archfixture.results;

/** Readers of a {@link Row}: two unwrap its part (one over two lines), one reads it without unwrapping. */
public final class Readers {
    private Readers() {
    }

    /** Unwraps on one line. */
    public static double unwrapped(Row r) {
        return r.timings().orElseThrow();
    }

    /** Unwraps over two lines. */
    public static double unwrappedOverTwoLines(Row r) {
        return r.timings()
                .get();
    }

    /** Reads it as a value that may be absent. */
    public static double read(Row r) {
        return r.timings().orElse(Double.NaN);
    }
}
