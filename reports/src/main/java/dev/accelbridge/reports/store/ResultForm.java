package dev.accelbridge.reports.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Acceleration;
import dev.accelbridge.core.Attempts;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Defect;
import dev.accelbridge.core.Diagnostic;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.Fidelity;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.OpVariant;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * THE JSON form of a result, as a typed record serialised by {@link ResultJson#MAPPER}: {@code run --json}, the export,
 * {@code matrix.json}, {@code /api/*}, the live feed and the pages all write it (the derived forms add fields, such as the
 * score). The case's identity stands beside these fields, one per dimension ({@link ResultJson#putCase}), so a new
 * dimension needs no field here. Flat where scripts read it; a missing figure is {@code null}, a non-finite one the string
 * {@code "NaN"}, {@code "Infinity"} or {@code "-Infinity"} (Jackson's quoting of non-numeric numbers), never a placeholder.
 *
 * @param runId            the run
 * @param startedAt        when the case began (ISO-8601), or null
 * @param caseKey          the case's readable key ({@link CaseId#key()})
 * @param opType           the operator an op-suite case tests ({@link dev.accelbridge.core.OpVariant}), with its domain
 *                         in front when that is not the default ({@code com.microsoft.MatMulNBits}), null for other models
 * @param opset            its opset, null for other models
 * @param variant          its attributes and data types as a short stable string, null for other models
 * @param actual           the backend that ran it, or null
 * @param outcome          whether and where it ran ({@link Outcome.Kind}): which of the backend, the timings and the outputs'
 *                         comparison the row holds; a row whose fields disagree with it is refused
 * @param status           the verdict
 * @param reason           why, as a sentence
 * @param evidence         the same as {@code reason} (the field the CLI's contract named first)
 * @param flaky            it passed only on a re-run
 * @param attempts         how many attempts it took
 * @param earlierAttempts  why the earlier attempts failed
 * @param host             the host's name
 * @param hostFingerprint  the host
 * @param browser          the browser and its build, or null natively
 * @param driver           how the browser was driven
 * @param adapter          the WebGPU adapter, or null
 * @param softwareAdapter  whether that adapter runs on the CPU, or null
 * @param acceleration     what actually did the work, in words
 * @param threads          the intra-op threads used, or null
 * @param loadMs           session creation
 * @param firstMs          the first inference
 * @param p50Ms            the timed iterations' median
 * @param p90Ms            their 90th percentile, null when the samples do not support it (docs/scoring.md)
 * @param p99Ms            their 99th percentile, null when the samples do not support it
 * @param meanMs           their mean
 * @param stddevMs         their standard deviation
 * @param throughputPerSec calls per second
 * @param warmups          warm-up iterations
 * @param iterations       timed iterations
 * @param samplesMs        every timed iteration (the export carries them; {@code run --json} leaves them out)
 * @param samples          the timed iterations kept (the same count as {@code iterations})
 * @param samplesNeeded    for each percentile left null, the samples it needs ({@code {"p99": 368}}), or null
 * @param p50CiMs          the median's 95 % order-statistic interval {@code [lo, hi]}, null below 6 samples
 * @param timerResolutionMs the measured step of the clock that timed the samples
 * @param latencyFloorMs   the floor the samples sit on (a polled readback, the timer), null when none was detected
 * @param readbackMs       the side's measured empty WebGPU readback round trip, or null
 * @param gpuMs            GPU time per inference from WebGPU timestamp queries, or null
 * @param steady           whether the case had reached steady state, null when not judged (under 10 samples)
 * @param trend            the second half's median over the first half's, minus one
 * @param loadBefore       the host's 1-minute load average as the case began
 * @param loadAfter        the same as it ended
 * @param busy             the host had more runnable work than cores as the case began
 * @param warmupMs         the warm-up runs' time in all, measured where they ran
 * @param floorStopped     sampling stopped once three runs showed the latency floor (null: it did not)
 * @param verdictWindow    the case ran its verdict's window only, its figures indicative and not settled (null: it did not)
 * @param settled          the warm-up went on until the runs stopped getting faster; false when its cap came first, null
 *                         when not judged
 * @param maxAbsErr        the largest absolute error against the reference
 * @param maxRelErr        the largest relative error
 * @param cosine           cosine similarity with the reference
 * @param tolerance        the absolute bound applied
 * @param within           within tolerance, or null when not compared
 * @param parityAgainst    what the output was compared with
 * @param nonFinite        elements non-finite on one side only
 * @param rtol             the relative bound applied
 * @param toleranceBudget  the largest share of its tolerance any element used
 * @param toleranceBasis   which tolerance, as a sentence
 * @param variantParity    an fp16/int8 variant against its own native CPU run, or null
 * @param bisection        the first diverging node and its repro, or null ({@link AnalysisJson})
 * @param profile          the per-op profile, or null
 * @param coldStart        the cold-start split, or null
 * @param recreate         the re-creation leak check, or null
 * @param placement        where the session's nodes ran ({@code requested, onRequested, ranOn, offNodes, basis}); null when
 *                         not checked
 * @param readout          what a user reads off the outputs against the reference's ({@code kind} pooled-embedding or
 *                         similarity, {@code items, minCosine, maxAbsErr, agree, note}); null when no reading applies
 * @param computed         where a half-precision variant's arithmetic ran ({@code insertedCasts, inFloat32, basis}); null
 *                         when not checked
 * @param load             why a load was refused and where it loads ({@code runtime, failsAt, loadsAt, optimizer,
 *                         rejectedFrom}); null when not diagnosed
 * @param decoding         a generation's figures (TTFT, inter-token latency, tokens/s, tokens verified), null for a single pass
 * @param itemsPerSec      throughput per item (calls per second × batch size)
 * @param memory           resident memory before, after and at peak ({@code -1}: not measured), the page's GPU ledger, heaps
 *                         and processes where measured, each figure's source ({@link MemoryForm})
 * @param rssPeakBytes     the peak, or null when not measured
 * @param fallbackPath     every hop, taken or rejected, with its reason
 * @param warnings         what the runtime warned about
 * @param diagnostics      every problem, with its severity and what to do
 * @param provenance       where and on what it ran
 * @param figuresOf        the key of the cell whose measurement these figures are (a fallback judged on the same work its
 *                         lane measured for the same case, not run again: {@link RunResult#figuresOf()}), or null when
 *                         the case measured its own
 * @param defect           whether the backend computed the case wrongly ({@link RunResult#defectFinding()}): a dtype variant's
 *                         designed loss is none; null when not WRONG_OUTPUT or not known (a variant's own native CPU run not
 *                         compared); derived, not read back
 * @param fidelity         a dtype variant's designed loss against fp32 native ({@link RunResult#fidelity()}: {@code lossy},
 *                         {@code closeness}, {@code closenessOf}, {@code text}), or null; derived, not read back
 */
public record ResultForm(String runId, String startedAt, String caseKey, String opType, Integer opset, String variant, String actual, Outcome.Kind outcome, String status, String reason,
                         String evidence, boolean flaky, int attempts, List<String> earlierAttempts, String host,
                         String hostFingerprint, String browser, String driver, String adapter, Boolean softwareAdapter,
                         String acceleration, Integer threads, Double loadMs, Double firstMs, Double p50Ms, Double p90Ms,
                         Double p99Ms, Double meanMs, Double stddevMs, Double throughputPerSec, Integer warmups,
                         Integer iterations, @JsonInclude(JsonInclude.Include.NON_NULL) double[] samplesMs, Integer samples,
                         SamplesNeeded samplesNeeded, double[] p50CiMs, Double timerResolutionMs,
                         Double latencyFloorMs, Double readbackMs, Double gpuMs, Boolean steady, Double trend, Double loadBefore,
                         Double loadAfter, Boolean busy, Double warmupMs, Boolean settled, Boolean floorStopped, Boolean verdictWindow, Double maxAbsErr,
                         Double maxRelErr, Double cosine, Double tolerance, Boolean within, String parityAgainst,
                         long nonFinite, Double rtol, Double toleranceBudget, String toleranceBasis, Parity variantParity,
                         JsonNode bisection, JsonNode profile, JsonNode coldStart, JsonNode recreate, JsonNode placement,
                         JsonNode readout, JsonNode computed, JsonNode load, DecodingForm decoding, Double itemsPerSec,
                         MemoryForm memory, Long rssPeakBytes, List<FallbackHop> fallbackPath, List<String> warnings,
                         List<Diagnostic> diagnostics, Provenance provenance, String figuresOf, Boolean defect, FidelityForm fidelity) {

    /** The form of {@code r}, with every timed sample when {@code withSamples}. */
    static ResultForm of(RunResult r, boolean withSamples) {
        CaseId id = r.id();
        Provenance p = r.provenance();
        Timings t = r.timings().orElse(null);
        Parity q = r.parity().orElse(null);
        QualityForm qf = t == null ? null : QualityForm.of(t.quality());
        JsonNode analysis = ResultJson.MAPPER.createObjectNode();
        AnalysisJson.put((com.fasterxml.jackson.databind.node.ObjectNode) analysis, r.analysis());
        var op = OpVariant.of(id).orElse(null);
        return new ResultForm(r.runId(), r.startedAt() == null ? null : r.startedAt().toString(), id.key(),
                op == null ? null : op.qualifiedType(), op == null ? null : op.opset(), op == null ? null : op.variant(),
                r.actual().map(BackendId::id).orElse(null), r.outcome().kind(), r.status().name(), r.reason(), r.reason(), r.flaky(),
                r.attempts().count(), r.attempts().earlier(),
                p == null ? null : p.host(), p == null ? null : p.hostFingerprint(),
                p == null || p.browser() == null ? null : p.browserLabel(), p == null ? null : p.driver(),
                p == null ? null : p.adapter(), p == null ? null : p.softwareAdapter(), Acceleration.of(r).label(),
                p == null ? null : p.threads(),
                t == null ? null : t.loadMs(), t == null ? null : t.firstMs(), t == null ? null : t.p50Ms(),
                t == null || Double.isNaN(t.p90Ms()) ? null : t.p90Ms(), t == null || Double.isNaN(t.p99Ms()) ? null : t.p99Ms(),
                t == null ? null : t.meanMs(),
                t == null ? null : t.stddevMs(), t == null ? null : t.throughputPerSec(), t == null ? null : t.warmups(),
                t == null ? null : t.iterations(), t != null && withSamples ? t.samplesMs() : null,
                t == null ? null : t.iterations(), t == null ? null : needed(t), qf == null ? null : qf.p50CiMs(),
                qf == null ? null : qf.timerResolutionMs(), qf == null ? null : qf.latencyFloorMs(),
                qf == null ? null : qf.readbackMs(), qf == null ? null : qf.gpuMs(), qf == null ? null : qf.steady(),
                qf == null ? null : qf.trend(), qf == null ? null : qf.loadBefore(), qf == null ? null : qf.loadAfter(),
                qf == null ? null : qf.busy(), qf == null ? null : qf.warmupMs(), qf == null ? null : qf.settled(),
                qf == null ? null : qf.floorStopped(), qf == null ? null : qf.verdictWindow(),
                q == null ? null : q.maxAbsErr(), q == null ? null : q.maxRelErr(), q == null ? null : q.cosine(),
                q == null ? null : q.tolerance(), q == null ? null : q.within(), q == null ? null : q.against(),
                q == null ? 0 : q.nonFinite(), q == null ? null : q.rtol(), q == null ? null : q.budget(),
                q == null ? null : q.basis(), r.variantParity(),
                analysis.get("bisection"), analysis.get("profile"), analysis.get("coldStart"), analysis.get("recreate"),
                analysis.get("placement"), analysis.get("readout"), analysis.get("computed"), analysis.get("load"),
                t != null && t.figures() instanceof Decoding g ? DecodingForm.of(g, withSamples) : null,
                t == null ? null : t.throughputPerSec() * id.batchSize(), MemoryForm.of(r.memory()),
                r.memory().rssPeak() < 0 ? null : r.memory().rssPeak(), r.fallbackPath(), r.warnings(), r.diagnostics(), p,
                r.figuresOf().map(CaseId::key).orElse(null), r.status() == Status.WRONG_OUTPUT && r.defectFinding() != Defect.UNKNOWN ? r.defect() : null,
                r.fidelity().map(ResultForm::fidelity).orElse(null));
    }

    /**
     * A dtype variant's designed loss against fp32 native ({@link Fidelity}).
     *
     * @param closeness   null when not known
     * @param cosine      the cosine against fp32 native, null when not finite
     */
    public record FidelityForm(boolean lossy, @Figure double closeness, String closenessOf, Double cosine, String text) {
    }

    private static FidelityForm fidelity(Fidelity f) {
        return new FidelityForm(f.lossy(), f.closeness().orElse(Double.NaN), f.closenessOf(), ResultJson.finite(f.toFp32().cosine()),
                f.describe());
    }

    /**
     * The samples each percentile that was left out needs; a percentile that was not left out is absent.
     *
     * @param p90 the samples a p90 needs
     * @param p99 the samples a p99 needs
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SamplesNeeded(Integer p90, Integer p99) {
    }

    /**
     * The result this form describes, for case {@code id}; a field a record predates takes what reading it without the
     * field has always meant (one attempt, no variant parity, an absolute tolerance alone).
     *
     * @throws IllegalArgumentException naming the field that is not valid
     */
    RunResult toResult(CaseId id) {
        if (runId == null || runId.isBlank()) {
            throw new IllegalArgumentException("has no runId");
        }
        if (status == null || status.isBlank()) {
            throw new IllegalArgumentException("has no status");
        }
        Status s = parse("status", status, Status::valueOf);
        Timings t = iterations == null ? null : new Timings(d(loadMs), d(firstMs), warmups == null ? 0 : warmups,
                samplesMs == null ? new double[0] : samplesMs, d(p50Ms), d(p90Ms), d(p99Ms), d(meanMs), d(stddevMs),
                d(throughputPerSec), new QualityForm(p50CiMs, timerResolutionMs, latencyFloorMs, readbackMs, gpuMs, steady, trend,
                loadBefore, loadAfter, busy, warmupMs, settled, floorStopped, verdictWindow).toQuality(), decoding == null ? null : decoding.toDecoding());
        Parity q = null;
        if (within != null) {
            double tol = d(tolerance);
            double maxAbs = d(maxAbsErr);
            q = new Parity(maxAbs, d(maxRelErr), d(cosine), tol, within, parityAgainst, nonFinite, rtol == null ? 0 : rtol,
                    toleranceBudget != null ? toleranceBudget : tol > 0 ? maxAbs / tol : Double.NaN, toleranceBasis);
        }
        Instant started;
        try {
            started = startedAt == null ? null : Instant.parse(startedAt);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("startedAt '" + startedAt + "' is not an ISO-8601 instant");
        }
        com.fasterxml.jackson.databind.node.ObjectNode analysis = ResultJson.MAPPER.createObjectNode();
        analysis.set("bisection", bisection);
        analysis.set("profile", profile);
        analysis.set("coldStart", coldStart);
        analysis.set("recreate", recreate);
        analysis.set("placement", placement);
        analysis.set("readout", readout);
        analysis.set("computed", computed);
        analysis.set("load", load);
        if (outcome == null) {
            throw new IllegalArgumentException("has no outcome");
        }
        Outcome o = Outcome.read(outcome, actual == null ? null : parse("actual", actual, BackendId::parse), t, q);
        return new RunResult(runId, started, id, o, s, reason,
                provenance, memory == null ? MemoryUsage.UNKNOWN : memory.toUsage(), fallbackPath == null ? List.of() : fallbackPath,
                warnings == null ? List.of() : warnings, variantParity, AnalysisJson.read(analysis),
                new Attempts(Math.max(1, attempts), earlierAttempts == null ? List.of() : earlierAttempts),
                figuresOf != null && actual != null);
    }

    /** The samples each percentile left out needs, or null when none is left out. */
    private static SamplesNeeded needed(Timings t) {
        Integer p90 = Double.isNaN(t.p90Ms()) ? SampleStats.samplesNeeded(0.9) : null;
        Integer p99 = Double.isNaN(t.p99Ms()) ? SampleStats.samplesNeeded(0.99) : null;
        return p90 == null && p99 == null || t.iterations() == 0 ? null : new SamplesNeeded(p90, p99);
    }

    private static double d(Double v) {
        return v == null ? Double.NaN : v;
    }

    private static <T> T parse(String field, String v, java.util.function.Function<String, T> parse) {
        try {
            return parse.apply(v);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(field + " '" + v + "' is not valid (" + (e instanceof AccelbridgeException a
                    ? a.oneLine() : "expected one of the values Accelbridge writes") + ")");
        }
    }
}
