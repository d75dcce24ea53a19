package dev.accelbridge.core;

import java.time.Instant;
import java.util.List;

/**
 * One case's result, as a value (like JUnit's {@code TestExecutionResult}): the case's identity, status, reason
 * and provenance, and the figures when it executed. Everything numeric comes from a real execution; whether and where it
 * ran is its {@link Outcome} (what did not run has no backend and no timings, never placeholders).
 *
 * @param runId        the run this case belongs to
 * @param startedAt    when the case started
 * @param id           the case's identity (model, inputs, shapes, precision, batch, requested backend, lane)
 * @param outcome      whether it ran, on which backend, what was timed and how its outputs compared ({@link #actual()},
 *                     {@link #timings()}, {@link #parity()})
 * @param status       the case status
 * @param reason       why: the error, the probe's evidence, the fallback reason; null for a plain PASSED
 * @param provenance   host, browser build, driver, adapter, versions, threads
 * @param memory       process memory, {@link MemoryUsage#UNKNOWN} when not measurable
 * @param fallbackPath every hop considered, in order, with its reason (one hop when no fallback happened)
 * @param warnings     runtime warnings
 * @param variantParity for a dtype variant: its outputs against the variant's own native CPU run, what its status
 *                      rests on ({@link #correctness()}); null otherwise and for that run itself
 * @param analysis     the drill-down: bisection, op profile, cold start, leak check ({@link Analysis#NONE} when none)
 * @param attempts     how many times the case ran ({@code --retries}) and why the earlier attempts failed
 * @param sharedFigures the figures (timings, memory, outputs judged) are those of the same work measured by another cell
 *                      of the lane, {@link #figuresOf()}: a fallback that landed on a backend its lane measures for the same
 *                      case is judged on that one measurement, not run again
 */
public record RunResult(String runId, Instant startedAt, CaseId id, Outcome outcome, Status status, String reason,
                        Provenance provenance, MemoryUsage memory,
                        List<FallbackHop> fallbackPath, List<String> warnings, Parity variantParity,
                        Analysis analysis, Attempts attempts, boolean sharedFigures) {
    /**
     * A case's result: how it ended ({@code outcome}, made whole by the code that knows it: the fallback loop for a case, the
     * observer's judge for a session) and its status, reason and provenance. Its variant parity, drill-down, attempts and
     * shared figures are added by the {@code with} steps.
     */
    public static RunResult of(String runId, Instant startedAt, CaseId id, Outcome outcome, Status status, String reason,
                               Provenance provenance, MemoryUsage memory, List<FallbackHop> fallbackPath, List<String> warnings) {
        return new RunResult(runId, startedAt, id, outcome, status, reason, provenance, memory, fallbackPath,
                warnings, null, Analysis.NONE, Attempts.FIRST, false);
    }

    /** A case that ran nowhere ({@code status} says why: unavailable, unsupported, failed before it ran): no figures. */
    public static RunResult notRun(String runId, Instant startedAt, CaseId id, Status status, String reason, Provenance provenance,
                                   List<FallbackHop> fallbackPath) {
        return of(runId, startedAt, id, new Outcome.NotRun(), status, reason, provenance, null, fallbackPath, List.of());
    }

    /**
     * The reason and the warnings quote what other programs said (a registry, a runner, a page, a driver): each is kept
     * one line and at most {@link Untrusted#MAX_REASON} characters, so no answer from outside can make a result the store
     * or a merge refuses, or a report or a terminal misread.
     */
    public RunResult {
        java.util.Objects.requireNonNull(id, "id");
        java.util.Objects.requireNonNull(outcome, "outcome");
        reason = Untrusted.reason(reason);
        fallbackPath = fallbackPath == null ? List.of() : List.copyOf(fallbackPath);
        warnings = warnings == null ? List.of() : warnings.stream().map(Untrusted::reason).toList();
        memory = memory == null ? MemoryUsage.UNKNOWN : memory;
        analysis = analysis == null ? Analysis.NONE : analysis;
        attempts = attempts == null ? Attempts.FIRST : attempts;
        if (sharedFigures && outcome.ranOn().isEmpty()) {
            throw new IllegalArgumentException("a result that ran nowhere has no figures to share: " + id.key());
        }
    }

    /**
     * The cell whose measurement these figures are, when they are another's ({@link #sharedFigures}): the same case
     * requested on the backend that ran it, at the session options that apply there.
     */
    public java.util.Optional<CaseId> figuresOf() {
        return sharedFigures ? outcome.ranOn().map(b -> id.withRequested(b).withRuntimeOptions(id.runtimeOptions().on(b, id.lane())))
                : java.util.Optional.empty();
    }

    /** The same result, its figures another cell's measurement ({@link #figuresOf()}). */
    public RunResult withSharedFigures() {
        return new RunResult(runId, startedAt, id, outcome, status, reason, provenance, memory, fallbackPath,
                warnings, variantParity, analysis, attempts, true);
    }

    /** The backend that ran it, if one did ({@link #outcome()}). */
    public java.util.Optional<BackendId> actual() {
        return outcome.ranOn();
    }

    /**
     * Its outputs against the reference ({@link #outcome()}): empty when nothing ran, for the reference itself and where they
     * were not compared (a dtype variant's: against the fp32 model's native CPU run, its designed loss, {@link #fidelity()}).
     */
    public java.util.Optional<Parity> parity() {
        return outcome.compared();
    }

    /** What was timed of it, if anything ({@link #outcome()}). */
    public java.util.Optional<Timings> timings() {
        return outcome.timed();
    }

    /** Whether {@code backend} ran it. */
    public boolean ranOn(BackendId backend) {
        return outcome.ranOn().filter(backend::equals).isPresent();
    }

    /** Whether it ran on a backend other than the one asked for (a fallback's figures). */
    public boolean ranElsewhere() {
        return outcome.ranOn().filter(b -> b != id.requested()).isPresent();
    }

    /** The model family. */
    public ModelFamily suite() {
        return id.family();
    }

    /** The model name. */
    public String model() {
        return id.model();
    }

    /** The input set name. */
    public String inputSet() {
        return id.inputSet();
    }

    /** The exact model file that ran. */
    public String modelSha256() {
        return id.modelSha256();
    }

    /** The backend the user asked for. */
    public BackendId requested() {
        return id.requested();
    }

    /** The lane. */
    public LaneId lane() {
        return id.lane();
    }

    /** True when this case ran on the native CPU (asked for it, or fell back to it natively): what the reference runs on. */
    public boolean ranOnNativeCpu() {
        return ranOn(BackendId.CPU) && id.lane().side() == LaneSide.NATIVE;
    }

    /** The host fingerprint from the provenance, or null. */
    public String hostFingerprint() {
        return provenance == null ? null : provenance.hostFingerprint();
    }

    /** The matrix cell of this result: its case on its host. */
    public CaseId.CellId cell() {
        return id.cellOn(hostFingerprint());
    }

    /** The same result with another status and reason (used when parity or fallback decides the final status). */
    public RunResult withStatus(Status newStatus, String newReason) {
        return new RunResult(runId, startedAt, id, outcome, newStatus, newReason, provenance, memory,
                fallbackPath, warnings, variantParity, analysis, attempts, sharedFigures);
    }

    /** The same result with other timings (e.g. the samples loaded from the store). */
    public RunResult withTimings(Timings t) {
        return new RunResult(runId, startedAt, id, outcome.withTimings(t), status,
                reason, provenance, memory, fallbackPath, warnings, variantParity, analysis, attempts, sharedFigures);
    }

    /** The same result with its variant's comparison. */
    public RunResult withVariantParity(Parity p) {
        return new RunResult(runId, startedAt, id, outcome, status, reason, provenance, memory, fallbackPath,
                warnings, p, analysis, attempts, sharedFigures);
    }

    /** The same result with its drill-down. */
    public RunResult withAnalysis(Analysis a) {
        return new RunResult(runId, startedAt, id, outcome, status, reason, provenance, memory, fallbackPath,
                warnings, variantParity, a, attempts, sharedFigures);
    }

    /** The same result after {@code a} attempts. */
    public RunResult withAttempts(Attempts a) {
        return new RunResult(runId, startedAt, id, outcome, status, reason, provenance, memory, fallbackPath,
                warnings, variantParity, analysis, a, sharedFigures);
    }

    /**
     * True when an earlier attempt FAILED and a re-run did not: the case is flaky whatever its final status, and a pass
     * is never reported as a plain PASSED.
     */
    public boolean flaky() {
        return attempts.count() > 1 && status != Status.FAILED;
    }

    /**
     * The comparison this result's status rests on: for a dtype variant, its outputs against the same file's native CPU run
     * (none for that run itself: it is the variant's reference); for any other case, and a variant whose own run could not
     * be compared, {@link #parity()}.
     */
    public java.util.Optional<Parity> correctness() {
        if (fp32Parity().isEmpty()) {
            return parity();
        }
        // a variant whose own run could not be compared (its outputs do not fit that run's) rests on the fp32 comparison
        return variantParity != null ? java.util.Optional.of(variantParity) : ranOnNativeCpu() ? java.util.Optional.empty() : parity();
    }

    /** A dtype variant's outputs against the fp32 model's native CPU run, if this is such a comparison. */
    public java.util.Optional<Parity> fp32Parity() {
        return parity().filter(p -> id.precision() != Precision.FP32 && p.againstFp32());
    }

    /** A dtype variant's designed loss against fp32 native, beside its verdict; empty for fp32 and uncompared cases. */
    public java.util.Optional<Fidelity> fidelity() {
        return Fidelity.of(this);
    }

    /** Whether the backend computed this case wrongly, known to be so ({@link #defectFinding()} is {@link Defect#FOUND}). */
    public boolean defect() {
        return defectFinding() == Defect.FOUND;
    }

    /**
     * Whether the backend computed this case wrongly, as far as was checked: WRONG_OUTPUT is a defect unless it rests on a
     * dtype variant's distance from fp32 alone. Then the variant's own native CPU run decides: a backend that differs from
     * it is wrong, one that agrees shares the variant's designed loss, the run itself is the reference; where that run could
     * not be compared, a bisection against the same file's native CPU run that found a diverging node makes it a defect,
     * else the loss and the backend's own error are not told apart (found when tried: the same loss was PASSED natively
     * and a defect on wasm).
     */
    public Defect defectFinding() {
        if (status != Status.WRONG_OUTPUT) {
            return Defect.NONE;
        }
        if (fp32Parity().isEmpty()) {
            return Defect.FOUND;
        }
        return switch (Fidelity.Basis.of(this)) {
            case DESIGNED -> Defect.NONE;
            case WITH_BACKEND_ERROR -> Defect.FOUND;
            // its own run not compared: a bisection against the same file's native CPU run tells the loss from the backend
            case UNTOLD -> analysis.bisection() != null && analysis.bisection().outcome() == Bisection.Outcome.FOUND
                    ? Defect.FOUND : Defect.UNKNOWN;
        };
    }

    /** The diagnostics this result gives, most severe first. */
    public List<Diagnostic> diagnostics() {
        return Diagnostic.of(this);
    }
}
