package dev.accelbridge.core;

import java.util.List;

/**
 * Where a case's nodes ran inside its session: on the execution provider asked for, or (some of them) on the CPU
 * execution provider the runtime falls back to. A session can pass while a node it could not place ran on the CPU;
 * such a pass is not a pass of the backend asked for, and the op table labels it "placed on CPU".
 *
 * @param requested   the execution provider asked for, as the runtime names it ({@code JsExecutionProvider})
 * @param onRequested whether every node ran on {@code requested}
 * @param offNodes    the nodes that ran elsewhere ({@code node (OpType) on CPUExecutionProvider}) where the evidence
 *                    names them; empty when it does not (a session refused with CPU fallback disabled says only that
 *                    some node would have run on the CPU)
 * @param basis       how it was established, with the runtime's own words where it gave any
 */
public record Placement(String requested, boolean onRequested, List<String> offNodes, String basis) {
    /** The CPU execution provider, as ONNX Runtime names it. */
    public static final String CPU_EP = "CPUExecutionProvider";

    public Placement {
        offNodes = offNodes == null ? List.of() : List.copyOf(offNodes);
    }

    /** Every node on the provider asked for. */
    public static Placement onRequested(String requested, String basis) {
        return new Placement(requested, true, List.of(), basis);
    }

    /** Some node (named in {@code offNodes} when known) on the CPU instead of {@code requested}. */
    public static Placement onCpu(String requested, List<String> offNodes, String basis) {
        return new Placement(requested, false, offNodes, basis);
    }

    /**
     * This session's placement joined with another session's of the same case ({@code name}: "the encoder"): on the
     * provider asked for only where both are; unknown (null) where the other's is.
     */
    public Placement and(Placement other, String name) {
        if (other == null) {
            return null;
        }
        List<String> off = new java.util.ArrayList<>(offNodes);
        other.offNodes.forEach(n -> off.add(name + ": " + n));
        return new Placement(requested, onRequested && other.onRequested, off, basis + "; " + name + ": " + other.basis);
    }

    /** The nodes off the provider asked for, by op type, most first: "MatMulInteger x36, DynamicQuantizeLinear x24"; "" when none is named. */
    public String offByType() {
        return byType(offNodes);
    }

    /** Nodes named {@code OpType (name)}, counted by op type, most first: "MatMulInteger x36, DynamicQuantizeLinear x24". */
    public static String byType(List<String> nodes) {
        java.util.Map<String, Long> byType = nodes.stream().collect(java.util.stream.Collectors.groupingBy(n -> {
            int paren = n.indexOf(" (");
            return paren > 0 ? n.substring(0, paren) : n;
        }, java.util.LinkedHashMap::new, java.util.stream.Collectors.counting()));
        return byType.entrySet().stream().sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + " x" + e.getValue()).collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * The provider the case's work ran on: {@code requested}, or {@code requested} and the CPU EP with how many of its nodes
     * the evidence named there, or that which nodes is unknown (found when tried: a WebNN cell whose strict-placement session
     * was refused said it ran on the CPU EP, though most of its nodes may have run on WebNN).
     */
    public String ranOn() {
        if (onRequested) {
            return requested;
        }
        return requested + " and " + CPU_EP + (offNodes.isEmpty() ? " (which nodes: unknown)" : " (" + offNodes.size() + " node"
                + (offNodes.size() == 1 ? "" : "s") + " there)");
    }
}
