package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The drill-down's pure logic: op aggregation, the warm-up run dropped, placement, copies, leak slopes. */
class DrillDownValuesTest {
    @Test
    void opTimesArePerIterationWithSharesPlacementAndCopies() {
        List<OpProfile.NodeEvent> events = List.of(
                new OpProfile.NodeEvent("mm", "MatMul", "JsExecutionProvider", 6),
                new OpProfile.NodeEvent("shape", "Shape", "CPUExecutionProvider", 1),
                new OpProfile.NodeEvent("copy", "MemcpyToHost", "JsExecutionProvider", 1),
                new OpProfile.NodeEvent("mm", "MatMul", "JsExecutionProvider", 2),
                new OpProfile.NodeEvent("shape", "Shape", "CPUExecutionProvider", 1),
                new OpProfile.NodeEvent("copy", "MemcpyToHost", "JsExecutionProvider", 1));
        OpProfile p = OpProfile.of("test", 2, events, "JsExecutionProvider", 7, null);
        assertThat(p.totalMs()).isEqualTo(6.0);
        assertThat(p.ops().get(0).opType()).isEqualTo("MatMul");
        assertThat(p.ops().get(0).ms()).isEqualTo(4.0);
        assertThat(p.ops().get(0).share()).isCloseTo(4.0 / 6, within(1e-12));
        assertThat(p.ops().get(0).nodes()).isEqualTo(1);
        assertThat(p.nodesOffProvider()).containsExactly("shape (Shape) on CPUExecutionProvider");
        assertThat(p.memcpy()).isEqualTo(1);
        assertThat(p.topNodes().get(0).node()).isEqualTo("mm");
        assertThat(p.describe()).contains("MatMul 67%", "1 nodes off JsExecutionProvider", "1 Memcpy");
    }

    @Test
    void onePreemptedEventDoesNotMakeItsOpTheHotSpot() {
        // found when tried: a native convnet profile said "MaxPool 93 %" at 8.8x the profiled wall, from one slow event
        List<OpProfile.NodeEvent> e = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            e.add(new OpProfile.NodeEvent("conv", "Conv", "cpu", 0.10));
            e.add(new OpProfile.NodeEvent("pool", "MaxPool", "cpu", i == 2 ? 4.0 : 0.02));
        }
        OpProfile p = OpProfile.of("test", 4, e, "cpu", 0.13, null);
        assertThat(p.ops().get(0).opType()).isEqualTo("Conv");
        assertThat(p.totalMs()).isCloseTo(0.12, within(1e-12));
        assertThat(p.totalMs()).isBetween(0.05 * p.profiledP50Ms(), 3 * p.profiledP50Ms());
    }

    @Test
    void theUntimedFirstRunIsDroppedByTheProfilersOwnClock() {
        // the first run can have more events than the others (allocation): counting events cannot tell it apart
        List<OpProfile.NodeEvent> e = List.of(new OpProfile.NodeEvent("a", "Conv", "cpu", 8, 0),
                new OpProfile.NodeEvent("extra", "Conv", "cpu", 1, 5), new OpProfile.NodeEvent("a", "Conv", "cpu", 0.2, 20),
                new OpProfile.NodeEvent("a", "Conv", "cpu", 0.2, 30));
        assertThat(OpProfile.afterFirstRun(e, 10)).extracting(OpProfile.NodeEvent::ms).containsExactly(0.2, 0.2);
        assertThat(OpProfile.afterFirstRun(e, Double.NaN)).as("first run unknown: kept whole").isEqualTo(e);
    }

    @Test
    void aSteadyRiseAcrossRecreationIsASuspectedLeakAndAFlatLineIsNot() {
        Recreate leak = Recreate.of(4, List.of(new Recreate.Cycle(1, 1, 1, 100L << 20, -1), new Recreate.Cycle(2, 1, 1, 102L << 20, -1),
                new Recreate.Cycle(3, 1, 1, 104L << 20, -1), new Recreate.Cycle(4, 1, 1, 106L << 20, -1)), "t");
        assertThat(leak.rssGrowthPerCycleBytes()).isCloseTo(2.0 * (1 << 20), within(1e-6));
        assertThat(Double.isNaN(leak.heapGrowthPerCycleBytes())).as("no heap measured").isTrue();
        assertThat(leak.suspectedLeak()).isTrue();
        Recreate flat = Recreate.of(3, List.of(new Recreate.Cycle(1, 1, 1, 100L << 20, 5), new Recreate.Cycle(2, 1, 1, 100L << 20, 5),
                new Recreate.Cycle(3, 1, 1, 100L << 20, 5)), "t");
        assertThat(flat.suspectedLeak()).isFalse();
        assertThat(Recreate.of(2, List.of(new Recreate.Cycle(1, 1, 1, 1, 1), new Recreate.Cycle(2, 1, 1, 9, 9)), "t")
                .rssGrowthPerCycleBytes()).as("two points are no trend").isNaN();
    }

    @Test
    void aGivenToleranceTighterThanTheRelativeDefaultTightensItToo() {
        Tolerance t = Tolerance.given(1e-9, BackendId.WEBGPU, DType.FLOAT32, Precision.FP32);
        assertThat(t.rtol()).isEqualTo(1e-9);
        assertThat(t.accepts(1.0, 1.0 + 1e-7)).isFalse();
        assertThat(Tolerance.given(0.05, BackendId.WEBGPU, DType.FLOAT32, Precision.FP32).rtol())
                .isEqualTo(Tolerance.defaults(BackendId.WEBGPU, DType.FLOAT32, Precision.FP32).rtol());
    }
}
