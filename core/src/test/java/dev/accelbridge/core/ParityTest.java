package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ParityTest {
    private static NamedTensor f(String name, float... v) {
        return NamedTensor.ofFloats(name, new long[]{v.length}, v);
    }

    @Test
    void identicalOutputsAreWithinWithZeroError() {
        Parity p = Parity.compare(List.of(f("y", 1, 2, 3)), List.of(f("y", 1, 2, 3)), 1e-3, "native-cpu");
        assertThat(p.maxAbsErr()).isZero();
        assertThat(p.maxRelErr()).isZero();
        assertThat(p.cosine()).isCloseTo(1.0, within(1e-12));
        assertThat(p.within()).isTrue();
        assertThat(p.nonFinite()).isZero();
    }

    /** onnxruntime-web's rule: within the absolute bound, or same sign and within the relative ratio. */
    @Test
    void anElementPassesByTheAbsoluteOrTheRelativeBound() {
        Tolerance wasm = Tolerance.defaults(BackendId.WASM, DType.FLOAT32, Precision.FP32);
        assertThat(wasm.atol()).isEqualTo(1e-4);
        assertThat(wasm.rtol()).isEqualTo(1e-6);
        assertThat(wasm.accepts(1.0, 1.00005)).as("absolute").isTrue();
        assertThat(wasm.accepts(1000.0, 1000.0005)).as("relative: 5e-7").isTrue();
        assertThat(wasm.accepts(1.0, 1.001)).isFalse();
        assertThat(wasm.accepts(-1e-3, 1e-3)).as("opposite signs pass only by the absolute bound").isFalse();
        Tolerance webgpu = Tolerance.defaults(BackendId.WEBGPU, DType.FLOAT32, Precision.FP32);
        assertThat(webgpu.accepts(1.0, 1.0009)).isTrue();
        assertThat(webgpu.basis()).contains("webgpu");
        assertThat(Tolerance.defaults(BackendId.WEBGPU, DType.INT64, Precision.FP32)).isEqualTo(Tolerance.EXACT);
        assertThat(Tolerance.defaults(BackendId.WASM, DType.FLOAT16, Precision.FP32).atol()).isEqualTo(0.1);
        assertThat(Tolerance.defaults(BackendId.CPU, DType.FLOAT32, Precision.INT8).rtol()).isEqualTo(0.02);
        assertThat(Tolerance.given(0.05, BackendId.WASM, DType.FLOAT32, Precision.FP32).accepts(1, 1.04)).isTrue();

        Parity p = Parity.compare(List.of(f("y", 100, 200)), List.of(f("y", 100.05f, 200)),
                dt -> Tolerance.defaults(BackendId.WEBGPU, dt, Precision.FP32), "native-cpu");
        assertThat(p.maxAbsErr()).isCloseTo(0.05, within(1e-5));
        assertThat(p.maxRelErr()).isCloseTo(5e-4, within(1e-6));
        assertThat(p.within()).isFalse();
        assertThat(p.budget()).isGreaterThan(1);
        assertThat(p.basis()).contains("webgpu: abs 1e-3, rel 1e-5");
        Parity q = Parity.compare(List.of(f("y", 1, 1)), List.of(f("y", 1.0005f, 1)),
                dt -> Tolerance.defaults(BackendId.WEBGPU, dt, Precision.FP32), "native-cpu");
        assertThat(q.within()).isTrue();
        assertThat(q.budget()).isCloseTo(0.5, within(0.01));
        assertThat(q.describe()).contains("tolerance webgpu: abs 1e-3, rel 1e-5");
    }

    @Test
    void integerOutputsMustBeExactAndFormMustMatch() {
        NamedTensor ids = NamedTensor.ofLongs("i", new long[]{3}, new long[]{1, 2, 3});
        NamedTensor off = NamedTensor.ofLongs("i", new long[]{3}, new long[]{1, 2, 4});
        assertThat(Parity.compare(List.of(ids), List.of(off), dt -> Tolerance.defaults(BackendId.WASM, dt, Precision.FP32), "x")
                .within()).isFalse();
        assertThat(Parity.compare(List.of(ids), List.of(ids), dt -> Tolerance.defaults(BackendId.WASM, dt, Precision.FP32), "x")
                .within()).isTrue();
        NamedTensor transposed = NamedTensor.ofFloats("y", new long[]{3, 2}, new float[6]);
        NamedTensor asRef = NamedTensor.ofFloats("y", new long[]{2, 3}, new float[6]);
        assertThatThrownBy(() -> Parity.compare(List.of(asRef), List.of(transposed), 1e-3, "x")).hasMessageContaining("shape [3, 2]");
        NamedTensor asLongs = NamedTensor.ofLongs("y", new long[]{2, 3}, new long[6]);
        assertThatThrownBy(() -> Parity.compare(List.of(asRef), List.of(asLongs), 1e-3, "x")).hasMessageContaining("is int64");
    }

    /**
     * Found when tried: a wasm hop after a failed WebNN session gave Infinity and was reported as maxAbsErr Infinity,
     * maxRelErr 0 and cosine 1.0: three figures that contradict each other.
     */
    @Test
    void nonFiniteOutputsNeverGiveContradictoryFigures() {
        Parity p = Parity.compare(List.of(f("y", 1, 2, 3, 4)),
                List.of(f("y", Float.POSITIVE_INFINITY, 2, Float.NaN, 4)), 1e-3, "native-cpu");
        assertThat(p.maxAbsErr()).isInfinite();
        assertThat(p.maxRelErr()).isInfinite();
        assertThat(p.cosine()).isNaN();
        assertThat(p.within()).isFalse();
        assertThat(p.nonFinite()).isEqualTo(2);
        assertThat(p.describe()).contains("2 output element(s) non-finite");
    }

    @Test
    void theSameNanOnBothSidesIsAgreement() {
        Parity p = Parity.compare(List.of(f("y", Float.NaN, 1)), List.of(f("y", Float.NaN, 1)), 1e-3, "expected-outputs");
        assertThat(p.within()).isTrue();
        assertThat(p.nonFinite()).isZero();
    }

    @Test
    void outputsAreMatchedByNameThenPosition() {
        Parity p = Parity.compare(List.of(f("a", 1), f("b", 5)), List.of(f("b", 5), f("a", 1)), 1e-6, "x");
        assertThat(p.within()).isTrue();
        assertThatThrownBy(() -> Parity.compare(List.of(f("a", 1, 2)), List.of(f("a", 1)), 1e-3, "x"))
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("has 1 elements, reference has 2");
        assertThatThrownBy(() -> Parity.compare(List.of(f("a", 1)), List.of(), 1e-3, "x"))
                .hasMessageContaining("Output count differs");
    }
}
