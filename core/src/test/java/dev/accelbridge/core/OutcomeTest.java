package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Whether a case ran is a type: each of the four things a row can hold (ran and timed, stopped on a backend before its
 * figures, timed where no backend is named, ran nowhere) is its own kind, and a result answers what ran it, what was
 * timed and how its outputs compared as values that may be absent, never as nulls.
 */
class OutcomeTest {
    private static final Timings T = Timings.of(1, 2, 0, new double[]{1, 2, 3});
    private static final Parity P = new Parity(1e-6, 1e-6, 1, 1e-3, true, "native-cpu");
    private static final CaseId ID = new CaseId(ModelFamily.VISION, "m", "ab".repeat(32), "default", "x=1x4", Precision.FP32, 1,
            BackendId.WEBGPU, LaneId.of(BrowserKind.CHROMIUM));

    private static RunResult result(BackendId actual, Timings t) {
        return RunResult.of("r", Instant.EPOCH, ID, actual, Status.PASSED, null, null, t, null, null, List.of(), List.of());
    }

    @Test
    void eachRowIsOneKind() {
        assertThat(Outcome.of(BackendId.WASM, T, P)).isEqualTo(new Outcome.Ran(BackendId.WASM, T, Optional.of(P)));
        assertThat(Outcome.of(BackendId.WASM, null, null)).isEqualTo(new Outcome.Stopped(BackendId.WASM, Optional.empty()));
        assertThat(Outcome.of(null, T, null)).isEqualTo(new Outcome.Unplaced(T));
        assertThat(Outcome.of(null, null, null)).isEqualTo(new Outcome.NotRun());
        assertThatThrownBy(() -> Outcome.of(null, T, P)).as("outputs compared, yet nothing made them")
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aResultSaysWhatRanItAndWhatWasTimedAsValues() {
        RunResult fellBack = result(BackendId.WASM, T);
        assertThat(fellBack.actual()).contains(BackendId.WASM);
        assertThat(fellBack.timings()).contains(T);
        assertThat(fellBack.ranOn(BackendId.WASM)).isTrue();
        assertThat(fellBack.ranElsewhere()).isTrue();
        assertThat(result(BackendId.WEBGPU, T).ranElsewhere()).isFalse();

        RunResult stopped = result(BackendId.WEBGPU, null);
        assertThat(stopped.actual()).contains(BackendId.WEBGPU);
        assertThat(stopped.timings()).isEmpty();

        RunResult unplaced = result(null, T);
        assertThat(unplaced.actual()).isEmpty();
        assertThat(unplaced.timings()).contains(T);
        assertThat(unplaced.ranElsewhere()).isFalse();

        RunResult none = RunResult.notRun("r", Instant.EPOCH, ID, Status.UNAVAILABLE, "no adapter", null, List.of());
        assertThat(none.outcome()).isInstanceOf(Outcome.NotRun.class);
        assertThat(none.actual()).isEmpty();
        assertThat(none.timings()).isEmpty();
        assertThat(Acceleration.of(none)).isEqualTo(Acceleration.NONE);
    }

    @Test
    void newTimingsKeepTheBackendAndFiguresSharedNeedOne() {
        RunResult stopped = result(BackendId.WEBGPU, null);
        assertThat(stopped.withTimings(T).outcome()).isEqualTo(new Outcome.Ran(BackendId.WEBGPU, T, Optional.empty()));
        RunResult compared = RunResult.of("r", Instant.EPOCH, ID, BackendId.WEBGPU, Status.PASSED, null, null, T, null, P, List.of(), List.of());
        assertThat(compared.parity()).contains(P);
        assertThat(compared.withTimings(null).parity()).as("new timings keep the comparison").contains(P);
        assertThat(result(null, T).parity()).isEmpty();
        assertThat(result(null, T).withTimings(null).outcome()).isEqualTo(new Outcome.NotRun());
        assertThatThrownBy(() -> result(null, T).withSharedFigures()).hasMessageContaining("ran nowhere");
    }
}
