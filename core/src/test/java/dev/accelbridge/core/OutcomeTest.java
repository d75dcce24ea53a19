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

    private static RunResult result(Outcome o) {
        return RunResult.of("r", Instant.EPOCH, ID, o, Status.PASSED, null, null, null, List.of(), List.of());
    }

    @Test
    void aStoredRowIsReadAsItsKindAndRefusedWhereItsPartsDisagree() {
        assertThat(Outcome.read(Outcome.Kind.RAN, BackendId.WASM, T, P)).isEqualTo(new Outcome.Ran(BackendId.WASM, T, Optional.of(P)));
        assertThat(Outcome.read(Outcome.Kind.STOPPED, BackendId.WASM, null, null)).isEqualTo(new Outcome.Stopped(BackendId.WASM, Optional.empty()));
        assertThat(Outcome.read(Outcome.Kind.UNPLACED, null, T, null)).isEqualTo(new Outcome.Unplaced(T));
        assertThat(Outcome.read(Outcome.Kind.NOT_RUN, null, null, null)).isEqualTo(new Outcome.NotRun());
        for (Outcome o : List.of(new Outcome.Ran(BackendId.WASM, T, Optional.of(P)), new Outcome.Stopped(BackendId.CPU, Optional.empty()),
                new Outcome.Unplaced(T), new Outcome.NotRun())) {
            assertThat(Outcome.read(o.kind(), o.ranOn().orElse(null), o.timed().orElse(null), o.compared().orElse(null)))
                    .as("each kind read back from its own parts").isEqualTo(o);
        }
        // the kind is what the row says; parts that say another kind are a malformed row, never guessed into that kind
        assertThatThrownBy(() -> Outcome.read(Outcome.Kind.RAN, BackendId.WASM, null, null)).hasMessageContaining("RAN has no timings");
        assertThatThrownBy(() -> Outcome.read(Outcome.Kind.NOT_RUN, BackendId.WASM, null, null)).hasMessageContaining("names a backend");
        assertThatThrownBy(() -> Outcome.read(Outcome.Kind.STOPPED, BackendId.WASM, T, null)).hasMessageContaining("has timings");
        assertThatThrownBy(() -> Outcome.read(Outcome.Kind.UNPLACED, null, T, P)).as("outputs compared, yet nothing made them")
                .hasMessageContaining("no backend that made them");
    }

    @Test
    void aResultSaysWhatRanItAndWhatWasTimedAsValues() {
        RunResult fellBack = result(new Outcome.Ran(BackendId.WASM, T, Optional.empty()));
        assertThat(fellBack.actual()).contains(BackendId.WASM);
        assertThat(fellBack.timings()).contains(T);
        assertThat(fellBack.ranOn(BackendId.WASM)).isTrue();
        assertThat(fellBack.ranElsewhere()).isTrue();
        assertThat(result(new Outcome.Ran(BackendId.WEBGPU, T, Optional.empty())).ranElsewhere()).isFalse();

        RunResult stopped = result(new Outcome.Stopped(BackendId.WEBGPU, Optional.empty()));
        assertThat(stopped.actual()).contains(BackendId.WEBGPU);
        assertThat(stopped.timings()).isEmpty();

        RunResult unplaced = result(new Outcome.Unplaced(T));
        assertThat(unplaced.actual()).isEmpty();
        assertThat(unplaced.timings()).contains(T);
        assertThat(unplaced.ranElsewhere()).isFalse();

        RunResult none = RunResult.notRun("r", Instant.EPOCH, ID, Status.UNAVAILABLE, "no adapter", null, List.of());
        assertThat(none.outcome()).isInstanceOf(Outcome.NotRun.class);
        assertThat(none.outcome().kind()).isEqualTo(Outcome.Kind.NOT_RUN);
        assertThat(none.actual()).isEmpty();
        assertThat(none.timings()).isEmpty();
        assertThat(Acceleration.of(none)).isEqualTo(Acceleration.NONE);
        assertThatThrownBy(() -> result(null)).as("a row is made with its outcome whole").isInstanceOf(NullPointerException.class);
    }

    @Test
    void newTimingsKeepTheBackendAndComparisonAndOnlyATimedKindHasThem() {
        Timings other = Timings.of(5, 6, 0, new double[]{4, 5});
        RunResult compared = result(new Outcome.Ran(BackendId.WEBGPU, T, Optional.of(P)));
        assertThat(compared.withTimings(other).outcome()).isEqualTo(new Outcome.Ran(BackendId.WEBGPU, other, Optional.of(P)));
        assertThat(result(new Outcome.Unplaced(T)).withTimings(other).outcome()).isEqualTo(new Outcome.Unplaced(other));
        assertThatThrownBy(() -> result(new Outcome.Stopped(BackendId.WEBGPU, Optional.empty())).withTimings(other))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> result(new Outcome.Unplaced(T)).withSharedFigures()).hasMessageContaining("ran nowhere");
    }
}
