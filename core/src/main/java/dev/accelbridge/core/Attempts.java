package dev.accelbridge.core;

import java.util.List;

/**
 * How many times a case ran before its result ({@code --retries}): a case that FAILED and was run again on a fresh page
 * keeps the reasons of its failed attempts, so a pass on a re-run is reported as flaky and never as a plain PASSED.
 *
 * @param count   attempts made, the last one being the result (1 when it was not retried)
 * @param earlier one line per failed earlier attempt ({@code FAILED: Browser crashed ...}), oldest first
 */
public record Attempts(int count, List<String> earlier) {
    /** A case run once. */
    public static final Attempts FIRST = new Attempts(1, List.of());

    public Attempts {
        earlier = earlier == null ? List.of() : List.copyOf(earlier);
        if (count < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, got " + count);
        }
    }

    /** This count, one attempt more after an attempt that failed for {@code why}. */
    public Attempts after(String why) {
        List<String> e = new java.util.ArrayList<>(earlier);
        e.add(why);
        return new Attempts(count + 1, e);
    }
}
