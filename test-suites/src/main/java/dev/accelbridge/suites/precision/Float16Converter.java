package dev.accelbridge.suites.precision;

import com.google.protobuf.ByteString;
import dev.accelbridge.core.Float16;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * fp32 → fp16, the way ONNX Runtime's {@code float16.convert_float_to_float16(model, keep_io_types=True)} does it:
 * every float initializer and constant becomes float16 and every float edge computes in float16, while the graph's
 * float inputs and outputs stay float32 behind a Cast at each edge (so the same inputs feed both variants and the
 * outputs compare directly). Ops that have no float16 form (the converter's block list: TopK, Range, CumSum, Min,
 * Max, NonMaxSuppression, RoiAlign, Upsample, the ai.onnx.ml ops...) stay float32 with Casts around them; Resize's
 * {@code scales} input stays float32 as the spec requires.
 *
 * <p>No value_info is kept: the runtimes infer the new types themselves.
 */
final class Float16Converter {
    /** onnxconverter-common's {@code DEFAULT_OP_BLOCK_LIST}. */
    static final Set<String> BLOCKED = Set.of("ArrayFeatureExtractor", "Binarizer", "CastMap", "CategoryMapper",
            "DictVectorizer", "FeatureVectorizer", "Imputer", "LabelEncoder", "LinearClassifier", "LinearRegressor",
            "Normalizer", "OneHotEncoder", "RandomUniformLike", "SVMClassifier", "SVMRegressor", "Scaler",
            "TreeEnsembleClassifier", "TreeEnsembleRegressor", "ZipMap", "NonMaxSuppression", "TopK", "RoiAlign", "Range",
            "CumSum", "Min", "Max", "Upsample");
    /** Inputs that must stay float32 in an op that otherwise computes in float16. */
    private static final Map<String, Set<Integer>> FP32_INPUTS = Map.of("Resize", Set.of(2));

    private Float16Converter() {
    }

    /**
     * The float16 variant of {@code m}.
     *
     * @throws ConversionException when the model has control flow or external weights
     */
    public static ModelProto convert(ModelProto m) {
        GraphProto g = m.getGraph();
        Checks.convertible(m, "fp16");
        Map<String, Integer> types = ElementTypes.of(g);
        Map<String, String> rename = new HashMap<>();
        List<NodeProto> nodes = new ArrayList<>();
        int[] counter = {0};
        for (ValueInfoProto in : g.getInputList()) {
            if (isFloat(types, in.getName()) && !isInitializer(g, in.getName())) {
                String half = in.getName() + "/fp16";
                nodes.add(cast(in.getName(), half, ElementTypes.FLOAT16, "graph_input_cast_" + counter[0]++));
                rename.put(in.getName(), half);
            }
        }
        List<NodeProto> tail = new ArrayList<>();
        for (ValueInfoProto out : g.getOutputList()) {
            if (isFloat(types, out.getName())) {
                String half = out.getName() + "/fp16";
                tail.add(cast(half, out.getName(), ElementTypes.FLOAT, "graph_output_cast_" + counter[0]++));
                rename.put(out.getName(), half);
            }
        }
        for (NodeProto n : g.getNodeList()) {
            boolean blocked = BLOCKED.contains(n.getOpType()) || !(n.getDomain().isEmpty() || n.getDomain().equals("ai.onnx"));
            Set<Integer> fp32Inputs = FP32_INPUTS.getOrDefault(n.getOpType(), Set.of());
            NodeProto.Builder b = n.toBuilder().clearInput().clearOutput();
            List<NodeProto> after = new ArrayList<>();
            for (int k = 0; k < n.getInputCount(); k++) {
                String in = n.getInput(k);
                String fed = rename.getOrDefault(in, in);
                if (!in.isEmpty() && isFloat(types, in) && (blocked || fp32Inputs.contains(k))) {
                    String single = fed + "/fp32_" + counter[0];
                    nodes.add(cast(fed, single, ElementTypes.FLOAT, n.getName() + "_input_cast_" + counter[0]++));
                    fed = single;
                }
                b.addInput(fed);
            }
            for (String out : n.getOutputList()) {
                String produced = rename.getOrDefault(out, out);
                if (blocked && !out.isEmpty() && isFloat(types, out)) {
                    b.addOutput(produced + "/fp32");
                    after.add(cast(produced + "/fp32", produced, ElementTypes.FLOAT16, n.getName() + "_output_cast_" + counter[0]++));
                } else {
                    b.addOutput(produced);
                }
            }
            if (!blocked) {
                retypeAttributes(n, b);
            }
            nodes.add(b.build());
            nodes.addAll(after);
        }
        nodes.addAll(tail);
        GraphProto.Builder gb = g.toBuilder().clearNode().addAllNode(nodes).clearValueInfo().clearInitializer();
        for (TensorProto t : g.getInitializerList()) {
            gb.addInitializer(t.getDataType() == ElementTypes.FLOAT ? toHalf(t) : t);
        }
        return m.toBuilder().setGraph(gb).build();
    }

    /** Cast's {@code to}, Constant's value and ConstantOfShape's value follow the float edges into float16. */
    private static void retypeAttributes(NodeProto n, NodeProto.Builder b) {
        switch (n.getOpType()) {
            case "Cast" -> {
                if (ElementTypes.attr(n, "to").getI() == ElementTypes.FLOAT) {
                    replaceAttr(b, AttributeProto.newBuilder().setName("to").setType(AttributeProto.AttributeType.INT)
                            .setI(ElementTypes.FLOAT16).build());
                }
            }
            case "Constant", "ConstantOfShape" -> {
                for (int i = 0; i < b.getAttributeCount(); i++) {
                    AttributeProto a = b.getAttribute(i);
                    if (a.getName().equals("value") && a.getT().getDataType() == ElementTypes.FLOAT) {
                        b.setAttribute(i, a.toBuilder().setT(toHalf(a.getT())).build());
                    } else if (a.getName().equals("value_float")) {
                        b.setAttribute(i, tensorAttr(halfTensor(new float[] {a.getF()}, List.of())));
                    } else if (a.getName().equals("value_floats")) {
                        float[] v = new float[a.getFloatsCount()];
                        for (int k = 0; k < v.length; k++) {
                            v[k] = a.getFloats(k);
                        }
                        b.setAttribute(i, tensorAttr(halfTensor(v, List.of((long) v.length))));
                    }
                }
                if (n.getOpType().equals("ConstantOfShape") && ElementTypes.attr(n, "value") == null) {
                    b.addAttribute(tensorAttr(halfTensor(new float[] {0f}, List.of(1L))));
                }
            }
            default -> { }
        }
    }

    private static AttributeProto tensorAttr(TensorProto t) {
        return AttributeProto.newBuilder().setName("value").setType(AttributeProto.AttributeType.TENSOR).setT(t).build();
    }

    private static void replaceAttr(NodeProto.Builder b, AttributeProto a) {
        for (int i = 0; i < b.getAttributeCount(); i++) {
            if (b.getAttribute(i).getName().equals(a.getName())) {
                b.setAttribute(i, a);
                return;
            }
        }
        b.addAttribute(a);
    }

    /** ONNX Runtime's converter's bounds ({@code min_positive_val}, {@code max_finite_val}): values beyond are clamped. */
    static final float MIN_POSITIVE = 1e-7f;
    static final float MAX_FINITE = 1e4f;

    /**
     * {@code t} in float16, each finite value clamped (as every constant made float16 here) as ONNX Runtime's converter
     * clamps it: a magnitude above
     * {@value #MAX_FINITE} to it (a mask's -1e9 stays a large negative, not -inf, whose softmax gives NaN), a non-zero one
     * below {@value #MIN_POSITIVE} to it.
     */
    static TensorProto toHalf(TensorProto t) {
        float[] v = OnnxTensors.fromProto(t, null).toFloats();
        return halfTensor(v, t.getDimsList()).toBuilder().setName(t.getName()).build();
    }

    private static float clamped(float f) {
        float a = Math.abs(f);
        return Float.isFinite(f) && a > MAX_FINITE ? Math.copySign(MAX_FINITE, f) : a > 0 && a < MIN_POSITIVE ? Math.copySign(MIN_POSITIVE, f) : f;
    }

    private static TensorProto halfTensor(float[] v, List<Long> dims) {
        ByteBuffer bb = ByteBuffer.allocate(v.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            bb.putShort(Float16.fromFloat(clamped(f)));
        }
        return TensorProto.newBuilder().setDataType(ElementTypes.FLOAT16).addAllDims(dims)
                .setRawData(ByteString.copyFrom(bb.array())).build();
    }

    private static NodeProto cast(String in, String out, int to, String name) {
        return NodeProto.newBuilder().setOpType("Cast").setName(name).addInput(in).addOutput(out)
                .addAttribute(AttributeProto.newBuilder().setName("to").setType(AttributeProto.AttributeType.INT).setI(to)).build();
    }

    private static boolean isFloat(Map<String, Integer> types, String name) {
        return Integer.valueOf(ElementTypes.FLOAT).equals(types.get(name));
    }

    private static boolean isInitializer(GraphProto g, String name) {
        return g.getInitializerList().stream().anyMatch(t -> t.getName().equals(name));
    }
}
