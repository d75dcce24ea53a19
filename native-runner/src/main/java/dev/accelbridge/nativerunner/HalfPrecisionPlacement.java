package dev.accelbridge.nativerunner;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.ComputedPrecision;
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
        private static final long FLOAT = 1;
    private static final long FLOAT16 = 10;
    private static final Map<String, Optional<ComputedPrecision>> SEEN = new ConcurrentHashMap<>();

    private HalfPrecisionPlacement() {
    }

    /** What the CPU provider made of {@code model} at {@code level}; empty when its optimized graph could not be read. */
    static Optional<ComputedPrecision> of(Path model, String sha256, String level) {
        return SEEN.computeIfAbsent(sha256 + "@" + level, k -> read(model, level));
    }

    private static Optional<ComputedPrecision> read(Path model, String level) {
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
                if (n.getOpType().equals("Cast") && n.getName().startsWith(ComputedPrecision.INSERTED_CAST)) {
                    long to = n.getAttributeList().stream().filter(a -> a.getName().equals("to")).mapToLong(a -> a.getI()).findFirst().orElse(0);
                    toFloat += to == FLOAT ? 1 : 0;
                    toHalf += to == FLOAT16 ? 1 : 0;
                }
            }
            String basis = "ONNX Runtime's CPU provider, its graph optimized at optimization=" + level + ": " + toFloat
                    + " cast(s) to float32 and " + toHalf + " back to float16";
            return Optional.of(toFloat + toHalf == 0 ? ComputedPrecision.asDeclared(basis)
                    : ComputedPrecision.inFloat32InPart(toFloat + toHalf, basis));
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
