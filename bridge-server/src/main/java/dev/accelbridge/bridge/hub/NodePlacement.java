package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.protocol.Loaded;
import dev.accelbridge.bridge.protocol.PageMessages;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where each node of a session went, as ONNX Runtime's own "Node placements" log said it in the page (page/placement.mjs):
 * per execution provider, how many nodes and their names ({@code MatMulInteger (/encoder/layer.0/mm)}). The page's text is
 * untrusted: at most {@link #MAX_PROVIDERS} providers and {@link #MAX_NODES} names each are read, each name one bounded line.
 *
 * @param counts each provider's node count, as the log gave it
 * @param nodes  each provider's node names ({@code OpType (name)}), empty where the log named none (every node on one EP)
 */
@PublicApi
public record NodePlacement(Map<String, Integer> counts, Map<String, List<String>> nodes) {
    /** The most providers read from a page's answer. */
    static final int MAX_PROVIDERS = 16;
    /** The most node names read per provider. */
    static final int MAX_NODES = 500;

    public NodePlacement {
        counts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        Map<String, List<String>> copy = new LinkedHashMap<>();
        nodes.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        nodes = java.util.Collections.unmodifiableMap(copy);
    }

    /** The page's {@code placement.nodes} as JSON, or null when absent or not an object. */
    public static NodePlacement of(com.fasterxml.jackson.databind.JsonNode n) {
        return n == null || !n.isObject() ? null : of(PageMessages.readPart(n,
                new com.fasterxml.jackson.core.type.TypeReference<Map<String, Loaded.PlacedNodes>>() { }));
    }

    /** The page's {@code placement.nodes} ({@code {EP: {count, nodes: [...]}}}), or null when absent. */
    public static NodePlacement of(Map<String, Loaded.PlacedNodes> n) {
        if (n == null) {
            return null;
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        Map<String, List<String>> nodes = new LinkedHashMap<>();
        var it = n.entrySet().iterator();
        while (it.hasNext() && counts.size() < MAX_PROVIDERS) {
            var e = it.next();
            String ep = Untrusted.reason(e.getKey());
            Loaded.PlacedNodes placed = e.getValue() == null ? new Loaded.PlacedNodes(null, null) : e.getValue();
            counts.put(ep, Math.max(0, placed.count() == null ? 0 : placed.count()));
            List<String> names = new ArrayList<>();
            for (String x : placed.nodes() == null ? List.<String>of() : placed.nodes()) {
                if (names.size() < MAX_NODES && x != null) {
                    names.add(Untrusted.reason(x));
                }
            }
            nodes.put(ep, names);
        }
        return counts.isEmpty() ? null : new NodePlacement(counts, nodes);
    }

    /** The nodes the log named on {@code provider}, each {@code OpType (name)}; empty when none or unnamed. */
    public List<String> nodesOn(String provider) {
        return nodes.getOrDefault(provider, List.of());
    }

    /** "ONNX Runtime's node placements: 12 of 162 nodes on CPUExecutionProvider (DynamicQuantizeLinear x6, MatMulInteger x6)". */
    public String describe() {
        int total = counts.values().stream().mapToInt(Integer::intValue).sum();
        String parts = counts.entrySet().stream().map(e -> e.getValue() + " of " + total + " nodes on " + e.getKey()
                + opTypes(nodesOn(e.getKey()))).collect(Collectors.joining(", "));
        return "ONNX Runtime's node placements: " + parts;
    }

    /** " (DynamicQuantizeLinear x6, MatMulInteger x6)": the op types of the named nodes, most frequent first. */
    private static String opTypes(List<String> named) {
        return named.isEmpty() ? "" : " (" + Placement.byType(named) + ")";
    }
}
