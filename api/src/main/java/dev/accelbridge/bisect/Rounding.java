package dev.accelbridge.bisect;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.surgery.Taps;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One-step rounding of a quantize operator, told apart from a defect. A quantize operator's integer output that differs
 * from the reference's by at most one step is rounding that two correct implementations may differ in (a value an
 * upstream float error within tolerance moved across a rounding boundary); everything computed from it then differs
 * too. So bisection does not stop there: a later value that leaves tolerance without depending on the rounded one is a
 * divergence of its own, and one that depends on it has grown from the rounding.
 *
 * <p>Rounding is the name for a few values near a boundary, never for a defect that looks like it: an output where more
 * than {@link #MAX_SHARE} of the elements are a step off (a zero point off by one moves them all) is not rounding, and
 * neither is one whose node, run alone on the backend with the reference's own inputs, is still off (a rounding rule
 * that differs, half away from zero for ONNX's half to even, gives other integers from the same floats); bisection
 * checks the latter ({@code Bisector}).
 */
final class Rounding {
    /** Operators whose integer outputs are a rounding of their float input. */
    private static final Set<String> QUANTIZE = Set.of("QuantizeLinear", "DynamicQuantizeLinear");

    private Rounding() {
    }

    /** Whether {@code node} quantizes (any domain: ONNX's and ONNX Runtime's {@code com.microsoft} forms). */
    static boolean quantizes(NodeProto node) {
        return QUANTIZE.contains(node.getOpType());
    }

    /** The largest share of an output's elements that rounding moves by a step; past it the difference is systematic. */
    static final double MAX_SHARE = 0.01;

    /**
     * Whether {@code got} is {@code ref} but for a few elements one integer step apart (same integer type and shape; at
     * most {@link #MAX_SHARE} of them, and at least one).
     */
    static boolean oneStep(NamedTensor ref, NamedTensor got) {
        if (ref.dtype() != got.dtype() || ref.dtype().isFloat() || !Arrays.equals(ref.shape(), got.shape())) {
            return false;
        }
        double[] r = ref.toDoubles();
        double[] g = got.toDoubles();
        int differ = 0;
        for (int i = 0; i < r.length; i++) {
            double d = Math.abs(r[i] - g[i]);
            if (d > 1) {
                return false;
            }
            differ += d > 0 ? 1 : 0;
        }
        return differ > 0 && differ <= Math.max(1, MAX_SHARE * r.length);
    }

    /**
     * Why a quantize output a few steps off is not rounding, from its node run alone on the backend with the reference's own
     * inputs: still off (the backend quantizes otherwise), or not runnable alone (nothing tells it from a defect); null
     * when alone it gives the reference's integers, so the difference came from its inputs.
     */
    static String notRounding(AloneRuns.Verdict own, BackendId backend) {
        if (own.failure() != null) {
            return "its integer output is a quantization step off, and run alone on " + backend + " it could not show whether "
                    + "that is rounding: " + own.failure();
        }
        return own.diverges() ? "its integer output is a quantization step off, and still off when it runs alone on " + backend
                + " with the reference's own inputs: the backend quantizes otherwise, not a rounding of different inputs ("
                + (own.mismatch() != null ? own.mismatch() : own.parity().describe()) + ")" : null;
    }

    /** The nodes computed, directly or not, from {@code node}'s outputs. */
    static Set<Integer> downstream(GraphProto g, int node) {
        Map<String, List<Integer>> consumers = Taps.consumers(g);
        Set<Integer> seen = new HashSet<>();
        Deque<Integer> todo = new ArrayDeque<>(List.of(node));
        while (!todo.isEmpty()) {
            for (String o : g.getNode(todo.pop()).getOutputList()) {
                for (int c : consumers.getOrDefault(o, List.of())) {
                    if (seen.add(c)) {
                        todo.push(c);
                    }
                }
            }
        }
        return seen;
    }

    /**
     * What the nodes computed from a rounding that left tolerance showed, each run alone with the reference's inputs.
     *
     * @param node      the first that diverges of its own or could not run alone, -1 when none
     * @param verdict   that node's verdict, null when none
     * @param ran       how many ran alone
     * @param unchecked how many were not run, the bound reached first (the rounding is then not the whole story)
     */
    record Grown(int node, AloneRuns.Verdict verdict, int ran, int unchecked) {
    }

    /**
     * Runs {@code grownOut} alone in order, at most {@code max} of them, until one diverges of its own or cannot run.
     */
    static Grown checkGrown(List<Integer> grownOut, java.util.function.IntFunction<AloneRuns.Verdict> alone, int max) {
        int ran = 0;
        for (int idx : grownOut) {
            if (ran >= max) {
                return new Grown(-1, null, ran, grownOut.size() - ran);
            }
            AloneRuns.Verdict v = alone.apply(idx);
            ran++;
            if (v.failure() != null || v.diverges()) {
                return new Grown(idx, v, ran, 0);
            }
        }
        return new Grown(-1, null, ran, 0);
    }
}
