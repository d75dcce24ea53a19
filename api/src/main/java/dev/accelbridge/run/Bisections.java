package dev.accelbridge.run;

import dev.accelbridge.bisect.Bisector;
import dev.accelbridge.bisect.Repros;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Tolerance;

import java.nio.file.Path;

import java.time.Duration;
import java.util.function.Function;

/**
 * Decides which results are bisected and attaches the bisection to them: every WRONG_OUTPUT case that ran on a backend
 * other than the reference itself (or every case, for {@code accelbridge bisect}), unless it is an fp16/int8 variant
 * whose backend matches the variant's own native run (then the variant is lossy and there is no node to blame).
 */
final class Bisections {
    private final Path reproRoot;
    private final Duration timeout;
    private final Integer threads;
    private final BackendProvider cpu;
    private final boolean always;

    /**
     * @param reproRoot         where each case's repro folder goes
     * @param timeout           limit for each run of an exposed model
     * @param threads           intra-op threads, as the case ran
     * @param cpu               the native CPU provider (the reference)
     * @param always            bisect whatever the status (the {@code bisect} command)
     */
    public Bisections(Path reproRoot, Duration timeout, Integer threads, BackendProvider cpu, boolean always) {
        this.reproRoot = reproRoot;
        this.timeout = timeout;
        this.threads = threads;
        this.cpu = cpu;
        this.always = always;
    }

    /** Whether {@code r} is bisected. */
    public boolean wanted(RunResult r) {
        // native CPU is the reference itself: nothing to bisect it against
        // figures another cell measured: that cell is bisected, once
        if (r.actual() == null || r.ranOnNativeCpu() || r.sharedFigures()) {
            return false;
        }
        if (always) {
            return true;
        }
        boolean variantLossy = r.variantParity() != null && r.variantParity().within();
        return r.status() == Status.WRONG_OUTPUT && !variantLossy;
    }

    /** {@code r} with its bisection (unchanged when not {@link #wanted}). */
    public RunResult apply(RunResult r, ModelCase mc, Function<BackendId, BackendProvider> providers) {
        if (!wanted(r)) {
            return r;
        }
        BackendId backend = r.actual();
        Function<DType, Tolerance> tol = CaseExecutor.toleranceFor(mc, r.id(), backend);
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
                    e instanceof dev.accelbridge.core.AccelbridgeException a ? a.oneLine() : e.toString());
        }
        RunResult out = r.withAnalysis(r.analysis().withBisection(b));
        // rounding reads apart from a defect wherever the verdict is read, not only in the bisection's own section
        return b.outcome() == Bisection.Outcome.ROUNDING && r.status() == Status.WRONG_OUTPUT
                ? out.withStatus(r.status(), (r.reason() == null ? "" : r.reason() + "; ") + b.describe()) : out;
    }
}
