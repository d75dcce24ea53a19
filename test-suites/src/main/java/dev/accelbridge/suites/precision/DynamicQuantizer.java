package dev.accelbridge.suites.precision;

import com.google.protobuf.ByteString;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * fp32 → int8 by dynamic quantization, the graph ONNX Runtime's {@code quantize_dynamic} writes (before its fusions):
 * each MatMul and Gemm whose weight is a 2-D initializer becomes
 * {@code DynamicQuantizeLinear(A) → MatMulInteger(A_q, W_q, A_zp, W_zp) → Cast(float) → Mul(A_scale·W_scale)}
 * (+ Add of Gemm's bias), with the weight as int8, symmetric, per tensor (ORT's default {@code QInt8}) in 7 bits ({@code reduce_range}); each Conv
 * whose weight is an initializer becomes the same around {@code ConvInteger} with uint8 weights (ONNX Runtime's
 * ConvInteger kernel takes uint8 weights), its bias added after. Activations are quantized to uint8 at run time, one
 * DynamicQuantizeLinear per quantized tensor. Everything else stays float32, and the inputs and outputs are unchanged.
 */
final class DynamicQuantizer {
    private DynamicQuantizer() {
    }

    /** The result: the quantized model and how many nodes were quantized. */
    public record Result(ModelProto model, int quantizedNodes) {
    }

    /**
     * The int8 variant of {@code m}.
     *
     * @throws ConversionException when the model has control flow or external weights, or nothing to quantize
     */
    public static Result quantize(ModelProto m) {
        Checks.convertible(m, "int8");
        GraphProto g = m.getGraph();
        Rewrite rw = new Rewrite(g);
        for (NodeProto n : g.getNodeList()) {
            Plan p = plan(n, rw.inits);
            if (p == null) {
                rw.nodes.add(n);
                continue;
            }
            rw.quantize(n, p);
        }
        if (rw.quantized == 0) {
            throw new ConversionException("The model has no MatMul, Gemm or Conv with a constant weight to quantize",
                    "give a model with its weights as initializers, or run it at fp32 only");
        }
        return new Result(m.toBuilder().setGraph(rw.graph(g)).build(), rw.quantized);
    }

    /**
     * The graph being rewritten, node by node in the original order: the nodes written so far, the initializers added,
     * the float weights that become unused, and the activations already quantized (one DynamicQuantizeLinear each).
     */
    private static final class Rewrite {
        final Map<String, TensorProto> inits = new LinkedHashMap<>();
        /** How many nodes and graph outputs read each value: a weight read by one node only is dropped once quantized. */
        final Map<String, Integer> uses = new HashMap<>();
        final List<NodeProto> nodes = new ArrayList<>();
        final List<TensorProto> added = new ArrayList<>();
        final Set<String> replacedWeights = new HashSet<>();
        final Map<String, String[]> quantizedActivations = new HashMap<>();
        int quantized = 0;

        Rewrite(GraphProto g) {
            g.getInitializerList().forEach(t -> inits.put(t.getName(), t));
            g.getNodeList().forEach(n -> n.getInputList().forEach(i -> uses.merge(i, 1, Integer::sum)));
            g.getOutputList().forEach(o -> uses.merge(o.getName(), 1, Integer::sum));
        }

        /** {@code n} as its integer product, rescaled to float, its bias added after. */
        void quantize(NodeProto n, Plan p) {
            String base = (n.getName().isEmpty() ? n.getOpType() + "_" + quantized : n.getName()) + "_quant";
            String[] aq = activation(n.getInput(0));
            String wq = weight(p, base);
            integerProduct(n, p, base, aq, wq);
            String out = n.getOutput(0);
            String scaled = p.bias() == null ? out : base + "_scaled";
            nodes.add(NodeProto.newBuilder().setOpType("Mul").setName(base + "_output_mul").addInput(base + "_float")
                    .addInput(base + "_scale").addOutput(scaled).build());
            if (p.bias() != null) {
                addBias(p, base, scaled, out);
            }
            quantized++;
        }

        /** The activation's quantized value, scale and zero point: quantized once, however many nodes read it. */
        private String[] activation(String a) {
            String[] aq = quantizedActivations.get(a);
            if (aq == null) {
                aq = new String[] {a + "_quantized", a + "_scale", a + "_zero_point"};
                nodes.add(NodeProto.newBuilder().setOpType("DynamicQuantizeLinear").setName(a + "_QuantizeLinear")
                        .addInput(a).addOutput(aq[0]).addOutput(aq[1]).addOutput(aq[2]).build());
                quantizedActivations.put(a, aq);
            }
            return aq;
        }

        /** The weight as 8-bit initializers (values, scale, zero point); its name. */
        private String weight(Plan p, String base) {
            String wq = p.weight().getName() + "_quantized";
            if (inits.containsKey(wq)) {
                wq = base + "_W_quantized"; // a weight used twice in two layouts (Gemm transB) gets its own copy
            }
            Quantized w = p.conv() ? Quantized.uint8(p.weightValues()) : Quantized.int8(p.weightValues());
            added.add(w.values(wq, p.weightDims()));
            added.add(scalarFloat(wq + "_scale", w.scale()));
            added.add(w.zeroPoint(wq + "_zero_point"));
            if (uses.getOrDefault(p.weight().getName(), 0) == 1) {
                replacedWeights.add(p.weight().getName());
            }
            return wq;
        }

        /** MatMulInteger or ConvInteger (with Conv's attributes), its int32 cast to float, and the two scales' product. */
        private void integerProduct(NodeProto n, Plan p, String base, String[] aq, String wq) {
            NodeProto.Builder integer = NodeProto.newBuilder().setOpType(p.conv() ? "ConvInteger" : "MatMulInteger")
                    .setName(base + (p.conv() ? "_ConvInteger" : "_MatMulInteger"))
                    .addInput(aq[0]).addInput(wq).addInput(aq[2]).addInput(wq + "_zero_point").addOutput(base + "_int32");
            if (p.conv()) {
                n.getAttributeList().forEach(integer::addAttribute);
            }
            nodes.add(integer.build());
            nodes.add(NodeProto.newBuilder().setOpType("Cast").setName(base + "_cast").addInput(base + "_int32")
                    .addOutput(base + "_float").addAttribute(AttributeProto.newBuilder().setName("to")
                            .setType(AttributeProto.AttributeType.INT).setI(ElementTypes.FLOAT)).build());
            nodes.add(NodeProto.newBuilder().setOpType("Mul").setName(base + "_scales_mul").addInput(aq[1])
                    .addInput(wq + "_scale").addOutput(base + "_scale").build());
        }

        /** The float bias added to the rescaled product, into the node's own output. */
        private void addBias(Plan p, String base, String scaled, String out) {
            String bias = p.bias();
            if (p.conv()) {
                // Conv's bias is [C]; after ConvInteger it must broadcast over the spatial dims: [C, 1, ..., 1]
                TensorProto b = inits.get(bias);
                TensorProto.Builder rb = b.toBuilder().clearDims().addDims(b.getDims(0)).setName(base + "_bias");
                for (int k = 2; k < p.weightDims().size(); k++) {
                    rb.addDims(1);
                }
                added.add(rb.build());
                bias = base + "_bias";
            }
            nodes.add(NodeProto.newBuilder().setOpType("Add").setName(base + "_bias_add").addInput(scaled)
                    .addInput(bias).addOutput(out).build());
        }

        /** {@code g} with the rewritten nodes, its initializers less the replaced weights then the added ones, no value infos. */
        GraphProto.Builder graph(GraphProto g) {
            GraphProto.Builder gb = g.toBuilder().clearNode().addAllNode(nodes).clearInitializer().clearValueInfo();
            for (TensorProto t : g.getInitializerList()) {
                if (!replacedWeights.contains(t.getName())) {
                    gb.addInitializer(t);
                }
            }
            gb.addAllInitializer(added);
            return gb;
        }
    }

    /** What one node's quantization needs; null when the node stays float. */
    private record Plan(TensorProto weight, float[] weightValues, List<Long> weightDims, String bias, boolean conv) {
    }

    private static Plan plan(NodeProto n, Map<String, TensorProto> inits) {
        switch (n.getOpType()) {
            case "MatMul": {
                TensorProto w = floatInit(inits, n.getInput(1));
                if (w == null || w.getDimsCount() != 2) {
                    return null;
                }
                return new Plan(w, values(w), w.getDimsList(), null, false);
            }
            case "Gemm": {
                TensorProto w = floatInit(inits, n.getInput(1));
                if (w == null || w.getDimsCount() != 2 || intAttr(n, "transA", 0) != 0 || floatAttr(n, "alpha", 1f) != 1f
                        || floatAttr(n, "beta", 1f) != 1f) {
                    return null;
                }
                float[] v = values(w);
                List<Long> dims = w.getDimsList();
                if (intAttr(n, "transB", 0) == 1) {
                    int rows = (int) w.getDims(0);
                    int cols = (int) w.getDims(1);
                    float[] t = new float[v.length];
                    for (int r = 0; r < rows; r++) {
                        for (int c = 0; c < cols; c++) {
                            t[c * rows + r] = v[r * cols + c];
                        }
                    }
                    v = t;
                    dims = List.of((long) cols, (long) rows);
                }
                return new Plan(w, v, dims, n.getInputCount() > 2 && !n.getInput(2).isEmpty() ? n.getInput(2) : null, false);
            }
            case "Conv": {
                TensorProto w = floatInit(inits, n.getInput(1));
                if (w == null) {
                    return null;
                }
                String bias = n.getInputCount() > 2 && !n.getInput(2).isEmpty() ? n.getInput(2) : null;
                if (bias != null && floatInit(inits, bias) == null) {
                    return null;
                }
                return new Plan(w, values(w), w.getDimsList(), bias, true);
            }
            default:
                return null;
        }
    }

    private static TensorProto floatInit(Map<String, TensorProto> inits, String name) {
        TensorProto t = inits.get(name);
        return t != null && t.getDataType() == ElementTypes.FLOAT ? t : null;
    }

    private static float[] values(TensorProto t) {
        return OnnxTensors.fromProto(t, null).toFloats();
    }

    private static long intAttr(NodeProto n, String name, long dflt) {
        AttributeProto a = ElementTypes.attr(n, name);
        return a == null ? dflt : a.getI();
    }

    private static float floatAttr(NodeProto n, String name, float dflt) {
        AttributeProto a = ElementTypes.attr(n, name);
        return a == null ? dflt : a.getF();
    }

    static TensorProto scalarFloat(String name, float v) {
        return TensorProto.newBuilder().setName(name).setDataType(ElementTypes.FLOAT).addFloatData(v).build();
    }

    /** Weights as 8-bit integers with one scale and zero point (per tensor). */
    record Quantized(byte[] q, float scale, int zeroPoint, boolean signed) {
        /**
         * The largest int8 weight: 7 bits, as {@code quantize_dynamic}'s {@code reduce_range} writes them. Found when tried:
         * with full-range weights ([-127, 127]) ONNX Runtime's uint8 × int8 kernel on an x86 CPU without VNNI (AVX2 only)
         * saturates its 16-bit pair sums (255 · 127 · 2 > 32767), and the text and audio variants left their tolerance
         * (cosine 0.974 and 0.956 to fp32); 255 · 64 · 2 stays within it on every x86 kernel.
         */
        static final int INT8_MAX = 64;

        /** Symmetric int8 in [-64, 64] (7 bits: ONNX Runtime's {@code reduce_range}), zero point 0. */
        static Quantized int8(float[] w) {
            float max = 0;
            for (float f : w) {
                max = Math.max(max, Math.abs(f));
            }
            float scale = max == 0 ? 1f : max / INT8_MAX;
            byte[] q = new byte[w.length];
            for (int i = 0; i < w.length; i++) {
                q[i] = (byte) Math.max(-INT8_MAX, Math.min(INT8_MAX, (int) Math.rint(w[i] / scale)));
            }
            return new Quantized(q, scale, 0, true);
        }

        /** Asymmetric uint8 in [0, 255] over [min(0, w), max(0, w)]. */
        static Quantized uint8(float[] w) {
            float lo = 0;
            float hi = 0;
            for (float f : w) {
                lo = Math.min(lo, f);
                hi = Math.max(hi, f);
            }
            float scale = hi == lo ? 1f : (hi - lo) / 255f;
            int zp = Math.max(0, Math.min(255, (int) Math.rint(-lo / scale)));
            byte[] q = new byte[w.length];
            for (int i = 0; i < w.length; i++) {
                q[i] = (byte) Math.max(0, Math.min(255, (int) Math.rint(w[i] / scale) + zp));
            }
            return new Quantized(q, scale, zp, false);
        }

        TensorProto values(String name, List<Long> dims) {
            return TensorProto.newBuilder().setName(name).setDataType(signed ? TensorProto.DataType.INT8_VALUE
                    : TensorProto.DataType.UINT8_VALUE).addAllDims(dims).setRawData(ByteString.copyFrom(q)).build();
        }

        TensorProto zeroPoint(String name) {
            return TensorProto.newBuilder().setName(name).setDataType(signed ? TensorProto.DataType.INT8_VALUE
                    : TensorProto.DataType.UINT8_VALUE).setRawData(ByteString.copyFrom(new byte[] {(byte) zeroPoint})).build();
        }
    }
}
