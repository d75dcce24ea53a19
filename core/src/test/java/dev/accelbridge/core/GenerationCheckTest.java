package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The verdict of a generation against its reference, on made-up logits whose answer is known. */
class GenerationCheckTest {
    static final int STEPS = 4;
    static final int VOCAB = 5;
    static final Function<DType, Tolerance> WASM = dt -> Tolerance.defaults(BackendId.WASM, dt, Precision.FP32);

    /** Logits whose top token at step s is (s + 1) % VOCAB, by a margin of {@code margin}. */
    static float[] logits(float margin) {
        float[] l = new float[STEPS * VOCAB];
        for (int s = 0; s < STEPS; s++) {
            for (int v = 0; v < VOCAB; v++) {
                l[s * VOCAB + v] = v == (s + 1) % VOCAB ? 1 + margin : 1 - 0.1f * v;
            }
        }
        return l;
    }

    static List<NamedTensor> outputs(float[] logits, long[]... generations) {
        long[] all = new long[generations.length * STEPS];
        for (int g = 0; g < generations.length; g++) {
            System.arraycopy(generations[g], 0, all, g * STEPS, STEPS);
        }
        return List.of(NamedTensor.ofLongs(Generation.TOKENS, new long[] {generations.length, STEPS}, all),
                NamedTensor.ofFloats(Generation.TEACHER_LOGITS, new long[] {STEPS, VOCAB}, logits));
    }

    static final long[] TOKENS = {1, 2, 3, 4};

    @Test
    void theSameTokensAndLogitsWithinToleranceAreVerified() {
        float[] a = logits(1);
        a[7] += 5e-5f; // float noise, inside wasm's 1e-4
        GenerationCheck.Verdict v = GenerationCheck.judge(outputs(logits(1), TOKENS), outputs(a, TOKENS, TOKENS, TOKENS), WASM, "native-cpu", 8);
        assertThat(v.wrong()).isFalse();
        assertThat(v.reason()).isNull();
        assertThat(v.check()).isEqualTo(TokenCheck.REFERENCE);
        assertThat(v.verified()).isEqualTo(3);
        assertThat(v.generations()).isEqualTo(3);
        assertThat(v.topOneAgree()).isEqualTo(STEPS);
        assertThat(v.parity().within()).isTrue();
        assertThat(v.parity().against()).isEqualTo("native-cpu, teacher-forced logits");
    }

    @Test
    void aStepOutsideTheToleranceIsWrongAndNamedWithItsCacheDepth() {
        float[] a = logits(1);
        a[2 * VOCAB + 4] += 0.5f; // the third token's logits, computed at past length 8 + 2 - 1 = 9
        GenerationCheck.Verdict v = GenerationCheck.judge(outputs(logits(1), TOKENS), outputs(a, TOKENS), WASM, "native-cpu", 8);
        assertThat(v.wrong()).isTrue();
        assertThat(v.reason()).startsWith("teacher-forced logits left the tolerance at token 3 (past length 9): max abs err 0.5")
                .contains("top-1 agreed at 4 of 4 teacher-forced steps; tokens verified in 1 of 1 generations");
        assertThat(GenerationCheck.step(0, 8)).isEqualTo("token 1 (the prompt's prefill, past length 0)");
    }

    @Test
    void aDivergenceWithinToleranceIsANearTieWithItsGapNotADefect() {
        // the reference's top two at step 2 lie 4e-5 apart: a backend within tolerance may take either
        float[] ref = logits(4e-5f);
        float[] a = ref.clone();
        a[2 * VOCAB + 3] -= 5e-5f; // the reference's choice there (3) loses the tie on this backend
        a[2 * VOCAB] += 1e-6f;
        long[] diverged = {1, 2, 0, 4};
        GenerationCheck.Verdict v = GenerationCheck.judge(outputs(ref, TOKENS), outputs(a, TOKENS, diverged), WASM, "native-cpu", 8);
        assertThat(v.wrong()).isFalse();
        assertThat(v.verified()).isEqualTo(1);
        assertThat(v.reason()).startsWith("tokens not verified: generation 2 of 2 took token 0 instead of 3 at token 3 (past length 9), "
                + "a near-tie (the reference's logits of the two tokens differ by 4.01e-05");
    }

    @Test
    void aDivergenceWithAClearMarginIsWrongEvenWhenTheTeacherForcedPassAgrees() {
        long[] diverged = {1, 2, 0, 4};
        GenerationCheck.Verdict v = GenerationCheck.judge(outputs(logits(1), TOKENS), outputs(logits(1), TOKENS, diverged), WASM, "native-cpu", 8);
        assertThat(v.wrong()).isTrue();
        assertThat(v.reason()).startsWith("generations do not repeat: generation 2 of 2 took token 0 instead of 3 at token 3 (past length 9)");
    }

    @Test
    void oneNearTieDoesNotHideAClearDivergenceInALaterGeneration() {
        // generation 2 diverges at step 2 where the reference's top two are 4e-5 apart (a near-tie); generation 3 diverges at
        // step 1 where the reference's margin is 1 (a defect): the case is wrong, and the sentence names generation 3
        float[] ref = logits(1);
        ref[2 * VOCAB] = ref[2 * VOCAB + 3] - 4e-5f;
        long[] tie = {1, 2, 0, 4};
        long[] clear = {1, 0, 3, 4};
        GenerationCheck.Verdict v = GenerationCheck.judge(outputs(ref, TOKENS), outputs(ref, TOKENS, tie, clear), WASM, "native-cpu", 8);
        assertThat(v.wrong()).isTrue();
        assertThat(v.reason()).startsWith("generations do not repeat: generation 3 of 3 took token 0 instead of 2 at token 2 (past length 8)")
                .contains("(and 1 near-tie)");
        assertThat(v.verified()).isEqualTo(1);
        // the near-tie alone still passes, said as such
        GenerationCheck.Verdict tieOnly = GenerationCheck.judge(outputs(ref, TOKENS), outputs(ref, TOKENS, tie, tie), WASM, "native-cpu", 8);
        assertThat(tieOnly.wrong()).isFalse();
        assertThat(tieOnly.reason()).startsWith("tokens not verified: generation 2 of 3 took token 0 instead of 3").contains("a near-tie")
                .contains("each of the 2 divergences a near-tie");
    }

    @Test
    void theReferenceRepeatsItsFirstGenerationJudgedAsABackendIsAndAMissingOutputIsAShapeFinding() {
        GenerationCheck.Verdict same = GenerationCheck.repeatCheck(outputs(logits(1), TOKENS, TOKENS), WASM, 8);
        assertThat(same.verified()).isEqualTo(2);
        assertThat(same.check()).isEqualTo(TokenCheck.OWN_FIRST);
        assertThat(same.wrong()).isFalse();
        assertThat(same.reason()).isNull();
        assertThat(same.topOneAgree()).as("nothing to agree with").isEqualTo(-1);
        // its second generation takes another token where its own logits hold a clear margin: a runtime that does not repeat
        GenerationCheck.Verdict v = GenerationCheck.repeatCheck(outputs(logits(1), TOKENS, new long[] {1, 2, 3, 0}), WASM, 8);
        assertThat(v.verified()).isEqualTo(1);
        assertThat(v.wrong()).isTrue();
        assertThat(v.reason()).startsWith("generations do not repeat: generation 2 of 2 took token 0 instead of 4 at token 4 (past length 10)")
                .contains("tokens repeated in 1 of 2 generations (the reference: each against its first)");
        // where its own top two are a near-tie, it is said and passes
        float[] tie = logits(1);
        tie[3 * VOCAB] = tie[3 * VOCAB + 4] - 4e-5f;
        GenerationCheck.Verdict t = GenerationCheck.repeatCheck(outputs(tie, TOKENS, new long[] {1, 2, 3, 0}), WASM, 8);
        assertThat(t.wrong()).isFalse();
        assertThat(t.reason()).startsWith("tokens not repeated: generation 2 of 2 took token 0 instead of 4").contains("a near-tie");
        assertThatThrownBy(() -> GenerationCheck.judge(outputs(logits(1), TOKENS), List.of(), WASM, "native-cpu", 8))
                .hasMessageContaining("gave no output 'tokens'");
    }
}
