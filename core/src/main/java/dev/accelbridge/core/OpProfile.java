package dev.accelbridge.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a case's run time goes, op by op, from the runtime's own profiler on iterations separate from the timed ones
 * (onnxruntime-web's session profiler for wasm and WebNN, WebGPU timestamp queries for webgpu, ONNX Runtime's profiler
 * natively). Times are per iteration (the mean over the profiled iterations).
 *
 * @param source           which profiler measured it
 * @param iterations       how many profiled iterations it averages
 * @param totalMs          the sum of every node's time per iteration (each node's median event × its events per iteration)
 * @param profiledP50Ms    the p50 of the profiled iterations' own wall time (profiling's overhead shows against the timed
 *                         p50), NaN when not measured
 * @param ops              time per op type, largest first
 * @param topNodes         the slowest nodes, largest first (at most {@link #TOP_NODES})
 * @param requestedProvider the execution provider asked for, as the runtime names it
 * @param nodesOffProvider nodes that ran on another provider than the one asked for ({@code name (OpType) on CPUExecutionProvider})
 * @param memcpy           Memcpy/transfer nodes per iteration
 * @param note             what the profiler cannot see (e.g. a WebNN partition is one opaque node)
 */
public record OpProfile(String source, int iterations, double totalMs, double profiledP50Ms, List<OpTime> ops,
                        List<NodeTime> topNodes, String requestedProvider, List<String> nodesOffProvider, int memcpy,
                        String note) {
    /** How many of the slowest nodes are kept. */
    public static final int TOP_NODES = 10;

    /** One op type's time per iteration, its share of the total, and how many nodes of it ran. */
    public record OpTime(String opType, double ms, double share, int nodes) {
    }

    /** One node's time per iteration, its share, and its provider. */
    public record NodeTime(String node, String opType, String provider, double ms, double share) {
    }

    /**
     * One timed node execution as a profiler reports it.
     *
     * @param node     node name
     * @param opType   op type (ORT's {@code op_name}, the fused one where ORT fused)
     * @param provider the execution provider that ran it
     * @param ms       its duration
     * @param startUs  when it started on the profiler's clock (µs), NaN when not known
     */
    public record NodeEvent(String node, String opType, String provider, double ms, double startUs) {
        /** An event whose start is not known. */
        public NodeEvent(String node, String opType, String provider, double ms) {
            this(node, opType, provider, ms, Double.NaN);
        }
    }

    public OpProfile {
        ops = List.copyOf(ops);
        topNodes = List.copyOf(topNodes);
        nodesOffProvider = List.copyOf(nodesOffProvider);
    }

    /**
     * Aggregates a profiler's node events over {@code iterations} runs: the one place that turns any runtime's events
     * into per-op and per-node times, placement and copies.
     */
    public static OpProfile of(String source, int iterations, List<NodeEvent> events, String requestedProvider,
                               double profiledP50Ms, String note) {
        int n = Math.max(1, iterations);
        Map<String, NodeEvent> byNode = new LinkedHashMap<>();
        Map<String, List<Double>> nodeTimes = new LinkedHashMap<>();
        for (NodeEvent e : events) {
            byNode.putIfAbsent(e.node(), e);
            nodeTimes.computeIfAbsent(e.node(), k -> new ArrayList<>()).add(e.ms());
        }
        // A node's time per iteration is its median event × its events per iteration: one preempted event in a few
        // profiled iterations must not make its op look like the model's hot spot (a mean did: MaxPool "93 %").
        Map<String, Double> nodeMs = new LinkedHashMap<>();
        nodeTimes.forEach((node, ts) -> {
            double[] sorted = ts.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int k = sorted.length;
            double median = k % 2 == 1 ? sorted[k / 2] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2;
            nodeMs.put(node, median * k / n);
        });
        Map<String, double[]> byOp = new LinkedHashMap<>();
        Map<String, Integer> nodesOfOp = new LinkedHashMap<>();
        double perIter = 0;
        for (Map.Entry<String, Double> e : nodeMs.entrySet()) {
            String op = byNode.get(e.getKey()).opType();
            perIter += e.getValue();
            byOp.computeIfAbsent(op, k -> new double[1])[0] += e.getValue();
            nodesOfOp.merge(op, 1, Integer::sum);
        }
        List<OpTime> ops = new ArrayList<>();
        for (Map.Entry<String, double[]> o : byOp.entrySet()) {
            double ms = o.getValue()[0];
            ops.add(new OpTime(o.getKey(), ms, perIter > 0 ? ms / perIter : 0, nodesOfOp.getOrDefault(o.getKey(), 0)));
        }
        ops.sort(Comparator.comparingDouble(OpTime::ms).reversed());
        List<NodeTime> nodes = new ArrayList<>();
        for (Map.Entry<String, Double> e : nodeMs.entrySet()) {
            NodeEvent first = byNode.get(e.getKey());
            double ms = e.getValue();
            nodes.add(new NodeTime(e.getKey(), first.opType(), first.provider(), ms, perIter > 0 ? ms / perIter : 0));
        }
        nodes.sort(Comparator.comparingDouble(NodeTime::ms).reversed());
        List<String> off = new ArrayList<>();
        int memcpy = 0;
        for (NodeEvent e : byNode.values()) {
            if (e.opType() != null && e.opType().startsWith("Memcpy")) {
                memcpy++;
            } else if (requestedProvider != null && e.provider() != null && !e.provider().equals(requestedProvider)) {
                off.add(e.node() + " (" + e.opType() + ") on " + e.provider());
            }
        }
        return new OpProfile(source, iterations, perIter, profiledP50Ms, ops, nodes.subList(0, Math.min(TOP_NODES, nodes.size())),
                requestedProvider, off, memcpy, note);
    }

    /**
     * The events that started after {@code firstRunEndUs}, on the profiler's own clock: a profiler traces a session
     * from its creation, and the first (untimed) run's allocation and compilation must not count as steady-state op
     * time. Where the first run's end is unknown (NaN), every event is kept.
     */
    public static List<NodeEvent> afterFirstRun(List<NodeEvent> events, double firstRunEndUs) {
        if (Double.isNaN(firstRunEndUs)) {
            return events;
        }
        return events.stream().filter(e -> !(e.startUs() < firstRunEndUs)).toList();
    }

    /** One line: the three largest op types and their shares. */
    public String describe() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%.3f ms/iteration in ops (%s, %d iterations)",
                totalMs, source, iterations));
        for (int i = 0; i < Math.min(3, ops.size()); i++) {
            OpTime o = ops.get(i);
            b.append(i == 0 ? ": " : ", ").append(String.format(Locale.ROOT, "%s %.0f%%", o.opType(), o.share() * 100));
        }
        if (!nodesOffProvider.isEmpty()) {
            b.append("; ").append(nodesOffProvider.size()).append(" nodes off ").append(requestedProvider);
        }
        if (memcpy > 0) {
            b.append("; ").append(memcpy).append(" Memcpy nodes");
        }
        return b.toString();
    }
}
