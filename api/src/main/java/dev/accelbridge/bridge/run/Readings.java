package dev.accelbridge.bridge.run;

import dev.accelbridge.core.Execution;
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

    /** {@code exec} with its reading against {@code reference}, when one applies. */
    static Execution read(ModelCase mc, Reference reference, Execution exec) {
        if (mc.generation() != null || reference == null || reference.outputs().isEmpty() || exec == null) {
            return exec;
        }
        return Readouts.judge(mc, reference.outputs().get(), exec.outputs())
                .map(r -> new Execution(exec.outputs(), exec.timings(), exec.memory(), exec.provenance(), exec.warnings(),
                        exec.analysis().withReadout(r)))
                .orElse(exec);
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
