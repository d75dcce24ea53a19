package dev.accelbridge.core;

/** The backend is present but cannot run this model (an op or type it lacks, e.g. fp16 without shader-f16). */
public class UnsupportedModelException extends BackendException {
    /**
     * ONNX Runtime's own words (a regular-expression alternation, case-insensitive) for "this runtime cannot run what the
     * model uses", the same natively and in onnxruntime-web, whose core is the same code: no kernel for an op or type, an
     * op it does not know, or a model format newer than the runtime ("Unsupported model IR version: 10, max supported IR
     * version: 9"). Each side adds the words only its own execution providers say.
     */
    public static final String ORT_WORDS = "could not find an implementation|not a registered function/op|no op registered for"
            + "|unsupported (data ?type|op)|unsupported model ir version|opset \\d+ is under development";

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
