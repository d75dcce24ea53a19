package dev.accelbridge.bridge.run;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.GenerationCheck;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Tolerance;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * What {@link CaseExecutor} does differently for a generation case: it is teacher-forced with its reference's tokens, and
 * judged by {@link GenerationCheck} (tokens verified, teacher-forced logits within tolerance step by step) instead of
 * output by output; the verdict's count of verified generations joins the case's decoding figures.
 */
final class GenerationCases {
    private GenerationCases() {
    }

    /**
     * A generation's verdict.
     *
     * @param execution the execution, its decoding figures with the count of verified generations
     * @param parity    the teacher-forced logits against the reference's, {@code within} false when the case is wrong; null
     *                  for the reference itself
     * @param reason    why it is wrong, or what to know of a pass (a near-tie); null for a plain pass
     */
    record Judged(Execution execution, Parity parity, String reason) {
        boolean wrong() {
            return parity != null && !parity.within();
        }
    }

    /** {@code mc} teacher-forced with the reference's first generation's tokens, when there is a reference. */
    static ModelCase teacherForced(ModelCase mc, Reference reference) {
        if (mc.generation() == null || reference == null || reference.outputs().isEmpty()) {
            return mc;
        }
        return reference.outputs().get().stream().filter(t -> t.name().equals(Generation.TOKENS)).findFirst()
                .map(t -> mc.withGeneration(mc.generation().withTeacher(Arrays.copyOf(t.toLongs(), mc.generation().newTokens()))))
                .orElse(mc);
    }

    /**
     * Judges a generation's outputs against {@code reference} (null: this is the reference, checked against its own first
     * generation).
     *
     * @throws dev.accelbridge.core.AccelbridgeException when the outputs do not have the form of a generation's
     */
    static Judged judge(ModelCase mc, Reference reference, Execution exec, Function<DType, Tolerance> tolerance) {
        List<NamedTensor> outputs = exec.outputs();
        GenerationCheck.Verdict v = reference == null || reference.outputs().isEmpty()
                ? GenerationCheck.selfCheck(outputs)
                : GenerationCheck.judge(reference.outputs().get(), outputs, tolerance, reference.against(), mc.scenario().promptTokens());
        Parity p = v.parity();
        if (p != null && p.within() == v.wrong()) {
            p = new Parity(p.maxAbsErr(), p.maxRelErr(), p.cosine(), p.tolerance(), !v.wrong(), p.against(), p.nonFinite(), p.rtol(),
                    p.budget(), p.basis());
        }
        Execution e = exec.timings() == null || exec.timings().decoding() == null ? exec
                : new Execution(outputs, exec.timings().withDecoding(exec.timings().decoding().withVerified(v.generations(), v.verified())),
                exec.memory(), exec.provenance(), exec.warnings(), exec.analysis());
        return new Judged(e, p, v.reason());
    }
}
