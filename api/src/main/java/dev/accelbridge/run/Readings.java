package dev.accelbridge.run;

import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.Int64Cut;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Readout;
import dev.accelbridge.core.Readouts;
import dev.accelbridge.core.Status;

/**
 * What {@link CaseExecutor} adds for a model whose outputs a user reads through something ({@link Readouts}): the reading
 * against the reference's, kept in the case's analysis, and said in its reason where it tells more than the raw parity
 * (a wrong raw output whose pooled embeddings still mean the same, a ranking that swaps two near-equal texts).
 */
final class Readings {
    private Readings() {
    }

    /** {@code exec} with its reading against {@code reference}, when one applies (a single pass's outputs). */
    static Execution read(ModelCase mc, Reference reference, Execution exec) {
        if (reference == null || reference.outputs().isEmpty() || exec == null) {
            return exec;
        }
        return Readouts.judge(mc, reference.outputs().get(), exec.outputs())
                .map(r -> new Execution(exec.outputs(), exec.timings(), exec.memory(), exec.provenance(), exec.warnings(),
                        exec.analysis().withReadout(r)))
                .orElse(exec);
    }

    /**
     * What a wrong output's parity says, and why where that is known: int64 values cut to 32 bits ({@link Int64Cut}), by
     * graph capture on the native WebGPU EP when the case ran so.
     */
    static String wrong(Parity parity, Reference reference, Execution exec, CaseId id) {
        if (reference == null || reference.outputs().isEmpty() || exec == null) {
            return parity.describe();
        }
        boolean capturedOnNativeEp = id.runtimeOptions().get(RuntimeOption.GRAPH_CAPTURE).equals("on")
                && OrtWebEngine.of(id.lane()).filter(OrtWebEngine::isNativeEp).isPresent();
        String why = capturedOnNativeEp ? "graph capture on the native WebGPU EP runs int64 on the GPU as 32 bits" : "int64 computed as 32 bits";
        return parity.describe() + Int64Cut.find(reference.outputs().get(), exec.outputs()).map(cut -> "; " + cut + " (" + why + ")").orElse("");
    }

    /** {@code reason} with the reading where it says something the status does not. */
    static String noted(String reason, Status status, Execution exec) {
        Readout r = exec == null || exec.analysis() == null ? null : exec.analysis().readout();
        if (r == null || (status == Status.PASSED && r.allAgree()) || (status != Status.PASSED && status != Status.WRONG_OUTPUT)) {
            return reason;
        }
        String said = status == Status.PASSED ? "within tolerance, but " + r.describe() : r.describe();
        return reason == null ? said : reason + "; " + said;
    }
}
