package dev.accelbridge.browser.observe;

import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.StringStringEntryProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;

import java.io.ByteArrayOutputStream;

/**
 * A model's weights moved out of its graph into one external data file, as LLM exports ship them: every initializer's
 * raw bytes appended to {@code weights}, the graph naming them by location, offset and length.
 *
 * @param graph   the graph, without its weights
 * @param weights the weights file's bytes
 * @param path    the path the graph names the file by
 */
public record ExternalWeights(byte[] graph, byte[] weights, String path) {
    /** Splits {@code model} (its initializers in raw data) into its graph and a weights file named {@code path}. */
    public static ExternalWeights split(byte[] model, String path) throws java.io.IOException {
        ByteArrayOutputStream weights = new ByteArrayOutputStream();
        ModelProto.Builder graph = ModelProto.parseFrom(model).toBuilder();
        for (TensorProto.Builder t : graph.getGraphBuilder().getInitializerBuilderList()) {
            byte[] raw = t.getRawData().toByteArray();
            long offset = weights.size();
            weights.write(raw);
            t.clearRawData().setDataLocation(TensorProto.DataLocation.EXTERNAL)
                    .addExternalData(StringStringEntryProto.newBuilder().setKey("location").setValue(path))
                    .addExternalData(StringStringEntryProto.newBuilder().setKey("offset").setValue(Long.toString(offset)))
                    .addExternalData(StringStringEntryProto.newBuilder().setKey("length").setValue(Integer.toString(raw.length)));
        }
        return new ExternalWeights(graph.build().toByteArray(), weights.toByteArray(), path);
    }
}
