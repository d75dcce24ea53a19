package dev.accelbridge.fallback;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Status;

/** When a case that ran on the chosen hop moves on to the next hop at run time. */
@PublicApi
public enum FallbackPolicy {
    /** Move on when loading or running failed (the default). A wrong output is kept as WRONG_OUTPUT. */
    ON_FAILURE,
    /** Move on when loading or running failed, and also when the output was outside tolerance. */
    ON_FAILURE_AND_WRONG_OUTPUT;

    /** True when a case that ended with {@code outcome} on the chosen hop should try the next hop. */
    public boolean movesOn(Status outcome) {
        return switch (outcome) {
            case FAILED, UNSUPPORTED -> true;
            case WRONG_OUTPUT -> this == ON_FAILURE_AND_WRONG_OUTPUT;
            default -> false;
        };
    }

    /** Parses {@code on-failure} / {@code on-failure-and-wrong-output} (case and '-'/'_' insensitive). */
    public static FallbackPolicy parse(String text) {
        String t = text == null ? "" : text.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
        for (FallbackPolicy p : values()) {
            if (p.name().equals(t)) {
                return p;
            }
        }
        throw new FallbackException("Unknown fallback policy '" + text + "'",
                "use on-failure or on-failure-and-wrong-output");
    }
}
