package dev.accelbridge.api;

import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.core.Status;
import dev.accelbridge.observe.ObservedBisections;
import dev.accelbridge.observe.ObservedRows;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An observed row settled by its replay's bisection only where the replay reproduced what was observed (pure). Found when
 * tried: a session wrong by 5.0 (cosine 0.2) was settled PASSED because its replay, which diverged by 0.112 only, bisected
 * as one-step rounding: the rounding explained the replay's error, not the app's.
 */
class ObservedBisectionsTest {
    private static final CaseId ID = new CaseId(ModelFamily.OTHER, "app model 0123456789ab", "ab", "http://x/ · open", "",
            Precision.Q8, 1, BackendId.WEBGPU, LaneId.NATIVE, ScenarioId.OBSERVED);

    private static final Observed.Session SESSION = new Observed.Session(1, null, 10, List.of("JS"), List.of(Map.of()), "jsep", 0.0, 1.0,
            true, false, 1, true, List.of(), Map.of(), Map.of(), null, null, null, "1.30.0", List.of());

    private static ObservedVerdict.Judged wrong(double maxAbs, double cosine) {
        return new ObservedVerdict.Judged(SESSION, BackendId.WEBGPU, Precision.Q8, Status.WRONG_OUTPUT,
                new Parity(maxAbs, maxAbs, cosine, 0.1, false, "native-cpu"), 0, 1);
    }

    private static RunResult replay(double maxAbs) {
        RunResult r = RunResult.of("r", Instant.EPOCH, ID, new Outcome.Stopped(BackendId.WEBGPU, Optional.ofNullable(new Parity(maxAbs, maxAbs, 0.9988, 0.1, false, "native-cpu"))), Status.WRONG_OUTPUT, "outputs differ from native CPU's",
                null, null, List.of(), List.of());
        return r.withAnalysis(r.analysis().withBisection(rounding()));
    }

    private static Bisection rounding() {
        return new Bisection(Bisection.Outcome.ROUNDING, "q", "QuantizeLinear", Map.of(), List.of(), List.of(), 1, 0.1, "native-cpu",
                BackendId.WEBGPU, List.of(), 4, null, null);
    }

    /** The session's row as the command line stores it, from the verdict a user's test gets. */
    private static RunResult row(ObservedVerdict v) {
        ObservedRows.Where w = new ObservedRows.Where("run-1", Instant.EPOCH, URI.create("http://127.0.0.1:1/"), BrowserKind.CHROMIUM, "156.0",
                new HostInfo("h", "fp-h", "Linux", "amd64", "cpu", 2, 2, List.of(), 1L << 30, List.of(), "17"), null);
        return ObservedRows.of(w, new Observed.Realm(Observed.Realm.Kind.PAGE, "http://127.0.0.1:1/"), "open", v, Optional.of(Precision.Q8),
                Optional.empty(), List.of(), null);
    }

    @Test
    void aReplayThatReproducesTheDivergenceSettlesIt() {
        ObservedVerdict.Judged v = ObservedBisections.settle(wrong(0.112, 0.9988), Optional.of(replay(0.112)));
        assertThat(v.status()).isEqualTo(Status.PASSED);
        assertThat(v.bisecting()).isInstanceOfSatisfying(ObservedVerdict.Bisecting.Bisected.class, b -> assertThat(b.settles()).isTrue());
        // the row says what the verdict says: one judge, whichever route asks
        RunResult r = row(v);
        assertThat(r.status()).isEqualTo(Status.PASSED);
        assertThat(r.reason()).startsWith("outside the element-wise tolerance as rounding amplified over layers, not a defect");
        assertThat(r.analysis().bisection()).isNotNull();
    }

    @Test
    void aReplayThatDivergedByLessSettlesNothing() {
        ObservedVerdict.Judged v = ObservedBisections.settle(wrong(5.0, 0.2), Optional.of(replay(0.112)));
        assertThat(v.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(v.bisecting()).isInstanceOfSatisfying(ObservedVerdict.Bisecting.Bisected.class, b -> {
            assertThat(b.reproduced()).isFalse();
            assertThat(b.settles()).isFalse();
        });
        RunResult r = row(v);
        assertThat(r.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).contains("not settled: its replay on its own lane diverged by 0.112, not the observed 5.00");
    }

    @Test
    void aReplayThatPassedSettlesNothing() {
        RunResult passed = RunResult.of("r", Instant.EPOCH, ID, new Outcome.Stopped(BackendId.WEBGPU, Optional.ofNullable(new Parity(0.01, 0.01, 0.99999, 0.1, true, "native-cpu"))), Status.PASSED, null, null, null, List.of(), List.of());
        ObservedVerdict.Judged v = ObservedBisections.settle(wrong(5.0, 0.2), Optional.of(passed));
        assertThat(v.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(row(v).reason()).contains("; not bisected: its replay on its own lane was PASSED");
    }

    @Test
    void aWrongSessionWithTooLittleTimeLeftIsSaidNotBisected() {
        // the bisection starts only within the visit's bound: none is begun with less than LEAST left
        Observed.Tensor x = new Observed.Tensor("x", 1, List.of(1L), 4L, java.util.Base64.getEncoder().encodeToString(new byte[4]), false, null,
                false, null);
        Observed.Session ran = new Observed.Session(1, null, 10, List.of("JS"), List.of(Map.of()), "jsep", 0.0, 1.0, true, false, 1, true,
                List.of(new Observed.Run(1.0, 0, List.of(x), List.of(x), "run", null)), Map.of(), Map.of(), null, null, null, "1.30.0", List.of());
        ObservedVerdict.Judged j = new ObservedVerdict.Judged(ran, BackendId.WEBGPU, Precision.FP32, Status.WRONG_OUTPUT,
                new Parity(5.0, 5.0, 0.2, 0.1, false, "native-cpu"), 0, 1);
        ObservedBisections.Replayer never = (s, m, in, b, left) -> {
            throw new AssertionError("replayed with " + left);
        };
        ObservedVerdict v = ObservedBisections.bisect(j, Optional.of(Path.of("m.onnx")), Observed.Tensor::tensor, never,
                Optional.of(Instant.now().plusSeconds(1)));
        assertThat(v).isInstanceOfSatisfying(ObservedVerdict.Judged.class, w -> assertThat(w.bisecting()).isEqualTo(
                new ObservedVerdict.Bisecting.NotBisected("the visit's time (--timeout) ran out before its replay on its own lane could be bisected")));
        // with its run's inputs not kept, it says that instead
        ObservedVerdict unkept = ObservedBisections.bisect(j, Optional.of(Path.of("m.onnx")), t -> Optional.empty(), never, Optional.empty());
        assertThat(((ObservedVerdict.Judged) unkept).bisecting()).isEqualTo(new ObservedVerdict.Bisecting.NotBisected(
                "run 1 did not keep every input's values"));
    }
}
