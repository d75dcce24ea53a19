package dev.accelbridge.suites.onnx;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kernel the runtime lacks, said with what the model holds: ONNX Runtime's words ("Could not find an implementation
 * for MatMul(13) node with name 'mm'", natively and in the page alike) name the op, its opset and the node; the model
 * adds the node's domain and its inputs' element types where the graph states them (a graph input, an initializer, a
 * declared value, a Cast's target type). An input whose type the graph does not state is said as unknown, never guessed.
 */
@PublicApi
public final class KernelGap {
    private static final Pattern WORDS = Pattern.compile(
            "Could not find an implementation for ([A-Za-z0-9_]{1,64})\\((\\d{1,3})\\) node with name '([^']{0,300})'");

    private KernelGap() {
    }

    /** "no kernel for MatMul (opset 13, domain ai.onnx) at node 'mm', its inputs bfloat16, bfloat16", or empty. */
    public static Optional<String> describe(Path model, String runtimeMessage) {
        Matcher m = WORDS.matcher(runtimeMessage == null ? "" : runtimeMessage);
        if (!m.find() || model == null) {
            return Optional.empty();
        }
        GraphProto g;
        try {
            g = OnnxTensors.readModel(model).getGraph();
        } catch (RuntimeException e) {
            return Optional.empty(); // the runtime's words stand alone
        }
        for (NodeProto n : g.getNodeList()) {
            if (n.getName().equals(m.group(3)) && n.getOpType().equals(m.group(1))) {
                List<String> types = new ArrayList<>();
                for (String in : n.getInputList()) {
                    if (!in.isEmpty()) {
                        types.add(typeOf(g, in));
                    }
                }
                return Optional.of("no kernel for " + n.getOpType() + " (opset " + m.group(2) + ", domain "
                        + (n.getDomain().isEmpty() ? "ai.onnx" : n.getDomain()) + ") at node '" + n.getName() + "', its inputs "
                        + String.join(", ", types));
            }
        }
        return Optional.empty();
    }

    /** The element type the graph states for {@code value}, or "of unknown type". */
    static String typeOf(GraphProto g, String value) {
        for (List<ValueInfoProto> declared : List.of(g.getInputList(), g.getValueInfoList(), g.getOutputList())) {
            for (ValueInfoProto v : declared) {
                if (v.getName().equals(value) && v.getType().hasTensorType()) {
                    return name(v.getType().getTensorType().getElemType());
                }
            }
        }
        for (TensorProto t : g.getInitializerList()) {
            if (t.getName().equals(value)) {
                return name(t.getDataType());
            }
        }
        for (NodeProto n : g.getNodeList()) {
            if (n.getOpType().equals("Cast") && n.getOutputList().contains(value)) {
                for (AttributeProto a : n.getAttributeList()) {
                    if (a.getName().equals("to")) {
                        return name((int) a.getI());
                    }
                }
            }
        }
        return "of unknown type";
    }

    private static String name(int elemType) {
        TensorProto.DataType t = TensorProto.DataType.forNumber(elemType);
        return t == null ? "type " + elemType : t.name().toLowerCase(Locale.ROOT);
    }
}
