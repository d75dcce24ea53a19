package dev.accelbridge.nativerunner;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.nn.Block;
import ai.djl.onnxruntime.engine.OrtNDArray;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtSession;

import java.lang.reflect.Field;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ONNX Runtime session behind a model DJL loaded, so the timed loop can call {@code session.run} itself (as a
 * bare ORT loop does) with the tensors DJL already made. DJL 0.38 keeps the session in a private field of its
 * {@code OrtSymbolBlock}; when a DJL version does not, {@link #of} answers null and the caller times the block's
 * forward instead. Nothing here changes what runs, only what the clock surrounds.
 */
final class OrtSessions {
    private OrtSessions() {
    }

    /** The session of a DJL ONNX Runtime block, or null when it cannot be reached. */
    static OrtSession of(Block block) {
        try {
            Field f = block.getClass().getDeclaredField("session");
            f.setAccessible(true);
            Object s = f.get(block);
            return s instanceof OrtSession os ? os : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The feeds of a run, by input name, from DJL's tensors; null when they are not ORT tensors. */
    static Map<String, OnnxTensor> feeds(List<String> names, NDList inputs) {
        if (names.size() != inputs.size()) {
            return null;
        }
        Map<String, OnnxTensor> m = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            NDArray a = inputs.get(i);
            if (!(a instanceof OrtNDArray o)) {
                return null;
            }
            m.put(names.get(i), o.getTensor());
        }
        return m;
    }
}
