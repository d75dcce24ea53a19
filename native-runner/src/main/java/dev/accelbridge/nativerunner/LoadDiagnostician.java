package dev.accelbridge.nativerunner;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.LoadDiagnosis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Why native ONNX Runtime refused to load a model ({@link LoadDiagnosis}): the session is made again at each lower
 * graph-optimization level, on the CPU, until one loads. The optimizer the rejected node's name gives is named, not
 * confirmed alone: measured on ONNX Runtime 1.29 through its C API (Java), {@code optimization.disable_specified_optimizers} left
 * such a load failing whatever transformer it named, so no single optimizer can be switched off to prove it.
 */
final class LoadDiagnostician {
    /** The levels, from the most optimization down, by their session-option names. */
    static final Map<String, OrtSession.SessionOptions.OptLevel> LEVELS = levels();

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
     * level below too (then the optimizer is not the cause, and the message stands alone). Where the message names the
     * node the optimizer made, a single-graph repro of its pattern is cut ({@link LoadRepro}).
     */
    static Optional<LoadDiagnosis> diagnose(Path model, String failedLevel, String message) {
        List<String> failing = new ArrayList<>(List.of(failedLevel));
        for (String level : LoadDiagnosis.below(failedLevel)) {
            if (loadsAt(model, LEVELS.get(level))) {
                LoadDiagnosis d = LoadDiagnosis.of("ONNX Runtime " + DjlOnnxRuntimeProvider.environment().ortVersion(), failing, level, message);
                return Optional.of(LoadRepro.cut(model, d).map(d::withRepro).orElse(d));
            }
            failing.add(level);
        }
        return Optional.empty();
    }

    /** Whether ONNX Runtime loads {@code model} at {@code level}. */
    static boolean loadsAt(Path model, OrtSession.SessionOptions.OptLevel level) {
        return refusal(model, level) == null;
    }

    /** ONNX Runtime's message when it refuses {@code model} at {@code level}, or null when it loads it. */
    static String refusal(Path model, OrtSession.SessionOptions.OptLevel level) {
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions()) {
            so.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_FATAL);
            so.setOptimizationLevel(level);
            try (OrtSession s = OrtEnvironment.getEnvironment().createSession(model.toString(), so)) {
                return null;
            }
        } catch (OrtException | RuntimeException e) {
            return String.valueOf(e.getMessage());
        }
    }
}
