package dev.accelbridge.suites.surgery;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
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
 * Control flow ({@code If}, {@code Loop}, {@code Scan}) for bisection. ONNX lets a subgraph read values of the scopes
 * around it without naming them as inputs ({@link #outerReads}); a repro of such a node must carry them. And the values
 * inside a body are not outputs of the model; for an {@code If} whose condition is known for this input, the taken
 * branch is {@link #inlineIfs inlined} into the graph, so its values are exposed like any other and a divergence inside it
 * is named at its own node. Loop and Scan bodies are not unrolled: such a node is named as a whole.
 */
@PublicApi
public final class ControlFlow {
    /** Ops whose attributes hold subgraphs. */
    public static final Set<String> OPS = Set.of("If", "Loop", "Scan");

    private ControlFlow() {
    }

    /** Whether the graph holds a control-flow node at its top level. */
    public static boolean has(GraphProto g) {
        return g.getNodeList().stream().anyMatch(n -> OPS.contains(n.getOpType()));
    }

    /**
     * The values a node's subgraphs read from the scopes around them (in first-read order): every name a body node
     * reads that the body (or a body nested in it) neither defines as an input, an initializer or a node output.
     */
    public static List<String> outerReads(NodeProto n) {
        Set<String> out = new LinkedHashSet<>();
        for (AttributeProto a : n.getAttributeList()) {
            if (a.hasG()) {
                freeIn(a.getG(), Set.of(), out);
            }
            for (GraphProto g : a.getGraphsList()) {
                freeIn(g, Set.of(), out);
            }
        }
        return new ArrayList<>(out);
    }

    private static void freeIn(GraphProto g, Set<String> enclosing, Set<String> out) {
        Set<String> defined = new HashSet<>(enclosing);
        g.getInputList().forEach(v -> defined.add(v.getName()));
        g.getInitializerList().forEach(t -> defined.add(t.getName()));
        for (NodeProto n : g.getNodeList()) {
            for (String in : n.getInputList()) {
                if (!in.isEmpty() && !defined.contains(in)) {
                    out.add(in);
                }
            }
            for (AttributeProto a : n.getAttributeList()) {
                List<GraphProto> subs = new ArrayList<>(a.getGraphsList());
                if (a.hasG()) {
                    subs.add(a.getG());
                }
                for (GraphProto s : subs) {
                    Set<String> inner = new LinkedHashSet<>();
                    freeIn(s, defined, inner);
                    out.addAll(inner);
                }
            }
            n.getOutputList().forEach(defined::add);
        }
    }

    /** The names of the conditions of the top-level {@code If} nodes, in node order. */
    public static List<String> ifConditions(GraphProto g) {
        List<String> out = new ArrayList<>();
        for (NodeProto n : g.getNodeList()) {
            if (n.getOpType().equals("If") && n.getInputCount() > 0) {
                out.add(n.getInput(0));
            }
        }
        return out;
    }

    /**
     * The model with every top-level {@code If} whose condition {@code known} holds replaced by its taken branch: the
     * branch's nodes in its place (their values renamed {@code <if node>/<branch>/<name>} so they cannot clash), its
     * initializers moved to the graph, and an {@code Identity} from each branch output to the {@code If}'s output of the
     * same position, so every consumer still reads what it read. Ifs whose condition is unknown stay.
     */
    public static ModelProto inlineIfs(ModelProto m, Map<String, Boolean> known) {
        GraphProto g = m.getGraph();
        GraphProto.Builder out = g.toBuilder().clearNode();
        for (int i = 0; i < g.getNodeCount(); i++) {
            NodeProto n = g.getNode(i);
            Boolean cond = n.getOpType().equals("If") && n.getInputCount() > 0 ? known.get(n.getInput(0)) : null;
            if (cond == null) {
                out.addNode(n);
                continue;
            }
            String branchName = cond ? "then_branch" : "else_branch";
            GraphProto branch = null;
            for (AttributeProto a : n.getAttributeList()) {
                if (a.getName().equals(branchName) && a.hasG()) {
                    branch = a.getG();
                }
            }
            if (branch == null || branch.getOutputCount() != n.getOutputCount()) {
                out.addNode(n); // malformed: leave it to the runtime to say so
                continue;
            }
            String prefix = Taps.nodeName(g, i) + "/" + (cond ? "then" : "else") + "/";
            Map<String, String> rename = new HashMap<>();
            branch.getInitializerList().forEach(t -> rename.put(t.getName(), prefix + t.getName()));
            branch.getNodeList().forEach(bn -> bn.getOutputList().forEach(o -> {
                if (!o.isEmpty()) {
                    rename.put(o, prefix + o);
                }
            }));
            for (TensorProto t : branch.getInitializerList()) {
                out.addInitializer(t.toBuilder().setName(rename.get(t.getName())));
            }
            int k = 0;
            for (NodeProto bn : branch.getNodeList()) {
                NodeProto.Builder nb = renamed(bn, rename).toBuilder();
                nb.setName(prefix + (bn.getName().isEmpty() ? bn.getOpType() + "_" + k : bn.getName()));
                out.addNode(nb);
                k++;
            }
            for (int o = 0; o < n.getOutputCount(); o++) {
                if (n.getOutput(o).isEmpty()) {
                    continue;
                }
                String from = branch.getOutput(o).getName();
                out.addNode(NodeProto.newBuilder().setOpType("Identity").setName(prefix + "output_" + o)
                        .addInput(rename.getOrDefault(from, from)).addOutput(n.getOutput(o)));
            }
        }
        return m.toBuilder().setGraph(withoutUnread(out.build())).build();
    }

    /**
     * {@code g} without the initializers nothing reads any more (the branch not taken held the only reads of its weights):
     * ONNX Runtime would drop each with a warning line of its own.
     */
    private static GraphProto withoutUnread(GraphProto g) {
        Set<String> read = new HashSet<>();
        for (NodeProto n : g.getNodeList()) {
            read.addAll(n.getInputList());
            read.addAll(outerReads(n));
        }
        g.getOutputList().forEach(v -> read.add(v.getName()));
        g.getInputList().forEach(v -> read.add(v.getName())); // an initializer that gives an input its default stays
        GraphProto.Builder b = g.toBuilder().clearInitializer();
        g.getInitializerList().stream().filter(t -> read.contains(t.getName())).forEach(b::addInitializer);
        return b.build();
    }

    /** A node with its inputs and outputs renamed, and the free values its own subgraphs read renamed alike. */
    private static NodeProto renamed(NodeProto n, Map<String, String> rename) {
        NodeProto.Builder b = n.toBuilder().clearInput().clearOutput();
        n.getInputList().forEach(in -> b.addInput(rename.getOrDefault(in, in)));
        n.getOutputList().forEach(o -> b.addOutput(rename.getOrDefault(o, o)));
        for (int a = 0; a < b.getAttributeCount(); a++) {
            AttributeProto at = b.getAttribute(a);
            if (at.hasG()) {
                b.setAttribute(a, at.toBuilder().setG(renamedFree(at.getG(), rename)));
            }
            if (at.getGraphsCount() > 0) {
                AttributeProto.Builder ab = at.toBuilder().clearGraphs();
                at.getGraphsList().forEach(s -> ab.addGraphs(renamedFree(s, rename)));
                b.setAttribute(a, ab);
            }
        }
        return b.build();
    }

    /** A nested subgraph whose reads of renamed outer values follow the renaming (its own names are left alone). */
    private static GraphProto renamedFree(GraphProto g, Map<String, String> rename) {
        Set<String> own = new HashSet<>();
        g.getInputList().forEach(v -> own.add(v.getName()));
        g.getInitializerList().forEach(t -> own.add(t.getName()));
        g.getNodeList().forEach(n -> own.addAll(n.getOutputList()));
        Map<String, String> outer = new HashMap<>(rename);
        own.forEach(outer::remove);
        GraphProto.Builder b = g.toBuilder().clearNode();
        g.getNodeList().forEach(n -> b.addNode(renamed(n, outer)));
        for (int i = 0; i < b.getOutputCount(); i++) {
            ValueInfoProto v = b.getOutput(i);
            if (outer.containsKey(v.getName())) {
                b.setOutput(i, v.toBuilder().setName(outer.get(v.getName())));
            }
        }
        return b.build();
    }
}
