package dev.accelbridge.bisect;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.GraphBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What counts as one-step rounding, and what is computed from it: pure rules, no runtime. */
class RoundingTest {
    private static NamedTensor u8(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return new NamedTensor("q", DType.UINT8, new long[] {v.length}, b);
    }

    @Test
    void oneStepIsAnIntegerOutputAtMostOneApartAndNotEqual() {
        assertThat(Rounding.oneStep(u8(0, 128, 255), u8(1, 128, 255))).as("three elements: one may move").isTrue();
        assertThat(Rounding.oneStep(u8(0, 128, 255), u8(1, 127, 255))).as("two of three: systematic").isFalse();
        assertThat(Rounding.oneStep(u8(0, 128, 255), u8(0, 128, 255))).as("equal: no rounding to speak of").isFalse();
        assertThat(Rounding.oneStep(u8(0, 128, 255), u8(2, 128, 255))).as("two steps: not rounding").isFalse();
        assertThat(Rounding.oneStep(u8(0, 128), u8(0, 128, 1))).as("another shape").isFalse();
        NamedTensor f = NamedTensor.ofFloats("f", new long[] {2}, new float[] {0, 1});
        assertThat(Rounding.oneStep(f, NamedTensor.ofFloats("f", new long[] {2}, new float[] {1, 1}))).as("a float output").isFalse();
    }

    @Test
    void aQuantizeNodeAndWhatIsComputedFromIt() {
        GraphBuilder g = new GraphBuilder("q", 1);
        String x = g.input("x", DType.FLOAT32, 4L);
        String other = g.op("Relu", "side", List.of(x)); // node 0: not computed from the quantize
        List<String> q = g.opN("DynamicQuantizeLinear", "q", 3, List.of(x)); // node 1
        String dq = g.op("DequantizeLinear", "dq", List.of(q.get(0), q.get(1), q.get(2))); // node 2
        g.opInto("Add", "y", List.of(dq, other)); // node 3
        var graph = g.build("rounding").getGraph();
        assertThat(Rounding.quantizes(graph.getNode(1))).isTrue();
        assertThat(Rounding.quantizes(graph.getNode(2))).isFalse();
        assertThat(Rounding.downstream(graph, 1)).containsExactlyInAnyOrder(2, 3);
        assertThat(Rounding.downstream(graph, 0)).containsExactly(3);
    }

    @Test
    void aSystematicStepIsNotRounding() {
        // a zero point off by one: every element one step up
        int[] ref = new int[1000];
        int[] shifted = new int[1000];
        int[] fewMoved = new int[1000];
        for (int i = 0; i < ref.length; i++) {
            ref[i] = (i * 37) % 250;
            shifted[i] = ref[i] + 1;
            fewMoved[i] = ref[i] + (i % 200 == 0 ? 1 : 0); // 5 of 1000 across a boundary
        }
        assertThat(Rounding.oneStep(u8(ref), u8(shifted))).as("every element off: systematic").isFalse();
        assertThat(Rounding.oneStep(u8(ref), u8(fewMoved))).as("a few near a boundary").isTrue();
        int[] eleven = ref.clone();
        for (int i = 0; i < 11; i++) {
            eleven[i * 90]++;
        }
        assertThat(Rounding.oneStep(u8(ref), u8(eleven))).as("past 1 %").isFalse();
    }

    @Test
    void everyValueGrownFromARoundingIsCheckedAloneNotTheFirstThree() {
        // found when tried: after a one-step rounding only the first three nodes computed from it ran alone, and the case was
        // then PASSED "not a defect" though later op types were never checked
        AloneRuns.Verdict clean = new AloneRuns.Verdict(null, null, null);
        AloneRuns.Verdict wrong = new AloneRuns.Verdict(null, null, "its output has shape [2] where the reference's has [4]");
        List<Integer> grownOut = List.of(10, 11, 12, 13, 14, 15);
        Rounding.Grown late = Rounding.checkGrown(grownOut, i -> i == 15 ? wrong : clean, 400);
        assertThat(late.node()).as("the sixth node computed from the rounding diverges of its own").isEqualTo(15);
        assertThat(late.verdict()).isSameAs(wrong);
        Rounding.Grown none = Rounding.checkGrown(grownOut, i -> clean, 400);
        assertThat(none.node()).isEqualTo(-1);
        assertThat(none.ran()).isEqualTo(6);
        assertThat(none.unchecked()).as("the whole path was run: the rounding is the whole story").isZero();
        Rounding.Grown bounded = Rounding.checkGrown(grownOut, i -> clean, 4);
        assertThat(bounded.unchecked()).as("past the bound, what was not run is said, never passed").isEqualTo(2);
    }
}
