package dev.accelbridge.core;

/**
 * Root of the backend layer's errors: a provider could not run a case. The subclass decides the case's
 * {@link Status}; the phase says where it broke, which the fallback resolver uses to move on.
 */
public class BackendException extends AccelbridgeException {
    /** Where in a case a backend failed. */
    public enum Phase {
        PROBE("probe"), LOAD("load"), RUN("run"), TIMEOUT("run"), CRASH("run"),
        /** Outputs or inputs could not cross to or from the page (a frame or the job's byte budget refused them). */
        TRANSFER("transfer"),
        /** The model cannot fit the lane's limits (wasm32's address space, the adapter's buffer limits). */
        FIT("fit");

        private final String stage;

        Phase(String stage) {
            this.stage = stage;
        }

        /** The stage a result's reason names ({@code load}, {@code run}, {@code transfer}, {@code fit}, ...). */
        public String stage() {
            return stage;
        }
    }

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
