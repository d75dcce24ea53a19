package dev.accelbridge.api;

import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.run.Bisections;
import dev.accelbridge.run.Targets;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * A wrong observed session bisected as {@code run} bisects a case, so the same model and inputs get the same verdict
 * observed or run: its wrong run (its model, the inputs the app fed that run) is replayed on the lane it was observed in
 * (the browser, the backend, the onnxruntime-web release and engine the app loaded), where the run bisects it; the
 * bisection is put on the observed row and settles it by {@link Bisections#settled}, the rule {@code run} settles by
 * (one-step rounding of a quantize operator is not a defect). The replay is a row of the observation's run, labelled
 * as a replay.
 */
final class ObservedBisections {
    private ObservedBisections() {
    }

    /** A row to bisect: the observed row, and its wrong run to replay. */
    record Wrong(int row, ObservedReplays.Replayable run) {
    }

    /**
     * Bisects each wrong row in {@code rows} (changed in place) through replays of its wrong run on its own lane, added to
     * run {@code runId}; returns the replays' rows. A replay that the lane judges otherwise, or does not bisect, leaves the
     * observed row as it was, said in its warnings.
     */
    static List<RunResult> bisect(List<RunResult> rows, List<Wrong> wrong, WebGpuAdapter adapter, String runId,
                                  Function<RunRequest, SessionRun> runner, List<String> notes) {
        List<RunResult> replays = new ArrayList<>();
        for (Wrong w : wrong) {
            RunResult observed = rows.get(w.row());
            Targets lane = Targets.builder().setBackends(List.of(observed.requested())).optLane(observed.id().lane())
                    .optWebGpuAdapter(adapter).optParallel(1).build();
            List<RunResult> replayed = ObservedReplays.replay(List.of(w.run()), lane, runId, runner, notes);
            replays.addAll(replayed);
            Optional<RunResult> same = replayed.stream().filter(r -> r.requested() == observed.requested()).findFirst();
            rows.set(w.row(), settled(observed, same));
        }
        return replays;
    }

    /** The observed row once its replay on its own lane was bisected (or, where it was not, said why it stands as it is). */
    static RunResult settled(RunResult observed, Optional<RunResult> replay) {
        if (replay.isEmpty()) {
            return unbisected(observed, "its replay on its own lane gave no row");
        }
        Bisection b = replay.get().analysis().bisection();
        if (b == null) {
            return unbisected(observed, "its replay on its own lane was " + replay.get().status()
                    + (replay.get().reason() == null ? "" : ": " + replay.get().reason()));
        }
        Optional<Parity> seen = observed.parity();
        Optional<Parity> again = replay.get().parity();
        if (seen.isPresent() && again.isPresent() && !reproduces(seen.get(), again.get())) {
            // the bisection explains the replay's divergence, not the app's: it is kept, and settles nothing
            return observed.withAnalysis(observed.analysis().withBisection(b)).withStatus(observed.status(), observed.reason()
                    + String.format(Locale.ROOT, "; not settled: its replay on its own lane diverged by %.3g, not the observed %.3g,"
                    + " so its bisection is of another divergence", again.get().maxAbsErr(), seen.get().maxAbsErr()));
        }
        return Bisections.settled(observed.withAnalysis(observed.analysis().withBisection(b)), b);
    }

    /**
     * Whether a replay's divergence is the one observed: the same model and inputs on the same lane, its largest error
     * within a factor of {@link #REPRODUCED} of the app's either way (a GPU's reductions are not bit-for-bit repeatable).
     */
    static boolean reproduces(Parity observed, Parity replay) {
        double a = observed.maxAbsErr();
        double b = replay.maxAbsErr();
        if (!Double.isFinite(a) || !Double.isFinite(b)) {
            return Double.compare(a, b) == 0;
        }
        return !replay.within() && b * REPRODUCED >= a && a * REPRODUCED >= b;
    }

    /** How far apart an observed divergence and its replay's may be and still be one divergence. */
    static final double REPRODUCED = 2.0;

    private static RunResult unbisected(RunResult observed, String why) {
        return observed.withStatus(observed.status(), observed.reason() + "; not bisected, " + why);
    }
}
