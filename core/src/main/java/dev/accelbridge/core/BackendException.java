package dev.accelbridge.core;

/**
 * Root of the backend layer's errors: a provider could not run a case. The subclass decides the case's
 * {@link Status}; the phase says where it broke, which the fallback resolver uses to move on.
 */
public class BackendException extends AccelbridgeException {
    /** Where in a case a backend failed. */
    public enum Phase { PROBE, LOAD, RUN, TIMEOUT, CRASH }

    private final Phase phase;

    public BackendException(Phase phase, String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
        this.phase = phase;
    }

    /** Where it broke. */
    public Phase phase() {
        return phase;
    }

    /** The status a case that ended with this error gets. */
    public Status status() {
        return Status.FAILED;
    }
}
