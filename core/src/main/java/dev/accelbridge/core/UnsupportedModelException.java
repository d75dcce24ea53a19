package dev.accelbridge.core;

/** The backend is present but cannot run this model (an op or type it lacks, e.g. fp16 without shader-f16). */
public class UnsupportedModelException extends BackendException {
    public UnsupportedModelException(String problem, String fix, Throwable cause) {
        super(Phase.LOAD, problem, fix, cause);
    }

    /** Same, found at {@code phase} (e.g. {@link Phase#FIT}: the model cannot fit the lane's limits). */
    public UnsupportedModelException(Phase phase, String problem, String fix, Throwable cause) {
        super(phase, problem, fix, cause);
    }

    @Override
    public Status status() {
        return Status.UNSUPPORTED;
    }
}
