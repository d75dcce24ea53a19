package dev.accelbridge.run;

import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Tolerance;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * One forward pass, judged output by output against the reference (or, for the reference itself, against the outputs
 * the model ships, if any), with what users read off the outputs beside the raw parity ({@link Readings}).
 */
final class SinglePassJudge implements Judge {
    static final SinglePassJudge INSTANCE = new SinglePassJudge();

    private SinglePassJudge() {
    }

    @Override
    public ModelCase prepared(ModelCase mc, Reference reference) {
        return mc;
    }

    @Override
    public Judged judge(ModelCase mc, Reference reference, Execution exec, Function<DType, Tolerance> tolerance) {
        Optional<Parity> p;
        String failure = null;
        if (reference == null) {
            try {
                p = Reference.expected(mc).flatMap(r -> r.compare(exec.outputs(), tolerance));
            } catch (RuntimeException e) {
                // the model's shipped expected outputs do not fit what it computes: this case's finding, not the run's end
                p = Optional.empty();
                failure = CaseExecutor.staged("compare", "outputs do not match the shape of the expected outputs shipped with the model: "
                        + e.getMessage(), mc);
            }
        } else {
            try {
                p = reference.compare(exec.outputs(), tolerance);
            } catch (RuntimeException e) {
                // A shape or count mismatch with the reference is wrong output, not a crash.
                p = Optional.empty();
                failure = CaseExecutor.staged("compare", "outputs do not match the reference's shape: " + e.getMessage(), mc);
            }
        }
        return new Judged(Readings.read(mc, reference, exec), p.orElse(null), null, failure);
    }

    @Override
    public ModelCase bisected(ModelCase mc, RunResult result, BackendProvider cpu, Duration timeout) {
        return mc;
    }
}
