package dev.accelbridge.core;

/** The status of one case, as fixed by docs/design.md. */
public enum Status {
    /** Ran on the requested backend and the output is within tolerance. */
    PASSED,
    /** Ran on a later hop of the fallback chain; requested vs actual and the reason are kept. */
    FELL_BACK,
    /** Ran, but the output is outside tolerance. */
    WRONG_OUTPUT,
    /** An error while loading or running; the error is kept. */
    FAILED,
    /** The backend is present, but this model cannot run on it. */
    UNSUPPORTED,
    /** The backend is not present on this host; the probe's evidence is kept. */
    UNAVAILABLE;

    /** True when the case actually executed and produced figures. */
    public boolean executed() {
        return this == PASSED || this == FELL_BACK || this == WRONG_OUTPUT;
    }
}
