package dev.accelbridge.nativerunner;

import dev.accelbridge.core.AccelbridgeException;

/**
 * Root of the native runner's own errors that are not a case's backend failure (those are core's
 * {@link dev.accelbridge.core.BackendException} subclasses, which the orchestrator maps to a status):
 * e.g. the ONNX Runtime engine could not start at all, or a tensor type Accelbridge cannot carry.
 */
public class NativeRunnerException extends AccelbridgeException {
    public NativeRunnerException(String problem, String fix) {
        super(problem, fix);
    }

    public NativeRunnerException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
