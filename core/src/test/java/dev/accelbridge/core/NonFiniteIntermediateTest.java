package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first non-finite intermediate of a bisection, decided on constructed tensors: a value the backend computed as
 * infinity where the reference's is finite (a float16 overflow a GPU meets), one non-finite on both sides (the graph's
 * own overflow at these inputs), and values that say nothing (finite, or not floats).
 */
class NonFiniteIntermediateTest {
    private static NamedTensor floats(float... v) {
        return NamedTensor.ofFloats("var", new long[] {v.length}, v);
    }

    @Test
    void anInfinityOnlyTheBackendComputedIsNamedWithTheReferenceFinite() {
        Bisection.NonFinite nf = Bisection.NonFinite.of("var", "ReduceMean", floats(70000f, 3f), floats(Float.POSITIVE_INFINITY, 3f));
        assertThat(nf).isEqualTo(new Bisection.NonFinite("var", "ReduceMean", "var", 1, 2, 0));
        assertThat(nf.describe(BackendId.WEBGPU)).isEqualTo("the first non-finite intermediate: 'var' (ReduceMean), 1 of 2 elements "
                + "on webgpu, finite on the reference");
    }

    @Test
    void anOverflowOnBothSidesIsTheGraphsOwn() {
        Bisection.NonFinite nf = Bisection.NonFinite.of("pow", "Pow", floats(Float.POSITIVE_INFINITY, Float.NaN),
                floats(Float.POSITIVE_INFINITY, Float.NaN));
        assertThat(nf.onReference()).isEqualTo(2);
        assertThat(nf.describe(BackendId.WASM)).endsWith("2 of 2 elements on wasm, 2 on the reference too (the graph overflows at these inputs)");
    }

    @Test
    void finiteValuesAndIntegersSayNothing() {
        assertThat(Bisection.NonFinite.of("var", "ReduceMean", floats(1f), floats(2f))).isNull();
        assertThat(Bisection.NonFinite.of("idx", "ArgMax", null, NamedTensor.ofLongs("idx", new long[] {1}, new long[] {Long.MAX_VALUE})))
                .isNull();
    }

    @Test
    void aBisectionSaysItsNonFiniteIntermediateAfterItsFinding() {
        Bisection b = Bisection.without(Bisection.Outcome.NOT_LOCALIZED, BackendId.WASM, "native-cpu", 1e-4, 12, "all within")
                .withNonFinite(new Bisection.NonFinite("pow", "Pow", "pow", 64, 64, 64));
        assertThat(b.describe()).isEqualTo("bisection on wasm: not localized (all within); the first non-finite intermediate: 'pow' (Pow), "
                + "64 of 64 elements on wasm, 64 on the reference too (the graph overflows at these inputs)");
        assertThat(b.withRepro("/tmp/r", null).nonFinite()).isEqualTo(b.nonFinite());
        assertThat(new Bisection(Bisection.Outcome.FOUND, "n", "Relu", Map.of(), List.of(), List.of(), 1, 1e-4, "native-cpu",
                BackendId.WASM, List.of(), 1, null, null).nonFinite()).isNull();
    }
}
