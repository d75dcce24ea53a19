package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The one rule both sides diagnose a refused load by, on the runtimes' own messages (pure). */
class LoadDiagnosisRuleTest {
    private static final String NATIVE = "Load model from ln.onnx failed:Type Error: Type parameter (T) of Optype (LayerNormalization) "
            + "bound to different types (tensor(float) and tensor(float16) in node (ln_scale/Mul_7/LayerNormFusion/).";

    @Test
    void theLevelsBelowAreTriedMostOptimizationFirst() {
        assertThat(LoadDiagnosis.below("all")).containsExactly("extended", "basic", "disabled");
        assertThat(LoadDiagnosis.below("basic")).containsExactly("disabled");
        assertThat(LoadDiagnosis.below("disabled")).isEmpty();
        assertThat(LoadDiagnosis.below("fastest")).as("an unknown level has nothing below it").isEmpty();
    }

    @Test
    void theOptimizerAndTheNodeItWorkedFromAreReadOffTheRejectedNodesName() {
        LoadDiagnosis d = LoadDiagnosis.of("ONNX Runtime 1.29.0", List.of("all", "extended", "basic"), "disabled", NATIVE);
        assertThat(d.optimizer()).isEqualTo("LayerNormFusion");
        assertThat(d.rejectedFrom()).isEqualTo("ln_scale/Mul_7");
        assertThat(d.sentence()).isEqualTo("fails to load with optimization=all, extended, basic and loads with optimization=disabled: "
                + "LayerNormFusion (the optimizer the rejected node's name gives) makes a graph ONNX Runtime 1.29.0 then rejects, a "
                + "defect of ONNX Runtime 1.29.0's, not of the model");
        assertThat(d.fix()).isEqualTo("run it with --runtime-option optimization=disabled, and report the optimizer's defect to ONNX Runtime 1.29.0");
        assertThat(d.withRepro(new LoadDiagnosis.Repro(new byte[] {1, 2}, 9)).fix()).endsWith("with the repro");
    }

    @Test
    void aMessageNamingNoTransformerClaimsNone() {
        LoadDiagnosis d = LoadDiagnosis.of("onnxruntime-web 1.30.0", List.of("all"), "extended", "Type Error: in node (my/Fusion)");
        assertThat(d.optimizer()).isNull();
        assertThat(d.rejectedFrom()).isNull();
        assertThat(d.sentence()).contains(": a graph optimizer of that level makes a graph onnxruntime-web 1.30.0 then rejects");
        assertThat(LoadDiagnosis.of("x", List.of("all"), "basic", null).optimizer()).isNull();
    }

    @Test
    void aReproIsAValueItsBytesCopied() {
        byte[] b = {1, 2, 3};
        LoadDiagnosis.Repro r = new LoadDiagnosis.Repro(b, 3);
        b[0] = 9;
        assertThat(r.model()[0]).isEqualTo((byte) 1);
        assertThat(r).isEqualTo(new LoadDiagnosis.Repro(new byte[] {1, 2, 3}, 3)).hasToString("Repro[3 nodes, 3 bytes]");
    }
}
