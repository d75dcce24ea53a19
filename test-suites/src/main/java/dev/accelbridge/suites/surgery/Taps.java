package dev.accelbridge.suites.surgery;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A model's intermediate values exposed as extra graph outputs, so one run shows every tensor a backend computed. The
 * values come in the graph's node order (ONNX requires nodes to be topologically sorted), and an exposed output
 * declares only its name: ONNX Runtime takes its type and shape from its own inference, so no type has to be guessed
 * here.
 */
@PublicApi
public final class Taps {
    private Taps() {
    }

    /**
     * One intermediate value.
     *
     * @param name the value's name
     * @param node the index of the node that produces it
     */
    public record Value(String name, int node) {
    }

    /** Every value a node produces, in node order, that is not a graph input or initializer. */
    public static List<Value> values(ModelProto m) {
        GraphProto g = m.getGraph();
        Set<String> fixed = new HashSet<>();
        g.getInputList().forEach(v -> fixed.add(v.getName()));
        g.getInitializerList().forEach(t -> fixed.add(t.getName()));
        List<Value> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < g.getNodeCount(); i++) {
            for (String o : g.getNode(i).getOutputList()) {
                if (!o.isEmpty() && !fixed.contains(o) && seen.add(o)) {
                    out.add(new Value(o, i));
                }
            }
        }
        return out;
    }

    /**
     * The model with {@code names} as extra outputs after its own (names already outputs are not repeated). The
     * returned list is the order of the new model's outputs.
     */
    public static Exposed expose(ModelProto m, List<String> names) {
        GraphProto.Builder g = m.getGraph().toBuilder();
        Set<String> outs = new LinkedHashSet<>();
        g.getOutputList().forEach(v -> outs.add(v.getName()));
        for (String n : names) {
            if (outs.add(n)) {
                g.addOutput(ValueInfoProto.newBuilder().setName(n));
            }
        }
        return new Exposed(m.toBuilder().setGraph(g).build(), List.copyOf(outs));
    }

    /**
     * A model with exposed values.
     *
     * @param model   the model
     * @param outputs its outputs in order: the original ones, then the exposed ones
     */
    public record Exposed(ModelProto model, List<String> outputs) {
    }

    /** Which node produces each value (by index). */
    public static Map<String, Integer> producers(GraphProto g) {
        Map<String, Integer> p = new HashMap<>();
        for (int i = 0; i < g.getNodeCount(); i++) {
            for (String o : g.getNode(i).getOutputList()) {
                if (!o.isEmpty()) {
                    p.put(o, i);
                }
            }
        }
        return p;
    }

    /** Which nodes read each value (by index, in order). */
    public static Map<String, List<Integer>> consumers(GraphProto g) {
        Map<String, List<Integer>> c = new HashMap<>();
        for (int i = 0; i < g.getNodeCount(); i++) {
            List<String> reads = new ArrayList<>(g.getNode(i).getInputList());
            reads.addAll(ControlFlow.outerReads(g.getNode(i))); // a body reading an outer value consumes it too
            for (String in : reads) {
                if (!in.isEmpty()) {
                    List<Integer> l = c.computeIfAbsent(in, k -> new ArrayList<>());
                    if (!l.contains(i)) {
                        l.add(i);
                    }
                }
            }
        }
        return c;
    }

    /** A node's name, or {@code OpType_index} when it has none. */
    public static String nodeName(GraphProto g, int i) {
        NodeProto n = g.getNode(i);
        return n.getName().isEmpty() ? n.getOpType() + "_" + i : n.getName();
    }

    /** The initializer of that name, or null. */
    public static TensorProto initializer(GraphProto g, String name) {
        for (TensorProto t : g.getInitializerList()) {
            if (t.getName().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
