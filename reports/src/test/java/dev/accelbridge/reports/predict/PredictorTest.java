package dev.accelbridge.reports.predict;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Predictions on constructed stores: exact where the data is exactly additive, honest about its error where it is not. */
class PredictorTest {
    static final HostInfo H = Fixtures.host("vm");
    static final List<String> MODELS = List.of("m1", "m2", "m3", "m4");
    static final double[] MODEL_MS = {1, 4, 10, 40};
    static final List<BackendId> BACKENDS = List.of(BackendId.CPU, BackendId.WASM, BackendId.WEBGPU);
    static final double[] BACKEND_X = {1, 2.5, 8};

    private static List<RunResult> store(double noise, boolean leaveOutM4OnWebgpu) {
        SplittableRandom rng = new SplittableRandom(7);
        List<RunResult> out = new ArrayList<>();
        for (int m = 0; m < MODELS.size(); m++) {
            for (int b = 0; b < BACKENDS.size(); b++) {
                if (leaveOutM4OnWebgpu && m == 3 && b == 2) {
                    continue;
                }
                double p50 = MODEL_MS[m] * BACKEND_X[b] * Math.exp(noise * (rng.nextDouble() * 2 - 1));
                BackendId be = BACKENDS.get(b);
                Provenance p = be.isBrowser() ? Fixtures.chromiumProv(H, true) : Fixtures.nativeProv(H);
                out.add(Fixtures.passed("r1", Fixtures.t(m * 10 + b), H, ModelFamily.TEXT, MODELS.get(m), be, p,
                        Fixtures.samples(p50, 0, 5, 1)));
            }
        }
        return out;
    }

    @Test
    void anUnmeasuredCombinationOfExactlyAdditiveDataIsPredictedExactly() {
        Prediction p = Predictions.answer(store(0, true), "m4", Precision.FP32, 1, BackendId.WEBGPU, BrowserKind.CHROMIUM, null);
        assertThat(p.p50Ms()).isCloseTo(40 * 8, within(0.5));
        assertThat(p.measuredP50Ms()).isNaN();
        assertThat(p.modelSamples()).isEqualTo(2);
        assertThat(p.configSamples()).isEqualTo(3);
        assertThat(p.looTrials()).isPositive();
        assertThat(p.looMedianError()).isLessThan(0.01);
        assertThat(Predictions.describe(p)).startsWith("PREDICTION (not a measurement)");
        assertThat(Predictions.json(p).get("kind").asText()).isEqualTo("prediction");
    }

    @Test
    void noiseShowsInTheLeaveOneOutErrorInsteadOfBeingHidden() {
        Prediction quiet = Predictions.answer(store(0.01, false), "m2", Precision.FP32, 1, BackendId.WASM, BrowserKind.CHROMIUM, null);
        Prediction noisy = Predictions.answer(store(0.5, false), "m2", Precision.FP32, 1, BackendId.WASM, BrowserKind.CHROMIUM, null);
        assertThat(noisy.looMedianError()).isGreaterThan(quiet.looMedianError() * 5);
        assertThat(noisy.looP90Error()).isGreaterThanOrEqualTo(noisy.looMedianError());
        assertThat(quiet.measuredP50Ms()).as("a measured combination is named, and left out of its own prediction").isPositive();
    }

    @Test
    void nothingToPredictFromIsSaidNotGuessed() {
        List<RunResult> rs = store(0, false);
        assertThatThrownBy(() -> Predictions.answer(rs, "m9", Precision.FP32, 1, BackendId.WASM, null, null))
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("no measurement of m9");
        assertThatThrownBy(() -> Predictions.answer(rs, "m1", Precision.FP32, 1, BackendId.WEBNN_GPU, null, null))
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("Cannot predict");
        assertThatThrownBy(() -> Predictions.answer(rs, "m1", Precision.FP32, 1, BackendId.WASM, null, "elsewhere"))
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("No host 'elsewhere'");
    }
}
