package dev.accelbridge.nativerunner;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a half-precision variant really ran natively. ONNX Runtime's CPU provider has float16 kernels for few ops; for the
 * others it inserts casts to float32 and back ({@code InsertCastTransformer}, its casts named
 * {@code InsertedPrecisionFreeCast_...}), so an fp16 variant that PASSED on the CPU says little about float16 arithmetic
 * (an overflow a GPU computing in float16 meets cannot show). Read from the graph ONNX Runtime writes out once it has
 * optimized the model at the case's level, once per model and level.
 */
final class HalfPrecisionPlacement {
    private static final String INSERTED = "InsertedPrecisionFreeCast_";
    private static final long FLOAT = 1;
    private static final long FLOAT16 = 10;
    private static final Map<String, Optional<String>> SEEN = new ConcurrentHashMap<>();

    private HalfPrecisionPlacement() {
    }

    /** What the CPU provider made of {@code model} at {@code level}: a sentence when it computed part of it in float32. */
    static Optional<String> of(Path model, String sha256, String level) {
        return SEEN.computeIfAbsent(sha256 + "@" + level, k -> read(model, level));
    }

    private static Optional<String> read(Path model, String level) {
        OrtSession.SessionOptions.OptLevel l = LoadDiagnostician.LEVELS.getOrDefault(level, OrtSession.SessionOptions.OptLevel.ALL_OPT);
        Path out = null;
        try {
            out = Files.createTempFile("accelbridge-optimized", ".onnx");
            try (OrtSession.SessionOptions so = new OrtSession.SessionOptions()) {
                so.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_FATAL);
                so.setOptimizationLevel(l);
                so.setOptimizedModelFilePath(out.toString());
                OrtEnvironment.getEnvironment().createSession(model.toString(), so).close();
            }
            int toFloat = 0;
            int toHalf = 0;
            for (NodeProto n : OnnxTensors.readModel(out).getGraph().getNodeList()) {
                if (n.getOpType().equals("Cast") && n.getName().startsWith(INSERTED)) {
                    long to = n.getAttributeList().stream().filter(a -> a.getName().equals("to")).mapToLong(a -> a.getI()).findFirst().orElse(0);
                    toFloat += to == FLOAT ? 1 : 0;
                    toHalf += to == FLOAT16 ? 1 : 0;
                }
            }
            return toFloat == 0 ? Optional.empty() : Optional.of("computed in float32 in part: ONNX Runtime's CPU provider inserted "
                    + toFloat + " cast(s) to float32 and " + toHalf + " back to float16 around the nodes it has no float16 kernel "
                    + "for, so this verdict says little about float16 arithmetic (a GPU's)");
        } catch (OrtException | IOException | RuntimeException e) {
            return Optional.empty(); // the case's own load says what is wrong with the model
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temporary file left behind
                }
            }
        }
    }
}
