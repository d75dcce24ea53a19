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
        try {
            // the reference itself is checked against the outputs the model ships, when it ships any
            p = (reference == null ? Reference.expected(mc) : Optional.of(reference)).flatMap(r -> r.compare(exec.outputs(), tolerance));
        } catch (RuntimeException e) {
            // outputs that do not fit what they are compared with are this case's wrong output, not the run's end
            p = Optional.empty();
            failure = CaseExecutor.staged("compare", "outputs do not match " + (reference == null
                    ? "the shape of the expected outputs shipped with the model" : "the reference's shape") + ": " + e.getMessage(), mc);
        }
        return new Judged(Readings.read(mc, reference, exec), p.orElse(null), null, failure);
    }

    @Override
    public ModelCase bisected(ModelCase mc, RunResult result, BackendProvider cpu, Duration timeout) {
        return mc;
    }
}
