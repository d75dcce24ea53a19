package dev.accelbridge.run;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A verdict once bisected (pure): found when tried, a q8 case on the native WebGPU EP was stored WRONG_OUTPUT with "this
 * backend gets the q8 variant wrong" followed by the bisection's "divergence starts as one-step rounding", which the
 * project defines as no defect. The bisection's reading is the one with evidence.
 */
class BisectionVerdictTest {
    private static RunResult wrong(BackendId requested, BackendId actual) {
        CaseId id = new CaseId(ModelFamily.TEXT, "minilm", "ab", "gen", "", Precision.Q8, 1, requested, LaneId.NATIVE);
        return RunResult.of("r", Instant.EPOCH, id, new Outcome.Stopped(actual, Optional.ofNullable(new Parity(0.3, 0.1, 0.995, 0.1, false, "native-cpu fp32"))), Status.WRONG_OUTPUT, "this backend gets the q8 variant wrong", null, null, List.of(), List.of()).withVariantParity(new Parity(0.2, 0.05, 0.9995, 0.1, false, "native-cpu q8"));
    }

    private static Bisection found(Bisection.Outcome o) {
        return new Bisection(o, "mm_quant", "DynamicQuantizeLinear", Map.of(), List.of(), List.of(), 1, 0.1, "native-cpu",
                BackendId.WEBGPU, List.of(), 4, null, null);
    }

    @Test
    void roundingIsNoDefectSoTheCaseIsNotWrongOutput() {
        RunResult r = Bisections.settled(wrong(BackendId.WEBGPU, BackendId.WEBGPU), found(Bisection.Outcome.ROUNDING));
        assertThat(r.status()).isEqualTo(Status.PASSED);
        assertThat(r.reason()).startsWith("outside the element-wise tolerance as rounding amplified over layers, not a defect: "
                + "divergence starts as one-step rounding at 'mm_quant'");
    }

    @Test
    void aFirstDivergingNodeKeepsTheDefect() {
        RunResult r = Bisections.settled(wrong(BackendId.WEBGPU, BackendId.WEBGPU), found(Bisection.Outcome.FOUND));
        assertThat(r.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).isEqualTo("this backend gets the q8 variant wrong");
    }

    @Test
    void aFallbackThatRoundsKeepsItsStatusAndSaysTheReading() {
        RunResult r = Bisections.settled(wrong(BackendId.WEBGPU, BackendId.WASM), found(Bisection.Outcome.ROUNDING));
        assertThat(r.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).contains("one-step rounding");
    }
}
