package dev.accelbridge.core;

/**
 * One candidate on a fallback chain and what happened to it.
 *
 * @param backend the candidate
 * @param taken   true for the hop that finally ran the case
 * @param reason  why it was taken or rejected (the probe's evidence, the load error, ...)
 */
public record FallbackHop(BackendId backend, boolean taken, String reason) {
    /** The reason often quotes a page or a runtime: kept one line and bounded ({@link Untrusted#reason}). */
    public FallbackHop {
        reason = Untrusted.reason(reason);
    }
}
