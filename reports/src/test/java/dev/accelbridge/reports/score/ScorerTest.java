package dev.accelbridge.reports.score;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ScorerTest {
    private final HostInfo h = host("s");

    private RunResult passedAt(double p50, Parity parity, BackendId b) {
        RunResult r = passed("r", t(0), h, ModelFamily.VISION, "convnet", b, chromiumProv(h, false), new double[]{p50, p50, p50});
        return new RunResult(r.runId(), r.startedAt(), r.suite(), r.model(), r.inputSet(), r.modelSha256(), r.requested(), r.actual(),
                r.status(), r.reason(), r.provenance(), r.timings(), r.memory(), parity, r.fallbackPath(), r.warnings());
    }

    @Test
    void theCpuReferenceItselfScores90High() {
        Score s = Scorer.score(passedAt(2.0, null, BackendId.CPU), 2.0);
        assertThat(s.value()).isCloseTo(90, within(1e-9));
        assertThat(s.grade()).isEqualTo(Grade.HIGH);
        assertThat(s.parityTerm()).isEqualTo(20);
        assertThat(s.speedTerm()).isEqualTo(10);
    }

    @Test
    void speedTermIsLogRatioClamped() {
        Parity perfect = new Parity(0, 0, 1, 1e-3, true, "native-cpu");
        assertThat(Scorer.score(passedAt(1.0, perfect, BackendId.WASM), 4.0).speedTerm()).isCloseTo(20, within(1e-9)); // 4× faster
        assertThat(Scorer.score(passedAt(4.0, perfect, BackendId.WASM), 2.0).speedTerm()).isCloseTo(5, within(1e-9));  // 2× slower
        assertThat(Scorer.score(passedAt(400.0, perfect, BackendId.WEBGPU), 2.0).speedTerm()).isEqualTo(0);           // 200× slower
        Score slow = Scorer.score(passedAt(400.0, perfect, BackendId.WEBGPU), 2.0);
        assertThat(slow.value()).isCloseTo(80, within(1e-9));
        assertThat(slow.speedRatio()).isCloseTo(0.005, within(1e-12));
    }

    @Test
    void parityTermUsesTheToleranceBudget() {
        assertThat(Scorer.parityTerm(new Parity(5e-4, 0, 1, 1e-3, true, "x"))).isCloseTo(10, within(1e-9));
        assertThat(Scorer.parityTerm(new Parity(0, 0, 1 - 2.5e-4, 1e-3, true, "x"))).isCloseTo(15, within(1e-6));
        assertThat(Scorer.parityTerm(new Parity(2e-3, 0, 1, 1e-3, true, "x"))).isEqualTo(0);
        assertThat(Scorer.parityTerm(new Parity(Double.NaN, 0, Double.NaN, 1e-3, false, "x"))).isEqualTo(0);
    }

    @Test
    void missingCpuReferenceIsNeutralAndNoted() {
        Score s = Scorer.score(passedAt(3.0, null, BackendId.WASM), Double.NaN);
        assertThat(s.speedTerm()).isEqualTo(10);
        assertThat(s.note()).contains("no native CPU reference");
    }

    @Test
    void fellBackIsAtMostMedium() {
        RunResult fb = fellBack("r", t(0), h, ModelFamily.VISION, "convnet", BackendId.WEBGPU, BackendId.WASM, chromiumProv(h, false),
                new double[]{0.5, 0.5, 0.5});
        Score s = Scorer.score(fb, 100.0); // even 200× faster than CPU
        assertThat(s.value()).isLessThanOrEqualTo(60);
        assertThat(s.grade()).isEqualTo(Grade.MEDIUM);
        assertThat(s.note()).contains("fell back to wasm");
    }

    @Test
    void wrongOutputIsLowAndNotRunIsNone() {
        RunResult w = wrong("r", t(0), ModelFamily.TEXT, "bert", BackendId.WEBGPU, chromiumProv(h, true), new double[]{1, 1, 1});
        Score s = Scorer.score(w, 1.0);
        assertThat(s.value()).isCloseTo(9.3, within(1e-9));
        assertThat(s.grade()).isEqualTo(Grade.LOW);
        for (Status st : new Status[]{Status.FAILED, Status.UNSUPPORTED, Status.UNAVAILABLE}) {
            Score z = Scorer.score(notRun("r", t(0), ModelFamily.TEXT, "bert", BackendId.CUDA, st, "why", nativeProv(h)), 1.0);
            assertThat(z.value()).isZero();
            assertThat(z.grade()).isEqualTo(Grade.NONE);
        }
    }

    @Test
    void gradeBoundaries() {
        assertThat(Grade.of(75)).isEqualTo(Grade.HIGH);
        assertThat(Grade.of(74.99)).isEqualTo(Grade.MEDIUM);
        assertThat(Grade.of(50)).isEqualTo(Grade.MEDIUM);
        assertThat(Grade.of(0.1)).isEqualTo(Grade.LOW);
        assertThat(Grade.of(0)).isEqualTo(Grade.NONE);
        assertThat(Grade.HIGH.label()).isEqualTo("High");
    }
}
