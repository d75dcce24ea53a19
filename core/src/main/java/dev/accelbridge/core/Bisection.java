package dev.accelbridge.core;

import java.util.List;
import java.util.Map;

/**
 * Where a backend's outputs first leave the reference's: the result of bisecting a case over its graph's intermediate
 * tensors. Every intermediate value is exposed as an extra output and the same input runs on the reference (native
 * CPU) and on the backend; the first node in topological order whose outputs leave the tolerance, while every input
 * it has is still within it, is the node named here.
 *
 * @param outcome      whether a node was found (or the divergence starts as a quantize operator's one-step rounding)
 * @param node         the first diverging node's name (its op type and index when it has no name); the rounding node for ROUNDING; null otherwise
 * @param opType       its op type
 * @param attributes   its attributes, each as ONNX text ({@code pads=[1, 1, 1, 1]})
 * @param inputShapes  its inputs' shapes as the reference computed them ({@code x: float32[1,16,8,8]})
 * @param outputShapes its outputs' shapes
 * @param maxAbsErr    the largest absolute error at its outputs
 * @param tolerance    the absolute bound the outputs were judged by
 * @param against      what was compared with ({@code native-cpu})
 * @param backend      the backend bisected
 * @param path         the error along the path from this node to a model output, the node first
 * @param compared     how many intermediate tensors were compared
 * @param reproDir     the folder of the single-node repro (ONNX test-data layout), or null when none was written
 * @param note         what the user should know: why nothing was found, what the repro showed, what was skipped
 * @param nonFinite    the first intermediate, in node order among the values compared, that is non-finite on the backend
 *                     (an overflow inside the graph, which a finite output can hide); null when none was
 */
public record Bisection(Outcome outcome, String node, String opType, Map<String, String> attributes,
                        List<String> inputShapes, List<String> outputShapes, double maxAbsErr, double tolerance,
                        String against, BackendId backend, List<Step> path, int compared, String reproDir, String note,
                        NonFinite nonFinite) {

    /** A bisection with no non-finite intermediate seen. */
    public Bisection(Outcome outcome, String node, String opType, Map<String, String> attributes,
                     List<String> inputShapes, List<String> outputShapes, double maxAbsErr, double tolerance,
                     String against, BackendId backend, List<Step> path, int compared, String reproDir, String note) {
        this(outcome, node, opType, attributes, inputShapes, outputShapes, maxAbsErr, tolerance, against, backend, path, compared,
                reproDir, note, null);
    }

    /**
     * The first intermediate value that is non-finite on the backend.
     *
     * @param node        the node that computed it
     * @param opType      its op type
     * @param value       the value's name
     * @param count       its non-finite elements on the backend
     * @param elements    its elements
     * @param onReference its non-finite elements on the reference (0: the reference computed it finite)
     */
    public record NonFinite(String node, String opType, String value, long count, long elements, long onReference) {
        /**
         * The first non-finite of a value, reference {@code ref} against backend {@code got} (float tensors only), or null
         * when the backend's is finite or not a float.
         */
        public static NonFinite of(String node, String opType, NamedTensor ref, NamedTensor got) {
            if (!got.dtype().isFloat()) {
                return null;
            }
            long n = count(got);
            return n == 0 ? null : new NonFinite(node, opType, got.name(), n, got.size(),
                    ref != null && ref.dtype().isFloat() ? count(ref) : 0);
        }

        private static long count(NamedTensor t) {
            java.nio.ByteBuffer b = t.buffer();
            long n = 0;
            for (int i = 0; i < t.size(); i++) {
                n += Double.isFinite(NamedTensor.valueAt(b, t.dtype(), i)) ? 0 : 1;
            }
            return n;
        }

        /** "the first non-finite intermediate: 'pow' (Pow), 64 of 64 elements on wasm, finite on the reference". */
        public String describe(BackendId backend) {
            return "the first non-finite intermediate: '" + node + "' (" + opType + ")" + (value.equals(node) ? "" : " output '" + value + "'")
                    + ", " + count + " of " + elements + " elements on " + backend + (onReference == 0 ? ", finite on the reference"
                    : ", " + onReference + " on the reference too (the graph overflows at these inputs)");
        }
    }

    /** What a bisection found. */
    public enum Outcome {
        /** A first diverging node was found. */
        FOUND,
        /** Every intermediate stayed within tolerance (e.g. the divergence lives in a fused kernel that exposing splits). */
        NOT_LOCALIZED,
        /** The bisection itself could not run (the tapped model did not load or run); the note says why. */
        FAILED,
        /**
         * The divergence starts as one-step rounding of a quantize operator's integer output (the node named), which every
         * later value outside tolerance is computed from: not a defect of the backend, and said so apart from FOUND.
         */
        ROUNDING,
        /**
         * Not bisected: the run's bisections had taken their budget ({@code --bisect-budget}); the note gives the command
         * that bisects it. Unknown, never "not localized".
         */
        DEFERRED
    }

    /**
     * One node on the way from the first diverging node to a model output.
     *
     * @param node      the node's name
     * @param opType    its op type
     * @param maxAbsErr the largest absolute error at its outputs
     */
    public record Step(String node, String opType, double maxAbsErr) {
    }

    public Bisection {
        attributes = attributes == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(attributes));
        inputShapes = inputShapes == null ? List.of() : List.copyOf(inputShapes);
        outputShapes = outputShapes == null ? List.of() : List.copyOf(outputShapes);
        path = path == null ? List.of() : List.copyOf(path);
    }

    /** A bisection that found nothing or could not run, with why. */
    public static Bisection without(Outcome outcome, BackendId backend, String against, double tolerance, int compared,
                                    String note) {
        return new Bisection(outcome, null, null, Map.of(), List.of(), List.of(), Double.NaN, tolerance, against, backend,
                List.of(), compared, null, note);
    }

    /** The same bisection with its repro folder and a note added. */
    public Bisection withRepro(String dir, String addNote) {
        String n = addNote == null ? note : note == null ? addNote : note + "; " + addNote;
        return new Bisection(outcome, node, opType, attributes, inputShapes, outputShapes, maxAbsErr, tolerance, against,
                backend, path, compared, dir, n, nonFinite);
    }

    /** The same bisection with the first non-finite intermediate it saw (null: none). */
    public Bisection withNonFinite(NonFinite nf) {
        return new Bisection(outcome, node, opType, attributes, inputShapes, outputShapes, maxAbsErr, tolerance, against,
                backend, path, compared, reproDir, note, nf);
    }

    /**
     * One line: {@code first diverging node 'pool' (AveragePool), max abs err 0.5 > 1e-4 on webnn-cpu}, and the first
     * non-finite intermediate where one was seen.
     */
    public String describe() {
        return nonFinite == null ? finding() : finding() + "; " + nonFinite.describe(backend);
    }

    private String finding() {
        if (outcome == Outcome.ROUNDING) {
            return String.format(java.util.Locale.ROOT, "divergence starts as one-step rounding at '%s' (%s) on %s%s", node, opType,
                    backend, note == null ? "" : ": " + note);
        }
        if (outcome != Outcome.FOUND) {
            return "bisection on " + backend + ": " + (outcome == Outcome.NOT_LOCALIZED ? "not localized" : outcome == Outcome.DEFERRED
                    ? "not run" : "failed")
                    + (note == null ? "" : " (" + note + ")");
        }
        return String.format(java.util.Locale.ROOT, "first diverging node '%s' (%s) on %s: max abs err %.3g (tolerance %.3g)",
                node, opType, backend, maxAbsErr, tolerance);
    }
}
