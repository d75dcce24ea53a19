package dev.accelbridge.suites.precision;

import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;

/** What both converters refuse, said once. */
final class Checks {
    private Checks() {
    }

    static void convertible(ModelProto m, String variant) {
        if (ElementTypes.hasSubgraphs(m.getGraph())) {
            throw new ConversionException("Accelbridge cannot derive the " + variant + " variant of a model with control-flow "
                    + "sub-graphs (If/Loop/Scan)", "convert it yourself and give the converted model with --model");
        }
        for (TensorProto t : m.getGraph().getInitializerList()) {
            if (t.getDataLocation() == TensorProto.DataLocation.EXTERNAL) {
                throw new ConversionException("Accelbridge cannot derive the " + variant + " variant of a model whose weights "
                        + "are in external data files", "convert it yourself and give the converted model with --model");
            }
        }
        if (OnnxModels.opset(m) < 11) {
            throw new ConversionException("Accelbridge derives the " + variant + " variant only for opset 11 and later (this "
                    + "model imports opset " + OnnxModels.opset(m) + ")", "upgrade the model's opset (onnx.version_converter)");
        }
    }
}
