package dev.accelbridge.fallback;

import dev.accelbridge.core.PublicApi;
/** What is known about one candidate of a {@link Resolution}. */
@PublicApi
public enum HopState {
    /** The probe said it is available and it has not been tried yet or it is the chosen one. */
    AVAILABLE,
    /** The probe said it is not available. */
    UNAVAILABLE,
    /** No probe answered for it: rejected, never guessed. */
    NOT_PROBED,
    /** It was chosen and failed to load or run. */
    FAILED,
    /** It was chosen and said the model cannot run on it. */
    UNSUPPORTED,
    /** It was chosen, ran, and its output was outside tolerance (moved on by policy). */
    WRONG_OUTPUT;

    /** True when this hop may still be chosen. */
    public boolean usable() {
        return this == AVAILABLE;
    }
}
