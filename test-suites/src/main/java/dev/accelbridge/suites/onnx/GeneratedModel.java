package dev.accelbridge.suites.onnx;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;

/**
 * A model authored by the suite: the ONNX message and the approximate FLOPs of one inference on the
 * suite's own input (matrix products and convolutions; element-wise ops are not counted).
 */
@PublicApi
public record GeneratedModel(ModelProto model, double flops) {
    /** The serialized file content. */
    public byte[] toBytes() {
        return model.toByteArray();
    }
}
