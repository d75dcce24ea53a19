package dev.accelbridge.run;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SamplingDepth;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.fallback.Resolution;
import dev.accelbridge.fallback.Resolver;
import dev.accelbridge.fallback.Verdict;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs one case along its fallback chain: resolve from the probes, execute on the chosen hop, and on a load
 * or run failure (or wrong output, by policy) move to the next hop, keeping every hop's reason. The same
 * code serves the native lane and every browser lane; only the provider differs.
 */
final class CaseExecutor {

    /** Looks up the requested backend's p50 from the latest run where it worked, for the fallback's cost. */
    @FunctionalInterface
    public interface CostLookup {
        /** The p50 in ms of {@code id}'s requested backend for the same case on this host, if it ever worked here. */
        Optional<Double> requestedP50(CaseId id);

        /** No history. */
        CostLookup NONE = id -> Optional.empty();
    }

    private final int warmups;
    private final int iterations;
    private final Duration timeout;
    private final FallbackPolicy policy;
    private final CostLookup costs;
    private final Integer threads;
    private Duration loadTimeout;
    private int profileIterations;
    private int recreate;

    /**
     * @param warmups    warm-up iterations per case
     * @param iterations timed iterations per case
     * @param timeout    limit for one case on one hop
     * @param policy     when a run-time result moves on to the next hop
     * @param costs      history lookup for the fallback's cost
     */
    public CaseExecutor(int warmups, int iterations, Duration timeout, FallbackPolicy policy, CostLookup costs) {
        this(warmups, iterations, timeout, policy, costs, null);
    }

    /** Same, with the intra-op threads every runtime is asked to use (null: each runtime's default). */
    public CaseExecutor(int warmups, int iterations, Duration timeout, FallbackPolicy policy, CostLookup costs, Integer threads) {
        this.threads = threads;
        this.warmups = warmups;
        this.iterations = iterations;
        this.timeout = timeout;
        this.policy = policy;
        this.costs = costs;
    }

    private java.nio.file.Path loadRepros;
    private BackendProvider nativeCpu;

    /**
     * A load a graph optimizer breaks is run again at the level that loads it and held to {@code cpu}'s run there (null:
     * natively only), and its single-graph repro written under {@code root} (null: none written).
     */
    public CaseExecutor withLoadDiagnosis(java.nio.file.Path root, BackendProvider cpu) {
        this.loadRepros = root;
        this.nativeCpu = cpu;
        return this;
    }

    /** Profiles {@code iterations} iterations per op and runs {@code cycles} re-creations, after each case's timed ones. */
    public CaseExecutor withDrillDown(int iterations, int cycles) {
        this.profileIterations = iterations;
        this.recreate = cycles;
        return this;
    }

    private MinDurations durations = MinDurations.NONE;
    private SamplingDepth depth = SamplingDepth.FULL;
    private RunAccount account;

    /** Accounts each case's session creation, first inference, timed iterations and the rest of its time in {@code a}. */
    public CaseExecutor withAccount(RunAccount a) {
        this.account = a;
        return this;
    }

    /**
     * Warm-ups and timed iterations go on past their counts until {@code d}'s durations have passed, and each case samples as
     * deep as {@code depth} says for its hop ({@link dev.accelbridge.core.SamplingDepth#on}: a software adapter's runs its verdict).
     */
    public CaseExecutor withSampling(MinDurations d, SamplingDepth depth) {
        this.durations = d;
        this.depth = depth;
        return this;
    }

    /** Where a case's progress goes: its identity, the hop running it, and the provider's report. */
    @FunctionalInterface
    public interface ProgressSink {
        /** {@code id} running on {@code hop} is at {@code done} of {@code total} runs of {@code phase}. */
        void progress(CaseId id, BackendId hop, String phase, int done, int total);
    }

    private ProgressSink progressSink;

    private final SharedMeasurements measurements = new SharedMeasurements();

    /** The run's work measured once for the fallbacks that land on it ({@link SharedMeasurements}), planned by the lanes. */
    SharedMeasurements measurements() {
        return measurements;
    }

    /** Reports the providers' progress (warm-ups, timed iterations) of every case to {@code sink}. */
    public CaseExecutor withProgress(ProgressSink sink) {
        this.progressSink = sink;
        return this;
    }

    /** Limits session creation alone ({@code --load-timeout}); null: the default that scales with the model's size. */
    public CaseExecutor withLoadTimeout(Duration d) {
        this.loadTimeout = d;
        return this;
    }

    /** The outcome of one case: the result, and the execution that produced its figures (when any). */
    public record Outcome(RunResult result, Optional<Execution> execution) {
        /** The same, its row keeping why a hop's load was refused ({@code load}), when one was diagnosed. */
        Outcome diagnosed(Optional<LoadDiagnosis> load) {
            return load.map(d -> new Outcome(result.withAnalysis(result.analysis().withLoad(d)), execution)).orElse(this);
        }
    }

    /**
     * Runs {@code mc} for {@code chain.requested()}.
     *
     * @param probes    availability of every backend of the lane
     * @param providers the provider of each backend of the lane
     * @param reference what outputs are checked against; {@code null} when this case IS the reference
     *                  (its parity then stays empty unless the model ships expected outputs)
     */
    public Outcome run(CaseContext ctx, ModelCase mc, Chain chain, Map<BackendId, Availability> probes,
                       Function<BackendId, BackendProvider> providers, Reference reference) {
        long t = System.nanoTime();
        Outcome o = runCase(ctx, mc, chain, probes, providers, reference);
        if (account != null) {
            // figures another cell measured are its inference, counted there once
            account.addCase(o.result().sharedFigures() ? null : o.execution().orElse(null), System.nanoTime() - t);
        }
        return o;
    }

    /** What a case asks of the provider of {@code hop}, whose probe said {@code probed}: its sampling depth decided once, here. */
    private ExecutionRequest request(ModelCase mc, CaseId id, BackendId hop, Availability probed) {
        ProgressSink sink = progressSink;
        return new ExecutionRequest(hop, mc, warmups, iterations, timeout, threads, loadTimeout, profileIterations, recreate,
                sink == null ? null : (phase, done, total) -> sink.progress(id, hop, phase, done, total), durations, depth.on(probed));
    }

    /**
     * Tells the provider of the first hop of {@code chain} that {@code mc} comes next on this lane
     * ({@link BackendProvider#upcoming}); call it before running the case before.
     */
    public void hint(CaseContext ctx, ModelCase mc, Chain chain, Map<BackendId, Availability> probes,
                     Function<BackendId, BackendProvider> providers) {
        Resolver.resolve(chain, probes).chosen()
                // a fallback to be judged on work its lane measures is not sent ahead: nothing of it runs
                .filter(hop -> hop == chain.requested() || !measurements.expected(CaseId.of(mc, hop, ctx.lane())))
                .ifPresent(hop -> providers.apply(hop).upcoming(request(mc, CaseId.of(mc, chain.requested(), ctx.lane()), hop, probes.get(hop))));
    }

    /** One hop's attempt: the work its lane measured for the same case when a fallback lands on it, else run here. */
    private HopAttempt attempt(CaseContext ctx, ModelCase mc, Chain chain, CaseId id, BackendId hop, Availability probed, Judge judge,
                            Reference reference, Function<BackendId, BackendProvider> providers) {
        CaseId cell = CaseId.of(mc, hop, ctx.lane());
        if (hop != chain.requested()) {
            Optional<Execution> measured = measurements.take(cell, timeout);
            if (measured.isPresent()) {
                return HopAttempt.shared(measured.get());
            }
        }
        HopAttempt a = HopAttempt.at(providers.apply(hop), nativeCpu, request(judge.prepared(mc, reference), id, hop, probed), mc, id,
                loadRepros);
        if (hop == chain.requested() && a.execution() != null) {
            measurements.measured(cell, a.execution());
        }
        return a;
    }

    private Outcome runCase(CaseContext ctx, ModelCase mc, Chain chain, Map<BackendId, Availability> probes,
                            Function<BackendId, BackendProvider> providers, Reference reference) {
        Instant started = Instant.now();
        CaseId id = CaseId.of(mc, chain.requested(), ctx.lane());
        Judge judge = Judge.of(mc.scenario());
        Resolution res = Resolver.resolve(chain, probes);
        Execution exec = null;
        Judge.Judged verdict = null;
        Status outcome = Status.PASSED;
        boolean shared = false; // the hop that ran gave the figures of another cell's measurement
        Optional<LoadDiagnosis> load = Optional.empty(); // the first hop's load refusal that was diagnosed
        while (res.chosen().isPresent()) {
            BackendId hop = res.chosen().get();
            HopAttempt a = attempt(ctx, mc, chain, id, hop, probes.get(hop), judge, reference, providers);
            shared = a.shared();
            if (a.failure() != null) {
                exec = null;
                load = load.or(a::load);
                res = a.unsupported() ? res.afterUnsupported(hop, a.failure()) : res.afterFailure(hop, a.failure());
                continue;
            }
            verdict = reference != null && reference.outputs().isEmpty()
                    // a generation too: without the reference's tokens nothing is verified, however its own tokens repeat
                    ? new Judge.Judged(a.execution(), null, null,
                            staged("compare", "no reference output to check against: " + reference.failure().orElse("unknown"), mc))
                    : judge.judge(mc, reference, a.execution(), toleranceFor(mc, id, hop));
            exec = verdict.execution();
            boolean variantItself = reference != null && reference.variantItself();
            if (verdict.failure() != null && !variantItself) {
                outcome = Status.WRONG_OUTPUT;
                res = res.afterWrongOutput(hop, verdict.failure(), policy);
                if (res.chosen().isPresent() && res.chosen().get() != hop) {
                    continue;
                }
                return new Outcome(CaseRows.result(ctx, mc, id, res, CaseRows.ran(hop, exec, null), Status.WRONG_OUTPUT,
                        verdict.failure(), exec, started, shared),
                        Optional.of(exec));
            }
            // a dtype variant is correct when it computes as the same file's native CPU run does; its distance from fp32 is
            // its designed loss (its fidelity), and its own native run is its reference
            Parity own = CaseRows.variantParity(reference, exec, mc, id, hop);
            Parity parity = variantItself ? null : own != null ? own : verdict.parity();
            outcome = parity == null || parity.within() ? Status.PASSED : Status.WRONG_OUTPUT;
            if (outcome == Status.WRONG_OUTPUT) {
                String detail = verdict.note() != null && own == null ? verdict.note() : Readings.wrong(parity, reference, exec, id);
                Resolution next = res.afterWrongOutput(hop, detail, policy);
                if (next != res && next.chosen().isPresent()) {
                    res = next;
                    continue;
                }
                res = next;
                if (res.chosen().isEmpty()) {
                    // Every hop gave wrong output or failed: keep the last figures, they are real.
                    Verdict v = res.statusFor(Status.WRONG_OUTPUT);
                    return new Outcome(VariantVerdicts.said(CaseRows.result(ctx, mc, id, res, CaseRows.ran(hop, exec, verdict.parity()),
                            v.status(), Readings.noted(v.reason(), v.status(), exec), exec, started, shared).withVariantParity(own),
                            variantItself), Optional.of(exec));
                }
            }
            break;
        }
        return CaseRows.settled(costs, ctx, mc, id, chain, res, outcome, exec, verdict, reference, started, shared).diagnosed(load);
    }

    /**
     * A hop's reason as results carry it: the stage first ({@code load: ...}, {@code transfer: ...}), the model file last
     * when the message does not name it already.
     */
    static String staged(String stage, String message, ModelCase mc) {
        String m = message == null ? "" : message;
        String file = String.valueOf(mc.model().path());
        return (m.startsWith(stage + ": ") ? m : stage + ": " + m) + (m.contains(file) ? "" : " (model " + file + ")");
    }

    /**
     * The tolerance each output is judged by: the one given for the model ({@code --tolerance}, its folder's
     * accelbridge.json) as the absolute bound, else the default for the backend that ran, the output's type and the
     * model's precision ({@link Tolerance#defaults}).
     */
    static Function<DType, Tolerance> toleranceFor(ModelCase mc, CaseId id, BackendId hop) {
        double given = mc.model().tolerance();
        return dt -> Double.isNaN(given) ? Tolerance.defaults(hop, dt, id.precision()) : Tolerance.given(given, hop, dt, id.precision());
    }
}
