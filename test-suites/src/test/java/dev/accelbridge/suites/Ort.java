package dev.accelbridge.suites;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs a model on the real ONNX Runtime (CPU) for the tests. */
final class Ort {
    private Ort() {
    }

    static Map<String, NamedTensor> run(Path model, List<NamedTensor> inputs) throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions();
             OrtSession s = env.createSession(model.toString(), so)) {
            Map<String, OnnxTensor> feed = new LinkedHashMap<>();
            try {
                for (NamedTensor t : inputs) {
                    ByteBuffer direct = ByteBuffer.allocateDirect(t.data().length).order(ByteOrder.nativeOrder());
                    direct.put(t.buffer());
                    direct.rewind();
                    OnnxTensor ot = switch (t.dtype()) {
                        case FLOAT32 -> OnnxTensor.createTensor(env, direct.asFloatBuffer(), t.shape());
                        case INT64 -> OnnxTensor.createTensor(env, direct.asLongBuffer(), t.shape());
                        case INT32 -> OnnxTensor.createTensor(env, direct.asIntBuffer(), t.shape());
                        case BOOL -> OnnxTensor.createTensor(env, direct, t.shape(), ai.onnxruntime.OnnxJavaType.BOOL);
                        default -> throw new IllegalArgumentException(t.dtype().toString());
                    };
                    feed.put(t.name(), ot);
                }
                Map<String, NamedTensor> out = new LinkedHashMap<>();
                try (OrtSession.Result r = s.run(feed)) {
                    for (Map.Entry<String, OnnxValue> e : r) {
                        OnnxTensor ot = (OnnxTensor) e.getValue();
                        long[] shape = ot.getInfo().getShape();
                        if (ot.getInfo().type == ai.onnxruntime.OnnxJavaType.INT64) {
                            long[] v = new long[(int) ot.getInfo().getNumElements()];
                            ot.getLongBuffer().get(v);
                            out.put(e.getKey(), NamedTensor.ofLongs(e.getKey(), shape, v));
                            continue;
                        }
                        float[] v = new float[(int) ot.getInfo().getNumElements()];
                        ot.getFloatBuffer().get(v);
                        out.put(e.getKey(), NamedTensor.ofFloats(e.getKey(), shape, v));
                    }
                }
                return out;
            } finally {
                feed.values().forEach(OnnxTensor::close);
            }
        }
    }

    static boolean allFinite(NamedTensor t) {
        for (double d : t.toDoubles()) {
            if (!Double.isFinite(d)) {
                return false;
            }
        }
        return true;
    }

}
