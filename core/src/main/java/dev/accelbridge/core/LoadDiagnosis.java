package dev.accelbridge.core;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a runtime refused to load a model, as bisection says where a wrong output starts: the session was made again at
 * each lower graph-optimization level ({@link RuntimeOption#OPTIMIZATION}'s values, most optimization first) until one
 * loaded. A model that loads with less optimization is not the model's defect but an optimizer's, which makes a graph
 * the runtime then rejects; the optimizer is named where the runtime's message names the node it made
 * ({@code in node (ln_scale/Mul_7/LayerNormFusion/)}: LayerNormFusion, made from {@code ln_scale/Mul_7}). One rule for
 * both sides, native ONNX Runtime and onnxruntime-web in the page.
 *
 * @param runtime      the runtime that refused it ({@code ONNX Runtime 1.29.0}, {@code onnxruntime-web 1.30.0})
 * @param failsAt      the levels it failed at, in the order tried
 * @param loadsAt      the level that loaded it
 * @param optimizer    the graph transformer the rejected node's name gives, or null when it names none
 * @param rejectedFrom the original node the transformer made the rejected node from, or null when not named
 * @param repro        a single-graph repro of the transformer's pattern that fails alone, or null when none was made
 */
@PublicApi
public record LoadDiagnosis(String runtime, List<String> failsAt, String loadsAt, String optimizer, String rejectedFrom, Repro repro) {
    /** A transformer's name in the name of a node it made: {@code (ln_scale/Mul_7/LayerNormFusion/)}. */
    private static final Pattern MADE = Pattern.compile(
            "\\(([^()]{1,300}?)/([A-Z][A-Za-z0-9]{2,60}(?:Fusion|Transformer|Elimination|Folding|Rewriter))/\\)");

    public LoadDiagnosis {
        failsAt = List.copyOf(failsAt);
        runtime = Untrusted.reason(runtime);
    }

    /**
     * A single-graph repro: the nodes of the model around the rejected one, cut out as a model of their own, which the
     * runtime refuses alone at the level that failed and loads at the level that loaded.
     *
     * @param model the repro's ONNX bytes
     * @param nodes how many nodes it holds
     */
    public record Repro(byte[] model, int nodes) {
        public Repro {
            model = model.clone();
        }

        @Override
        public byte[] model() {
            return model.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Repro r && r.nodes == nodes && java.util.Arrays.equals(r.model, model);
        }

        @Override
        public int hashCode() {
            return 31 * java.util.Arrays.hashCode(model) + nodes;
        }

        @Override
        public String toString() {
            return "Repro[" + nodes + " nodes, " + model.length + " bytes]";
        }
    }

    /** The levels below {@code level}, in the order a diagnosis tries them; empty for an unknown level or the lowest. */
    public static List<String> below(String level) {
        List<String> all = RuntimeOption.OPTIMIZATION.choices();
        int i = all.indexOf(level);
        return i < 0 ? List.of() : new ArrayList<>(all.subList(i + 1, all.size()));
    }

    /** The diagnosis of a model that failed at {@code failsAt} with {@code message} and loaded at {@code loadsAt}. */
    public static LoadDiagnosis of(String runtime, List<String> failsAt, String loadsAt, String message) {
        Matcher m = MADE.matcher(message == null ? "" : message);
        return m.find() ? new LoadDiagnosis(runtime, failsAt, loadsAt, m.group(2), m.group(1), null)
                : new LoadDiagnosis(runtime, failsAt, loadsAt, null, null, null);
    }

    /** The same with its repro. */
    public LoadDiagnosis withRepro(Repro r) {
        return new LoadDiagnosis(runtime, failsAt, loadsAt, optimizer, rejectedFrom, r);
    }

    /**
     * "fails to load with optimization=all, extended, basic and loads with optimization=disabled: LayerNormFusion (the
     * optimizer the rejected node's name gives) makes a graph ONNX Runtime then rejects, a defect of ONNX Runtime's, not of
     * the model".
     */
    public String sentence() {
        return "fails to load with optimization=" + String.join(", ", failsAt) + " and loads with optimization=" + loadsAt + ": "
                + (optimizer != null ? optimizer + " (the optimizer the rejected node's name gives)" : "a graph optimizer of that level")
                + " makes a graph " + runtime + " then rejects, a defect of " + runtime + "'s, not of the model";
    }

    /** The fix: the session option that loads it. */
    public String fix() {
        return "run it with --runtime-option optimization=" + loadsAt + ", and report the optimizer's defect to " + runtime
                + (repro == null ? "" : " with the repro");
    }
}
