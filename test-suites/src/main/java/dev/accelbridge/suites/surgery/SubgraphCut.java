package dev.accelbridge.suites.surgery;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TypeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Some nodes of a model cut out as a model of their own, for a repro of what a runtime does to a pattern of nodes (a
 * graph optimizer's): the nodes keep their order; a value they read that another node computed becomes a graph input,
 * typed as the runtime inferred it; initializers stay initializers, and a {@code Constant} node feeding them comes along;
 * the values they compute that no node of theirs reads become the outputs.
 */
@PublicApi
public final class SubgraphCut {
    private SubgraphCut() {
    }

    /**
     * The nodes {@code around} reaches from node {@code anchor}: up to {@code up} steps towards the graph's inputs (the nodes
     * computing what it reads) and {@code down} steps towards its outputs, the anchor included.
     */
    public static Set<Integer> around(GraphProto g, int anchor, int up, int down) {
        Map<String, Integer> producers = Taps.producers(g);
        Map<String, List<Integer>> consumers = Taps.consumers(g);
        Set<Integer> out = new TreeSet<>(List.of(anchor));
        Set<Integer> frontier = Set.of(anchor);
        for (int i = 0; i < up; i++) {
            Set<Integer> next = new LinkedHashSet<>();
            for (int n : frontier) {
                for (String in : g.getNode(n).getInputList()) {
                    Integer p = producers.get(in);
                    if (p != null && out.add(p)) {
                        next.add(p);
                    }
                }
            }
            frontier = next;
        }
        frontier = Set.of(anchor);
        for (int i = 0; i < down; i++) {
            Set<Integer> next = new LinkedHashSet<>();
            for (int n : frontier) {
                for (String o : g.getNode(n).getOutputList()) {
                    for (int c : consumers.getOrDefault(o, List.of())) {
                        if (out.add(c)) {
                            next.add(c);
                        }
                    }
                }
            }
            frontier = next;
        }
        return out;
    }

    /**
     * The model of {@code nodes} (indices into {@code source}'s graph); {@code types} gives each value's type as the runtime
     * inferred it (a graph input or output without one is declared by name alone).
     */
    public static ModelProto cut(ModelProto source, Collection<Integer> nodes, Map<String, TypeProto> types, String doc) {
        GraphProto g = source.getGraph();
        Map<String, Integer> producers = Taps.producers(g);
        Set<Integer> chosen = new TreeSet<>(nodes);
        // a Constant feeding the pattern is part of it: some transformers match only constant operands
        for (int n : List.copyOf(chosen)) {
            for (String in : g.getNode(n).getInputList()) {
                Integer p = producers.get(in);
                if (p != null && g.getNode(p).getOpType().equals("Constant")) {
                    chosen.add(p);
                }
            }
        }
        Set<String> made = new LinkedHashSet<>();
        List<String> reads = new ArrayList<>();
        for (int n : chosen) {
            NodeProto node = g.getNode(n);
            reads.addAll(node.getInputList());
            reads.addAll(ControlFlow.outerReads(node));
            made.addAll(node.getOutputList());
        }
        GraphProto.Builder out = GraphProto.newBuilder().setName("repro");
        Set<String> done = new LinkedHashSet<>();
        for (String in : reads) {
            if (in.isEmpty() || made.contains(in) || !done.add(in)) {
                continue;
            }
            TensorProto init = Taps.initializer(g, in);
            if (init != null) {
                out.addInitializer(init);
            } else {
                out.addInput(declared(in, types));
            }
        }
        Set<String> readInside = new LinkedHashSet<>(reads);
        Set<String> graphOutputs = new LinkedHashSet<>();
        g.getOutputList().forEach(v -> graphOutputs.add(v.getName()));
        for (String o : made) {
            if (!o.isEmpty() && (!readInside.contains(o) || graphOutputs.contains(o))) {
                out.addOutput(declared(o, types));
            }
        }
        chosen.forEach(n -> out.addNode(g.getNode(n)));
        return ModelProto.newBuilder().setIrVersion(source.getIrVersion()).addAllOpsetImport(source.getOpsetImportList())
                .setProducerName("accelbridge load diagnosis").setDocString(doc).setGraph(out).build();
    }

    private static ValueInfoProto declared(String name, Map<String, TypeProto> types) {
        ValueInfoProto.Builder v = ValueInfoProto.newBuilder().setName(name);
        TypeProto t = types.get(name);
        return (t == null ? v : v.setType(t)).build();
    }
}
