package dev.accelbridge.observe;

import dev.accelbridge.api.ObservedVerdict;
import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.run.Bisections;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A wrong observed session bisected as {@code run} bisects a case, so the same model and inputs get the same verdict
 * observed or run, on every route (the command line's rows, a user's test's verdicts): its wrong run (its model, the
 * inputs the app fed that run) is replayed on the lane it was observed in (the browser, the backend, the onnxruntime-web
 * release and engine the app loaded), where the run bisects it; the bisection settles the session by
 * {@link Bisections#settles}, the rule {@code run} settles by (one-step rounding of a quantize operator is not a defect),
 * only where the replay reproduced the divergence observed.
 */
public final class ObservedBisections {
    /** The least time left to the visit's end for a bisection to be started. */
    public static final Duration LEAST = Duration.ofSeconds(5);

    private ObservedBisections() {
    }

    /** How a route replays a wrong run on the lane its session was observed in (its own way to a run). */
    @FunctionalInterface
    public interface Replayer {
        /**
         * The row of {@code model} fed {@code inputs}, run on {@code backend} in the lane session {@code s} was observed in
         * (a row of the replay's run, labelled as a replay) and bisected there when wrong, within {@code left} where one is
         * given; empty when the run gave no such row.
         */
        Optional<RunResult> replay(Observed.Session s, Path model, List<NamedTensor> inputs, BackendId backend, Optional<Duration> left);
    }

    /**
     * {@code v} once bisected: a wrong session's wrong run replayed through {@code replayer} (started only while
     * {@link #LEAST} remains before {@code deadline}) and settled by its bisection ({@link #settle}); any other verdict as
     * it is.
     */
    public static ObservedVerdict bisect(ObservedVerdict v, Optional<Path> model, Function<Observed.Tensor, Optional<NamedTensor>> values,
                                  Replayer replayer, Optional<Instant> deadline) {
        if (!(v instanceof ObservedVerdict.Judged j) || j.status() != Status.WRONG_OUTPUT || !j.backend().isBrowser()) {
            return v;
        }
        Optional<List<NamedTensor>> inputs = ObservedReplays.inputs(j.session(), j.run(), model, values);
        if (inputs.isEmpty()) {
            return j.bisected(j.status(), new ObservedVerdict.Bisecting.NotBisected("run " + (j.run() + 1)
                    + " did not keep every input's values"));
        }
        Optional<Duration> left = deadline.map(d -> Duration.between(Instant.now(), d));
        if (left.isPresent() && left.get().compareTo(LEAST) < 0) {
            return j.bisected(j.status(), new ObservedVerdict.Bisecting.NotBisected("the visit's time (--timeout) ran out before its "
                    + "replay on its own lane could be bisected"));
        }
        return settle(j, replayer.replay(j.session(), model.get(), inputs.get(), j.backend(), left));
    }

    /**
     * The wrong verdict {@code j} once its replay on its own lane was bisected: settled where the replay reproduced the
     * divergence observed and its bisection finds one-step rounding; otherwise as it was, saying why.
     */
    public static ObservedVerdict.Judged settle(ObservedVerdict.Judged j, Optional<RunResult> replay) {
        if (replay.isEmpty()) {
            return j.bisected(j.status(), new ObservedVerdict.Bisecting.NotBisected("its replay on its own lane gave no row"));
        }
        RunResult replayed = replay.get();
        Bisection b = replayed.analysis().bisection();
        if (b == null) {
            return j.bisected(j.status(), new ObservedVerdict.Bisecting.NotBisected("its replay on its own lane was " + replayed.status()
                    + (replayed.reason() == null ? "" : ": " + replayed.reason())));
        }
        Optional<Parity> again = replayed.parity();
        // the bisection explains the replay's divergence: where that is not the app's, it is kept and settles nothing
        boolean reproduced = again.map(p -> reproduces(j.parity(), p)).orElse(false);
        boolean settles = reproduced && Bisections.settles(b);
        return j.bisected(settles ? Status.PASSED : j.status(), new ObservedVerdict.Bisecting.Bisected(b, again.orElse(null), reproduced, settles));
    }

    /**
     * Whether a replay's divergence is the one observed: the same model and inputs on the same lane, its largest error
     * within a factor of {@link #REPRODUCED} of the app's either way (a GPU's reductions are not bit-for-bit repeatable).
     */
    public static boolean reproduces(Parity observed, Parity replay) {
        double a = observed.maxAbsErr();
        double b = replay.maxAbsErr();
        if (!Double.isFinite(a) || !Double.isFinite(b)) {
            return Double.compare(a, b) == 0;
        }
        return !replay.within() && b * REPRODUCED >= a && a * REPRODUCED >= b;
    }

    /** How far apart an observed divergence and its replay's may be and still be one divergence. */
    public static final double REPRODUCED = 2.0;
}
