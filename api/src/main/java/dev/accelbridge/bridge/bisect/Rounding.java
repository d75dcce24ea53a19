package dev.accelbridge.bridge.bisect;

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

    /** Whether {@code got} is {@code ref} but for elements one integer step apart (same integer type and shape). */
    static boolean oneStep(NamedTensor ref, NamedTensor got) {
        if (ref.dtype() != got.dtype() || ref.dtype().isFloat() || !Arrays.equals(ref.shape(), got.shape())) {
            return false;
        }
        double[] r = ref.toDoubles();
        double[] g = got.toDoubles();
        boolean differs = false;
        for (int i = 0; i < r.length; i++) {
            double d = Math.abs(r[i] - g[i]);
            if (d > 1) {
                return false;
            }
            differs |= d > 0;
        }
        return differs;
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
}
