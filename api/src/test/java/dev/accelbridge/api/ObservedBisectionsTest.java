package dev.accelbridge.api;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;

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

    private static RunResult row(double maxAbs, double cosine) {
        return RunResult.of("r", Instant.EPOCH, ID, BackendId.WEBGPU, Status.WRONG_OUTPUT, "outputs of its run 1 differ from native CPU's",
                null, null, null, new Parity(maxAbs, maxAbs, cosine, 0.1, false, "native-cpu"), List.of(), List.of());
    }

    private static RunResult replay(double maxAbs) {
        return row(maxAbs, 0.9988).withAnalysis(row(maxAbs, 0.9988).analysis().withBisection(rounding()));
    }

    private static Bisection rounding() {
        return new Bisection(Bisection.Outcome.ROUNDING, "q", "QuantizeLinear", Map.of(), List.of(), List.of(), 1, 0.1, "native-cpu",
                BackendId.WEBGPU, List.of(), 4, null, null);
    }

    @Test
    void aReplayThatReproducesTheDivergenceSettlesIt() {
        RunResult r = ObservedBisections.settled(row(0.112, 0.9988), Optional.of(replay(0.112)));
        assertThat(r.status()).isEqualTo(Status.PASSED);
        assertThat(r.analysis().bisection()).isNotNull();
    }

    @Test
    void aReplayThatDivergedByLessSettlesNothing() {
        RunResult r = ObservedBisections.settled(row(5.0, 0.2), Optional.of(replay(0.112)));
        assertThat(r.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).contains("not settled: its replay on its own lane diverged by 0.112, not the observed 5.00");
    }

    @Test
    void aReplayThatPassedSettlesNothing() {
        RunResult passed = RunResult.of("r", Instant.EPOCH, ID, BackendId.WEBGPU, Status.PASSED, null, null, null, null,
                new Parity(0.01, 0.01, 0.99999, 0.1, true, "native-cpu"), List.of(), List.of());
        RunResult r = ObservedBisections.settled(row(5.0, 0.2), Optional.of(passed));
        assertThat(r.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).contains("not bisected, its replay on its own lane was PASSED");
    }
}
