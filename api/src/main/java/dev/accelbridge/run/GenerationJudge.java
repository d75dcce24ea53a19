package dev.accelbridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.GenerationCheck;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Tolerance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A generation case: teacher-forced with its reference's tokens, and judged by {@link GenerationCheck} (tokens verified,
 * teacher-forced logits within tolerance step by step) instead of output by output; the verdict's count of verified
 * generations joins the case's decoding figures. Bisection walks the single step the verdict blames.
 */
final class GenerationJudge implements Judge {
    private final Generation generation;

    GenerationJudge(Generation generation) {
        this.generation = generation;
    }

    @Override
    public ModelCase bisected(ModelCase mc, RunResult result, BackendProvider cpu, java.time.Duration timeout) {
        int depth = GenerationCheck.pastLengthIn(result.reason()).orElseThrow(() -> new AccelbridgeException(
                "the generation's verdict names no step to bisect (" + result.reason() + ")", "bisect its grid's single steps"));
        return stepCase(mc, depth, cpu, timeout);
    }

    /**
     * The single step a generation's verdict blames, as a case of one forward pass with that step's own feeds, its past
     * included: the token fed at that step (the reference's), and the cache the reference's prefill of the prompt and the
     * tokens before it gives (a native CPU run of the same graph). What bisection runs on, and its repro feeds.
     *
     * @param pastLength the cache depth the bad token was computed at ({@link GenerationCheck#pastLengthIn})
     */
    ModelCase stepCase(ModelCase mc, int pastLength, BackendProvider cpu, java.time.Duration timeout) {
        DecoderLayout l = generation.layout();
        long[] prompt = mc.inputs().stream().filter(t -> t.name().equals(l.inputIds())).findFirst().orElseThrow().toLongs();
        long[] tokens = cpu.execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, timeout)).outputs().stream()
                .filter(t -> t.name().equals(Generation.TOKENS)).findFirst().orElseThrow().toLongs();
        NamedTensor hidden = encoded(mc, cpu, timeout);
        if (pastLength == 0) {
            return new ModelCase(mc.model(), "step past0 of the generation", l.feeds(prompt, 0, l.emptyCache(), hidden), Optional.empty());
        }
        long[] before = new long[pastLength];
        for (int i = 0; i < pastLength; i++) {
            before[i] = i < prompt.length ? prompt[i] : tokens[i - prompt.length];
        }
        ModelCase prefill = new ModelCase(mc.model(), "prefill", l.feeds(before, 0, l.emptyCache(), hidden), Optional.empty());
        List<NamedTensor> presents = cpu.execute(new ExecutionRequest(BackendId.CPU, prefill, 0, 1, timeout)).outputs();
        List<NamedTensor> past = new ArrayList<>();
        for (DecoderLayout.Cache c : l.cache()) {
            past.add(presents.stream().filter(t -> t.name().equals(c.present())).findFirst().orElseThrow().withName(c.past()));
        }
        long next = tokens[pastLength - prompt.length];
        return new ModelCase(mc.model(), "step past" + pastLength + " of the generation", l.feeds(new long[] {next}, pastLength, past, hidden),
                Optional.empty());
    }

    /** An encoder-decoder's encoder states for {@code mc}'s features (the native CPU run's); null for a decoder alone. */
    private NamedTensor encoded(ModelCase mc, BackendProvider cpu, java.time.Duration timeout) {
        Generation.Encoder e = generation.encoder();
        if (e == null) {
            return null;
        }
        NamedTensor features = mc.inputs().stream().filter(t -> t.name().equals(e.features())).findFirst().orElseThrow();
        return cpu.execute(new ExecutionRequest(BackendId.CPU, new ModelCase(e.model(), "features", List.of(features), Optional.empty()), 0, 1,
                timeout)).outputs().stream().filter(t -> t.name().equals(e.output())).findFirst().orElseThrow();
    }

    /** {@code mc} teacher-forced with the reference's first generation's tokens, when there is a reference. */
    @Override
    public ModelCase prepared(ModelCase mc, Reference reference) {
        if (reference == null || reference.outputs().isEmpty()) {
            return mc;
        }
        return reference.outputs().get().stream().filter(t -> t.name().equals(Generation.TOKENS)).findFirst()
                .map(t -> mc.withScenario(generation.withTeacher(Arrays.copyOf(t.toLongs(), generation.newTokens()))))
                .orElse(mc);
    }

    /**
     * Judges a generation's outputs against {@code reference}'s, or, for the reference itself ({@code reference} null),
     * each of its generations against its own first, judged the same way ("repeated", never "verified"). A case whose
     * reference has no outputs is not judged here: it is WRONG_OUTPUT "no reference output", as a single pass is. Outputs
     * that do not have the form of a generation's are wrong, with nothing to compare.
     */
    @Override
    public Judged judge(ModelCase mc, Reference reference, Execution exec, Function<DType, Tolerance> tolerance) {
        try {
            return verdict(mc, reference, exec, tolerance);
        } catch (RuntimeException e) {
            return new Judged(exec, null, null, CaseExecutor.staged("compare", "the generation's outputs do not match the reference's: "
                    + e.getMessage(), mc));
        }
    }

    private static Judged verdict(ModelCase mc, Reference reference, Execution exec, Function<DType, Tolerance> tolerance) {
        List<NamedTensor> outputs = exec.outputs();
        GenerationCheck.Verdict v = reference == null
                ? GenerationCheck.repeatCheck(outputs, tolerance, mc.scenarioId().promptTokens())
                : GenerationCheck.judge(reference.outputs().orElseThrow(), outputs, tolerance, reference.against(), mc.scenarioId().promptTokens());
        Parity p = v.parity();
        if (p != null && p.within() == v.wrong()) {
            p = new Parity(p.maxAbsErr(), p.maxRelErr(), p.cosine(), p.tolerance(), !v.wrong(), p.against(), p.nonFinite(), p.rtol(),
                    p.budget(), p.basis());
        }
        Execution e = !(exec.timings().figures() instanceof Decoding d) ? exec
                : new Execution(outputs, exec.timings().withDecoding(d.withVerified(v.check(), v.generations(),
                v.verified())), exec.memory(), exec.provenance(), exec.warnings(), exec.analysis());
        // the reference's own tokens that do not repeat: wrong, with no parity to say it
        return new Judged(e, p, v.reason(), v.wrong() && p == null ? v.reason() : null);
    }
}
