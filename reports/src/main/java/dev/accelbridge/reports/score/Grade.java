package dev.accelbridge.reports.score;

import dev.accelbridge.core.PublicApi;
/** The coarse reading of a cell, as the matrix shows it; the rules are in {@link Scorer}. */
@PublicApi
public enum Grade {
    /** Correct on the requested backend, with meaningful speed (hardware or CPU), at most 2× slower than native CPU. */
    HIGH,
    /** Works with a caveat: a fallback, a software adapter or an unverified WebNN device, or 2–10× slower than native CPU. */
    MEDIUM,
    /** Wrong output, or ran more than 10× slower than native CPU. */
    LOW,
    /** Did not run. */
    NONE;

    /** "High", "Medium", "Low", "None" (for people; JSON carries {@link #name()}). */
    public String label() {
        return name().charAt(0) + name().substring(1).toLowerCase(java.util.Locale.ROOT);
    }
}
