package dev.accelbridge.suites.precision;

import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The element type of every value of a graph, by forward propagation over its nodes in order: enough type inference
 * for a converter to know which edges carry float (ONNX's full shape inference is not available in Java). Declared
 * types (inputs, initializers, value_info, outputs) win; a node's outputs otherwise take the type of its first typed
 * input, with the exceptions listed here (comparisons give bool, Shape gives int64, Cast gives its {@code to}, ...).
 */
final class ElementTypes {
    static final int FLOAT = TensorProto.DataType.FLOAT_VALUE;
    static final int FLOAT16 = TensorProto.DataType.FLOAT16_VALUE;
    private static final int INT64 = TensorProto.DataType.INT64_VALUE;
    private static final int INT32 = TensorProto.DataType.INT32_VALUE;
    private static final int BOOL = TensorProto.DataType.BOOL_VALUE;
    private static final int UINT8 = TensorProto.DataType.UINT8_VALUE;
    private static final Set<String> TO_INT64 = Set.of("Shape", "Size", "NonZero", "ArgMax", "ArgMin");
    private static final Set<String> TO_BOOL = Set.of("Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And",
            "Or", "Not", "Xor", "IsNaN", "IsInf");

    private ElementTypes() {
    }

    /** Value name → ONNX element type, for every value whose type could be told. */
    static Map<String, Integer> of(GraphProto g) {
        Map<String, Integer> t = new HashMap<>();
        for (ValueInfoProto v : g.getInputList()) {
            declared(t, v);
        }
        for (TensorProto i : g.getInitializerList()) {
            t.put(i.getName(), i.getDataType());
        }
        for (ValueInfoProto v : g.getValueInfoList()) {
            declared(t, v);
        }
        for (ValueInfoProto v : g.getOutputList()) {
            declared(t, v);
        }
        for (NodeProto n : g.getNodeList()) {
            for (int k = 0; k < n.getOutputCount(); k++) {
                String out = n.getOutput(k);
                if (!out.isEmpty() && !t.containsKey(out)) {
                    Integer type = infer(n, k, t);
                    if (type != null) {
                        t.put(out, type);
                    }
                }
            }
        }
        return t;
    }

    private static void declared(Map<String, Integer> t, ValueInfoProto v) {
        if (v.getType().hasTensorType() && v.getType().getTensorType().getElemType() != 0) {
            t.put(v.getName(), v.getType().getTensorType().getElemType());
        }
    }

    private static Integer infer(NodeProto n, int output, Map<String, Integer> t) {
        String op = n.getOpType();
        if (TO_INT64.contains(op)) {
            return INT64;
        }
        if (TO_BOOL.contains(op)) {
            return BOOL;
        }
        switch (op) {
            case "Cast":
                return (int) attr(n, "to").getI();
            case "Constant": {
                for (AttributeProto a : n.getAttributeList()) {
                    switch (a.getName()) {
                        case "value": return a.getT().getDataType();
                        case "value_float", "value_floats": return FLOAT;
                        case "value_int", "value_ints": return INT64;
                        default: break;
                    }
                }
                return null;
            }
            case "ConstantOfShape": {
                AttributeProto v = attr(n, "value");
                return v == null ? FLOAT : v.getT().getDataType();
            }
            case "Where":
                return n.getInputCount() > 1 ? t.get(n.getInput(1)) : null;
            case "TopK":
                return output == 1 ? INT64 : t.get(n.getInput(0));
            case "DynamicQuantizeLinear":
                return output == 1 ? FLOAT : UINT8;
            case "QuantizeLinear":
                return n.getInputCount() > 2 ? t.getOrDefault(n.getInput(2), UINT8) : UINT8;
            case "DequantizeLinear":
                return FLOAT;
            case "MatMulInteger", "ConvInteger":
                return INT32;
            case "EyeLike", "RandomNormalLike", "RandomUniformLike": {
                AttributeProto d = attr(n, "dtype");
                return d != null ? (int) d.getI() : t.get(n.getInput(0));
            }
            case "RandomNormal", "RandomUniform": {
                AttributeProto d = attr(n, "dtype");
                return d != null ? (int) d.getI() : FLOAT;
            }
            default:
                for (String in : n.getInputList()) {
                    if (!in.isEmpty() && t.containsKey(in)) {
                        return t.get(in);
                    }
                }
                return null;
        }
    }

    static AttributeProto attr(NodeProto n, String name) {
        for (AttributeProto a : n.getAttributeList()) {
            if (a.getName().equals(name)) {
                return a;
            }
        }
        return null;
    }

    /** True when the graph has control flow (If, Loop, Scan bodies): the converters refuse it rather than guess. */
    static boolean hasSubgraphs(GraphProto g) {
        for (NodeProto n : g.getNodeList()) {
            for (AttributeProto a : n.getAttributeList()) {
                if (a.hasG() || a.getGraphsCount() > 0) {
                    return true;
                }
            }
        }
        return false;
    }
}
