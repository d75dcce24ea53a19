package dev.accelbridge.nativerunner;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why ONNX Runtime refused to load a model, as bisection says where a wrong output starts: the session is made again at
 * each lower graph-optimization level, on the CPU, until one loads. A model that loads with less optimization is not the
 * model's defect but an optimizer's, which makes a graph ONNX Runtime then rejects; the optimizer is named where
 * ONNX Runtime's message names the node it made ({@code ln_scale/Mul_7/LayerNormFusion/}). It is named, not confirmed
 * alone: measured on ONNX Runtime 1.29 through its C API (Java), {@code optimization.disable_specified_optimizers} left
 * such a load failing whatever transformer it named, so no single optimizer can be switched off to prove it.
 */
final class LoadDiagnostician {
    /** The levels, from the most optimization down, by their session-option names. */
    static final Map<String, OrtSession.SessionOptions.OptLevel> LEVELS = levels();
    /** A graph transformer's name as ONNX Runtime puts it into the names of the nodes it makes. */
    private static final Pattern TRANSFORMER = Pattern.compile("/([A-Z][A-Za-z0-9]{2,60}(?:Fusion|Transformer|Elimination|Folding|Rewriter))/");

    private LoadDiagnostician() {
    }

    private static Map<String, OrtSession.SessionOptions.OptLevel> levels() {
        Map<String, OrtSession.SessionOptions.OptLevel> m = new LinkedHashMap<>();
        m.put("all", OrtSession.SessionOptions.OptLevel.ALL_OPT);
        m.put("extended", OrtSession.SessionOptions.OptLevel.EXTENDED_OPT);
        m.put("basic", OrtSession.SessionOptions.OptLevel.BASIC_OPT);
        m.put("disabled", OrtSession.SessionOptions.OptLevel.NO_OPT);
        return m;
    }

    /**
     * The diagnosis of a model that failed to load at {@code failedLevel} with {@code message}: empty when it fails at every
     * level below too (then the optimizer is not the cause, and the message stands alone).
     */
    static Optional<Diagnosis> diagnose(Path model, String failedLevel, String message) {
        List<String> failing = new ArrayList<>(List.of(failedLevel));
        String loads = null;
        boolean below = false;
        for (Map.Entry<String, OrtSession.SessionOptions.OptLevel> l : LEVELS.entrySet()) {
            if (l.getKey().equals(failedLevel)) {
                below = true;
            } else if (below) {
                if (loadsAt(model, l.getValue())) {
                    loads = l.getKey();
                    break;
                }
                failing.add(l.getKey());
            }
        }
        if (loads == null) {
            return Optional.empty();
        }
        Matcher m = TRANSFORMER.matcher(message);
        String named = m.find() ? m.group(1) : null;
        return Optional.of(new Diagnosis("fails to load with optimization=" + String.join(", ", failing) + " and loads with optimization="
                + loads + ": " + (named != null ? named + " (the optimizer the rejected node's name gives)" : "a graph optimizer of that level")
                + " makes a graph ONNX Runtime then rejects, a defect of ONNX Runtime's, not of the model", loads));
    }

    /**
     * What was found: the sentence the failure says, and the level that loads the model.
     *
     * @param sentence the diagnosis in words
     * @param loadsAt  the optimization level that loads it
     */
    record Diagnosis(String sentence, String loadsAt) {
        /** The fix: the session option that loads it. */
        String fix() {
            return "run it with --runtime-option optimization=" + loadsAt + ", and report the optimizer's defect to ONNX Runtime";
        }
    }

    private static boolean loadsAt(Path model, OrtSession.SessionOptions.OptLevel level) {
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions()) {
            so.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_FATAL);
            so.setOptimizationLevel(level);
            try (OrtSession s = OrtEnvironment.getEnvironment().createSession(model.toString(), so)) {
                return true;
            }
        } catch (OrtException | RuntimeException e) {
            return false;
        }
    }
}
