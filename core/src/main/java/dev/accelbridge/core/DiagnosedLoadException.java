package dev.accelbridge.core;

/**
 * A load the runtime refused at the case's optimization level and accepted at a lower one: FAILED, with the diagnosis
 * as a value ({@link LoadDiagnosis}) beside its sentence, so what acts on it (a repro written beside the report) reads
 * the value, never the sentence back.
 */
public class DiagnosedLoadException extends ExecutionFailedException {
    private final transient LoadDiagnosis diagnosis;

    public DiagnosedLoadException(String problem, LoadDiagnosis diagnosis, Throwable cause) {
        super(Phase.LOAD, problem, diagnosis.fix(), cause);
        this.diagnosis = diagnosis;
    }

    /** What was found. */
    public LoadDiagnosis diagnosis() {
        return diagnosis;
    }
}
