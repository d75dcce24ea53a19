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

    @Test
    void aSmallErrorIsMeasuredAndJudgedAgainstTheScaledTolerance() {
        Parity p = Parity.compare(List.of(f("y", 100, 200)), List.of(f("y", 100.05f, 200)), 1e-3, "native-cpu");
        assertThat(p.maxAbsErr()).isCloseTo(0.05, within(1e-5));
        assertThat(p.maxRelErr()).isCloseTo(5e-4, within(1e-6));
        assertThat(p.within()).as("0.05 <= 1e-3 * max(1, 200)").isTrue();
        Parity q = Parity.compare(List.of(f("y", 1, 1)), List.of(f("y", 1.01f, 1)), 1e-3, "native-cpu");
        assertThat(q.within()).isFalse();
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
