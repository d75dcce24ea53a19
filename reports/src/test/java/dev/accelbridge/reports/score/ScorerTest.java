package dev.accelbridge.reports.score;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Acceleration;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ScorerTest {
    private final HostInfo h = host("s");
    private final Parity perfect = new Parity(0, 0, 1, 1e-3, true, "native-cpu");

    private RunResult passedAt(double p50, Parity parity, BackendId b, Provenance p) {
        RunResult r = passed("r", t(0), h, ModelFamily.VISION, "convnet", b, p, new double[]{p50, p50, p50});
        return RunResult.of(r.runId(), r.startedAt(), r.id(), new Outcome.Ran(r.actual().orElse(null), r.timings().orElse(null), Optional.ofNullable(parity)), r.status(), r.reason(), r.provenance(), r.memory(), r.fallbackPath(), r.warnings());
    }

    @Test
    void theCpuReferenceItselfIsHigh() {
        Score s = Scorer.score(passedAt(2.0, null, BackendId.CPU, nativeProv(h)), 2.0);
        assertThat(s.value()).isCloseTo(87.5, within(1e-9));
        assertThat(s.grade()).isEqualTo(Grade.HIGH);
        assertThat(s.parityTerm()).isEqualTo(25);
        assertThat(s.speedTerm()).isEqualTo(12.5);
        assertThat(s.acceleration()).isEqualTo(Acceleration.CPU);
    }

    @Test
    void speedIsTheRatioToNativeCpuOnALogScale() {
        assertThat(Scorer.score(passedAt(1.0, perfect, BackendId.WASM, chromiumProv(h, false)), 4.0).speedTerm())
                .isCloseTo(25, within(1e-9)); // 4× faster
        Score slower = Scorer.score(passedAt(4.0, perfect, BackendId.WASM, chromiumProv(h, false)), 2.0);
        assertThat(slower.speedTerm()).isCloseTo(6.25, within(1e-9)); // 2× slower
        assertThat(slower.speedRatio()).isCloseTo(0.5, within(1e-12));
        assertThat(slower.grade()).isEqualTo(Grade.HIGH);
    }

    @Test
    void aSoftwareAdapterIsNeverGradedLikeHardwareAcceleration() {
        // SwiftShader: correct, and as fast as native CPU: still MEDIUM, speed not counted
        Score s = Scorer.score(passedAt(2.0, perfect, BackendId.WEBGPU, chromiumProv(h, true)), 2.0);
        assertThat(s.acceleration()).isEqualTo(Acceleration.SOFTWARE_ADAPTER);
        assertThat(s.speedTerm()).isZero();
        assertThat(s.grade()).isEqualTo(Grade.MEDIUM);
        assertThat(s.note()).contains("software adapter");
        // the same figures on a hardware adapter grade HIGH
        Provenance hw = new Provenance(h.hostname(), h.fingerprint(), h.os(), "chrome", "156", "playwright",
                "nvidia ampere", Boolean.FALSE, java.util.List.of("webgpu"), java.util.Map.of(), null);
        assertThat(Scorer.score(passedAt(2.0, perfect, BackendId.WEBGPU, hw), 2.0).grade()).isEqualTo(Grade.HIGH);
    }

    @Test
    void aWebnnDeviceTypeNotShownToRunWhereAskedIsAtMostMedium() {
        // Chromium on Linux (the fixture's host) runs WebNN's npu device type on the CPU
        Score s = Scorer.score(passedAt(0.5, perfect, BackendId.WEBNN_NPU, chromiumProv(h, false)), 2.0);
        assertThat(s.acceleration()).isEqualTo(Acceleration.BROWSER_CPU);
        assertThat(s.grade()).isEqualTo(Grade.MEDIUM);
        assertThat(s.value()).isLessThan(80);
    }

    @Test
    void casesThatMustGradeLow() {
        // correct but 200× slower than native CPU (a GPU's adapter that says it is hardware; a software adapter's speed is
        // not the backend's and never grades it: SoftwareAdapterFiguresTest)
        Score slow = Scorer.score(passedAt(400.0, perfect, BackendId.WEBGPU, chromiumProv(h, false)), 2.0);
        assertThat(slow.grade()).isEqualTo(Grade.LOW);
        assertThat(slow.value()).isLessThan(55);
        assertThat(slow.note()).contains("200.0× slower");
        // correct on wasm but 15× slower
        assertThat(Scorer.score(passedAt(30.0, perfect, BackendId.WASM, chromiumProv(h, false)), 2.0).grade()).isEqualTo(Grade.LOW);
        // wrong output, however fast
        Score wrong = Scorer.score(wrong("r", t(0), ModelFamily.TEXT, "m", BackendId.WASM, chromiumProv(h, false),
                new double[]{0.1}), 2.0);
        assertThat(wrong.grade()).isEqualTo(Grade.LOW);
        assertThat(wrong.value()).isGreaterThan(0).isLessThan(55);
    }

    @Test
    void aFallbackIsAtMostMedium() {
        Score s = Scorer.score(fellBack("r", t(0), h, ModelFamily.TEXT, "m", BackendId.WEBGPU, BackendId.WASM,
                chromiumProv(h, false), new double[]{1, 1, 1}), 2.0);
        assertThat(s.grade()).isEqualTo(Grade.MEDIUM);
        assertThat(s.note()).contains("fell back to wasm");
    }

    @Test
    void parityTermUsesTheToleranceBudget() {
        assertThat(Scorer.parityTerm(new Parity(5e-4, 0, 1, 1e-3, true, "x"))).isCloseTo(12.5, within(1e-9));
        assertThat(Scorer.parityTerm(new Parity(2e-3, 0, 1, 1e-3, true, "x"))).isEqualTo(0);
        assertThat(Scorer.parityTerm(new Parity(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN, 1e-3, false, "x", 2)))
                .isEqualTo(0);
    }

    @Test
    void missingCpuReferenceIsNeutralAndNoted() {
        Score s = Scorer.score(passedAt(3.0, null, BackendId.WASM, chromiumProv(h, false)), Double.NaN);
        assertThat(s.speedTerm()).isEqualTo(12.5);
        assertThat(s.note()).contains("no native CPU reference");
    }

    @Test
    void whatDidNotRunScoresZero() {
        for (Status st : new Status[]{Status.FAILED, Status.UNSUPPORTED, Status.UNAVAILABLE}) {
            Score z = Scorer.score(notRun("r", t(0), ModelFamily.TEXT, "bert", BackendId.CUDA, st, "why", nativeProv(h)), 1.0);
            assertThat(z.value()).isZero();
            assertThat(z.grade()).isEqualTo(Grade.NONE);
        }
        assertThat(Grade.HIGH.label()).isEqualTo("High");
    }
}
