package dev.accelbridge.run;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RunResult;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * When a bisection already made answers a wrong case, and the command that bisects one the run's budget left. A
 * bisection is of a model's graph on a backend's kernels: the same model and inputs on the same backend, onnxruntime-web
 * release and engine, adapter and browser engine (every Blink build runs the same Dawn) give the same first diverging
 * node, so it is made once.
 */
final class BisectionReuse {
    /** What a reused bisection found: a node, none, or rounding. A failed one is tried again; a deferred one was never made. */
    private static final Set<Bisection.Outcome> ANSWERS = EnumSet.of(Bisection.Outcome.FOUND, Bisection.Outcome.NOT_LOCALIZED,
            Bisection.Outcome.ROUNDING);

    private BisectionReuse() {
    }

    /** What two wrong cases share when one's bisection answers the other. */
    static Object key(RunResult r, BackendId ran) {
        CaseId id = r.id();
        LaneId lane = id.lane();
        BrowserKind engine = lane.browser() != null && lane.browser().chromium() ? BrowserKind.CHROMIUM : lane.browser();
        CaseId same = new CaseId(id.family(), id.model(), id.modelSha256(), id.inputSet(), id.inputShapes(), id.precision(),
                id.batchSize(), ran, new LaneId(engine, lane.outsideBrowser()), id.scenario(), id.runtimeOptions());
        return List.of(same, Objects.toString(r.provenance() == null ? null : r.provenance().adapter()));
    }

    /**
     * The bisection that answers {@code r}: {@code inRun} (made for the same key in this run), else the latest of
     * {@code earlier} (its cell's results on this host, oldest first) made on the same backend and adapter, each with a note
     * saying where it came from.
     */
    static Optional<Bisection> of(Bisection inRun, List<RunResult> earlier, RunResult r, BackendId ran) {
        if (inRun != null) {
            return Optional.of(inRun.withRepro(inRun.reproDir(), "made once in this run for the same model, inputs, backend, "
                    + "onnxruntime-web and adapter"));
        }
        List<RunResult> latestFirst = new ArrayList<>(earlier);
        java.util.Collections.reverse(latestFirst);
        return latestFirst.stream().filter(e -> e.ranOn(ran) && !e.runId().equals(r.runId()))
                .filter(e -> e.analysis().bisection() != null && ANSWERS.contains(e.analysis().bisection().outcome()))
                .filter(e -> key(e, ran).equals(key(r, ran))).findFirst()
                .map(e -> e.analysis().bisection().withRepro(e.analysis().bisection().reproDir(), "made in run " + e.runId()
                        + " on this host for the same case and adapter"));
    }

    /** The command that bisects {@code r} on its own: its model, backend, lane and variant. */
    static String command(RunResult r, BackendId ran, ModelCase mc) {
        CaseId id = r.id();
        String model = "generated".equals(mc.model().source()) || mc.model().source() == null ? id.model() : mc.model().source();
        StringBuilder c = new StringBuilder("accelbridge bisect --model ").append(quoted(model)).append(" --backend ")
                .append(ran.id());
        if (id.lane().side() == LaneSide.BROWSER) {
            c.append(' ').append(id.lane().runOptions());
        }
        if (id.precision() != Precision.FP32) {
            c.append(" --precision ").append(id.precision().id());
        }
        if (id.batchSize() != 1) {
            c.append(" --batch ").append(id.batchSize());
        }
        return c.toString();
    }

    private static String quoted(String s) {
        return s.matches("[A-Za-z0-9._/@:+=-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
