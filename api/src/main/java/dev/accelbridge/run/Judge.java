package dev.accelbridge.run;

import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Scenario;
import dev.accelbridge.core.Tolerance;

import java.time.Duration;
import java.util.function.Function;

/**
 * How {@link CaseExecutor} treats a case of one {@link Scenario}: what the backend is asked to run, how its outputs are
 * judged against the reference, and what bisection cuts it down to. One judge per kind of scenario, picked in one place
 * ({@link #of}); the executor and bisection ask the judge and never the scenario's kind.
 */
interface Judge {
    /** The judge of {@code s}'s kind: the api's one dispatch on a case's scenario. */
    static Judge of(Scenario s) {
        return s.accept(new Scenario.Cases<Judge>() {
            @Override
            public Judge singlePass(Scenario.SinglePass x) {
                return SinglePassJudge.INSTANCE;
            }

            @Override
            public Judge generation(Generation g) {
                return new GenerationJudge(g);
            }
        });
    }

    /** {@code mc} as the backend is asked to run it against {@code reference} (null: it is the reference). */
    ModelCase prepared(ModelCase mc, Reference reference);

    /**
     * The verdict on {@code exec}'s outputs against {@code reference}'s, or, for the reference itself ({@code reference}
     * null), against what the model ships or its own repeats. Not asked when the reference has no outputs: that case is
     * WRONG_OUTPUT "no reference output" whatever its scenario.
     */
    Judged judge(ModelCase mc, Reference reference, Execution exec, Function<DType, Tolerance> tolerance);

    /**
     * The case bisection walks for {@code result}, a wrong result of {@code mc} (a generation: the single step its verdict
     * blames, with that step's own feeds).
     *
     * @throws dev.accelbridge.core.AccelbridgeException when the verdict names nothing to bisect
     */
    ModelCase bisected(ModelCase mc, RunResult result, BackendProvider cpu, Duration timeout);

    /**
     * A judge's verdict on one execution.
     *
     * @param execution the execution, with what the verdict adds to its figures (a generation's verified count, a reading)
     * @param parity    the outputs against the reference, or null when nothing was compared
     * @param note      what to know of the verdict (a near-tie, the first bad step), or null
     * @param failure   why the case is wrong with no parity to say it (outputs that do not fit the reference's), or null
     */
    record Judged(Execution execution, Parity parity, String note, String failure) {
    }
}
