package dev.accelbridge.core;

/** Loading or running failed (error, timeout, crashed browser); the case is FAILED with this message. */
public class ExecutionFailedException extends BackendException {
    public ExecutionFailedException(Phase phase, String problem, String fix, Throwable cause) {
        super(phase, problem, fix, cause);
    }
}
