package dev.accelbridge.run;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.Resolution;
import dev.accelbridge.fallback.Verdict;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The result row of a case whose fallback chain has settled: its status and its reason said in full, its parity against
 * its own variant run, its provenance, warnings and the mark of figures another cell measured. {@link CaseExecutor}
 * walks the chain; this writes what the walk ends in.
 */
final class CaseRows {
    private CaseRows() {
    }

    /** The result of a case whose chain has settled on {@code res}'s hop (or on none), its reason said in full. */
    static CaseExecutor.Outcome settled(CaseExecutor.CostLookup costs, CaseContext ctx, ModelCase mc, CaseId id, Chain chain,
                                        Resolution res, Status outcome, Execution exec, Judge.Judged verdict, Reference reference,
                                        Instant started, boolean shared) {
        Verdict v = res.statusFor(outcome);
        BackendId actual = res.chosen().orElse(null);
        Parity parity = actual == null || verdict == null ? null : verdict.parity();
        String note = verdict == null ? null : verdict.note();
        if (actual == null) {
            exec = null;
        }
        Parity variant = variantParity(reference, exec, mc, id, actual);
        String reason = v.reason();
        if (v.status() == Status.WRONG_OUTPUT && reason == null && parity != null && variant == null) {
            reason = note != null ? note : "outside tolerance: " + Readings.wrong(parity, reference, exec, id);
        } else if (reason == null && actual != null) {
            reason = note; // a generation's pass worth a sentence: a near-tie, tokens not repeated
        }
        if (reference != null && reference.variantItself() && verdict != null && verdict.failure() != null) {
            reason = (reason == null ? "" : reason + "; ") + "against fp32 native: " + verdict.failure();
        }
        reason = Readings.noted(reason, v.status(), exec);
        if (actual != null && actual != chain.requested() && exec != null) {
            reason = FallbackCost.withCost(reason, id, actual, exec, costs);
        }
        // the chain settled on a hop that ran (its execution judged), or on none
        Outcome ran = actual == null ? new Outcome.NotRun() : ran(actual, exec, parity);
        return new CaseExecutor.Outcome(VariantVerdicts.said(result(ctx, mc, id, res, ran, v.status(), reason, exec, started, shared)
                .withVariantParity(variant), reference != null && reference.variantItself()), Optional.ofNullable(exec));
    }

    /** A variant's outputs against its own native CPU run, when it has one and ran; else null. */
    static Parity variantParity(Reference reference, Execution exec, ModelCase mc, CaseId id, BackendId actual) {
        if (reference == null || exec == null || actual == null || reference.variantRun().isEmpty()) {
            return null;
        }
        try {
            return reference.variantRun().get().compare(exec.outputs(), CaseExecutor.toleranceFor(mc, id, actual)).orElse(null);
        } catch (RuntimeException e) {
            return null; // a shape mismatch is already this case's WRONG_OUTPUT against the fp32 reference
        }
    }

    /** A hop that ran: its execution's timings, its outputs' comparison where they were compared. */
    static Outcome.Ran ran(BackendId hop, Execution exec, Parity parity) {
        return new Outcome.Ran(hop, exec.timings(), Optional.ofNullable(parity));
    }

    /** The row of {@code outcome}, its memory, provenance and warnings from {@code exec} where a hop ran. */
    static RunResult result(CaseContext ctx, ModelCase mc, CaseId id, Resolution res, Outcome outcome, Status status,
                            String reason, Execution exec, Instant started, boolean shared) {
        Provenance prov = (exec != null ? exec.provenance() : ctx.laneProvenance()).withDefaultHost(ctx.host());
        List<String> warnings = new ArrayList<>(exec == null ? List.of() : exec.warnings());
        if (mc.replacedReference() != null) {
            warnings.add(0, mc.replacedReference()); // the reference row itself has no parity to say it in
        }
        RunResult r = RunResult.of(ctx.runId(), started, id, outcome, status, reason, prov,
                exec == null ? null : exec.memory(), res.hops(), warnings).withAnalysis(exec == null ? null : exec.analysis());
        // figures another cell of the lane measured: marked, and said in the reason
        return shared && outcome instanceof Outcome.Ran ? SharedMeasurements.named(r) : r;
    }
}
