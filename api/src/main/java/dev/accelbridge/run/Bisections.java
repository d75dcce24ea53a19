package dev.accelbridge.run;

import dev.accelbridge.bisect.Bisector;
import dev.accelbridge.bisect.Repros;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Defect;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Tolerance;

import java.nio.file.Path;

import java.time.Duration;
import java.util.function.Function;

/**
 * Decides which results are bisected and attaches the bisection to them: every WRONG_OUTPUT case that ran on a backend
 * other than the reference itself (or every case, for {@code accelbridge bisect}) whose wrong output is a defect
 * or may be ({@link RunResult#defectFinding()}: a variant's designed loss is none), and settles the verdict by what it found
 * ({@link #settled}). A run's bisections take a budget together ({@link DrillDown#bisectBudget()}): one made before for the same
 * model, inputs, backend, onnxruntime-web release and engine on the same adapter (earlier in the run, in another Blink
 * build, or on this host in an earlier run) is reused, and a case past the budget gets the command that bisects it.
 */
public final class Bisections {
    private final Path reproRoot;
    private final Duration timeout;
    private final Integer threads;
    private final BackendProvider cpu;
    private final boolean always;
    private final Duration budget;
    private final Function<RunResult, java.util.List<RunResult>> earlier;
    private final java.util.Map<Object, Bisection> made = new java.util.HashMap<>();
    private long spentNanos;

    /**
     * @param reproRoot         where each case's repro folder goes
     * @param timeout           limit for each run of an exposed model
     * @param threads           intra-op threads, as the case ran
     * @param cpu               the native CPU provider (the reference)
     * @param always            bisect whatever the status (the {@code bisect} command)
     */
    public Bisections(Path reproRoot, Duration timeout, Integer threads, BackendProvider cpu, boolean always) {
        this(reproRoot, timeout, threads, cpu, always, null, r -> java.util.List.of());
    }

    /**
     * @param budget  the time bisections take together before the rest are deferred (null: no bound); not applied with {@code always}
     * @param earlier a result's earlier results in the store (its cell's history on this host), whose bisection may be reused
     */
    Bisections(Path reproRoot, Duration timeout, Integer threads, BackendProvider cpu, boolean always, Duration budget,
               Function<RunResult, java.util.List<RunResult>> earlier) {
        this.reproRoot = reproRoot;
        this.timeout = timeout;
        this.threads = threads;
        this.cpu = cpu;
        this.always = always;
        this.budget = always ? null : budget;
        this.earlier = earlier;
    }

    /** Whether {@code r} is bisected. */
    public boolean wanted(RunResult r) {
        // native CPU is the reference itself: nothing to bisect it against
        // figures another cell measured: that cell is bisected, once
        if (r.actual().isEmpty() || r.ranOnNativeCpu() || r.sharedFigures()) {
            return false;
        }
        if (always) {
            return true;
        }
        // a variant's designed loss has no node to blame; where the variant's own run was not compared, bisection against
        // the same file's native CPU run is what tells the loss from the backend's error
        return r.defectFinding() != Defect.NONE;
    }

    /** {@code r} with its bisection (unchanged when not {@link #wanted}). */
    public RunResult apply(RunResult r, ModelCase mc, Function<BackendId, BackendProvider> providers) {
        // wanted: a wrong output, which a backend that took it made (timed, or stopped before its figures)
        BackendId backend = r.actual().orElse(null);
        if (!wanted(r) || backend == null) {
            return r;
        }
        Function<DType, Tolerance> tol = CaseExecutor.toleranceFor(mc, r.id(), backend);
        Object key = BisectionReuse.key(r, backend);
        java.util.Optional<Bisection> reused = always ? java.util.Optional.empty() : BisectionReuse.of(made.get(key), earlier.apply(r), r, backend);
        if (reused.isPresent()) {
            return settled(r.withAnalysis(r.analysis().withBisection(reused.get())), reused.get());
        }
        if (budget != null && spentNanos >= budget.toNanos()) {
            Bisection later = Bisection.without(Bisection.Outcome.DEFERRED, backend, "native-cpu", tol.apply(DType.FLOAT32).atol(), 0,
                    String.format(java.util.Locale.ROOT, "the run's bisections took their %.0f s (--bisect-budget); bisect it: %s",
                            budget.toMillis() / 1000.0, BisectionReuse.command(r, backend, mc)));
            return r.withAnalysis(r.analysis().withBisection(later));
        }
        long t0 = System.nanoTime();
        Bisection b;
        try {
            BackendProvider provider = providers.apply(backend);
            mc = Judge.of(mc.scenario()).bisected(mc, r, cpu, timeout);
            Bisector.Found found = new Bisector(reproRoot.resolve(".work"), timeout).bisect(mc, backend, provider, cpu, tol, threads);
            Double given = Double.isNaN(mc.model().tolerance()) ? null : mc.model().tolerance();
            b = Repros.writeAndCheck(found, mc, r.id(), Repros.folderFor(reproRoot, r.id()), given, provider, tol, threads,
                    timeout);
        } catch (RuntimeException e) {
            b = Bisection.without(Bisection.Outcome.FAILED, backend, "native-cpu", tol.apply(DType.FLOAT32).atol(), 0,
                    e instanceof AccelbridgeException a ? a.oneLine() : e.toString());
        }
        spentNanos += System.nanoTime() - t0;
        if (b.outcome() != Bisection.Outcome.FAILED) {
            made.put(key, b);
        }
        return settled(r.withAnalysis(r.analysis().withBisection(b)), b);
    }

    /** Whether bisection {@code b} settles a wrong output that ran where it was asked: one-step rounding, not a defect. */
    public static boolean settles(Bisection b) {
        return b.outcome() == Bisection.Outcome.ROUNDING;
    }

    /**
     * {@code r}'s verdict once bisected: a divergence that starts as one-step rounding (of a quantize operator's integer
     * output) is not a defect, so a case that ran where it was asked is PASSED with the bisection's reading in its reason,
     * not WRONG_OUTPUT beside a sentence that says otherwise; any other bisection leaves the verdict as it was. The one rule:
     * an observed session's verdict is settled by it too.
     */
    public static RunResult settled(RunResult r, Bisection b) {
        if (!settles(b) || r.status() != Status.WRONG_OUTPUT) {
            return r;
        }
        if (!r.ranOn(r.requested())) {
            return r.withStatus(r.status(), (r.reason() == null ? "" : r.reason() + "; ") + b.describe());
        }
        return r.withStatus(Status.PASSED, "outside the element-wise tolerance as rounding amplified over layers, not a defect: "
                + b.describe() + (r.reason() == null ? "" : " (was: " + r.reason() + ")"));
    }
}
