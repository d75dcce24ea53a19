package dev.accelbridge.suites.precision;

import com.google.protobuf.ByteString;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.OperatorSetIdProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * fp32 → q4, the graph ONNX Runtime's {@code MatMul4BitsQuantizer} writes by default (and transformers.js ships as
 * {@code model_q4.onnx}): each MatMul whose weight {@code [K, N]} is a float initializer becomes one
 * {@code com.microsoft.MatMulNBits} with the weight in blocks of {@value #BLOCK} along K, each block four bits a value
 * (two to a byte, low nibble first) with one float scale, symmetric around the default zero point 8. Everything else stays
 * float32; the inputs and outputs are unchanged.
 */
final class BlockQuantizer {
    /** Values per block along K, ONNX Runtime's default. */
    static final int BLOCK = 32;

    private BlockQuantizer() {
    }

    /**
     * The q4 variant of {@code m}.
     *
     * @throws ConversionException when the model has control flow or external weights, or no MatMul with a constant weight
     */
    static ModelProto quantize(ModelProto m) {
        Checks.convertible(m, "q4");
        GraphProto g = m.getGraph();
        Map<String, TensorProto> inits = new HashMap<>();
        g.getInitializerList().forEach(t -> inits.put(t.getName(), t));
        Map<String, Integer> uses = new HashMap<>();
        g.getNodeList().forEach(n -> n.getInputList().forEach(i -> uses.merge(i, 1, Integer::sum)));
        g.getOutputList().forEach(o -> uses.merge(o.getName(), 1, Integer::sum));
        List<NodeProto> nodes = new ArrayList<>();
        List<TensorProto> added = new ArrayList<>();
        Set<String> replaced = new HashSet<>();
        int quantized = 0;
        for (NodeProto n : g.getNodeList()) {
            TensorProto w = n.getOpType().equals("MatMul") && n.getDomain().isEmpty() ? inits.get(n.getInput(1)) : null;
            if (w == null || w.getDataType() != ElementTypes.FLOAT || w.getDimsCount() != 2) {
                nodes.add(n);
                continue;
            }
            String base = (n.getName().isEmpty() ? "MatMul_" + quantized : n.getName()) + "_Q4";
            int k = (int) w.getDims(0);
            int cols = (int) w.getDims(1);
            Packed p = pack(OnnxTensors.fromProto(w, null).toFloats(), k, cols);
            added.add(TensorProto.newBuilder().setName(base + "_B").setDataType(TensorProto.DataType.UINT8_VALUE)
                    .addDims(cols).addDims(p.blocks()).addDims(BLOCK / 2).setRawData(ByteString.copyFrom(p.nibbles())).build());
            TensorProto.Builder scales = TensorProto.newBuilder().setName(base + "_scales").setDataType(ElementTypes.FLOAT)
                    .addDims((long) cols * p.blocks());
            for (float s : p.scales()) {
                scales.addFloatData(s);
            }
            added.add(scales.build());
            nodes.add(NodeProto.newBuilder().setOpType("MatMulNBits").setDomain("com.microsoft").setName(base)
                    .addInput(n.getInput(0)).addInput(base + "_B").addInput(base + "_scales").addOutput(n.getOutput(0))
                    .addAttribute(intAttr("K", k)).addAttribute(intAttr("N", cols)).addAttribute(intAttr("bits", 4))
                    .addAttribute(intAttr("block_size", BLOCK)).build());
            if (uses.getOrDefault(w.getName(), 0) == 1) {
                replaced.add(w.getName());
            }
            quantized++;
        }
        if (quantized == 0) {
            throw new ConversionException("The model has no MatMul with a constant 2-D weight to quantize to 4 bits",
                    "give a model with its MatMul weights as initializers, or run it at fp32 only");
        }
        GraphProto.Builder gb = g.toBuilder().clearNode().addAllNode(nodes).clearInitializer().clearValueInfo();
        g.getInitializerList().stream().filter(t -> !replaced.contains(t.getName())).forEach(gb::addInitializer);
        gb.addAllInitializer(added);
        ModelProto.Builder mb = m.toBuilder().setGraph(gb);
        if (m.getOpsetImportList().stream().noneMatch(o -> o.getDomain().equals("com.microsoft"))) {
            mb.addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("com.microsoft").setVersion(1));
        }
        return mb.build();
    }

    /** A weight's blocks: {@code [N][blocks][BLOCK / 2]} bytes and {@code N * blocks} scales. */
    record Packed(byte[] nibbles, float[] scales, int blocks) {
    }

    /**
     * {@code w} ({@code [k, n]}, row-major) in column-major blocks of {@value #BLOCK} along K, the last block padded with
     * zeros: per block the scale is its largest magnitude over 7, each value {@code round(w / scale) + 8} in 1..15.
     */
    static Packed pack(float[] w, int k, int n) {
        int blocks = (k + BLOCK - 1) / BLOCK;
        byte[] out = new byte[n * blocks * (BLOCK / 2)];
        float[] scales = new float[n * blocks];
        for (int c = 0; c < n; c++) {
            for (int b = 0; b < blocks; b++) {
                float max = 0;
                for (int i = b * BLOCK; i < Math.min(k, (b + 1) * BLOCK); i++) {
                    max = Math.max(max, Math.abs(w[i * n + c]));
                }
                float scale = max == 0 ? 1f : max / 7f;
                scales[c * blocks + b] = scale;
                for (int j = 0; j < BLOCK; j++) {
                    int row = b * BLOCK + j;
                    int q = row < k ? Math.max(-8, Math.min(7, Math.round(w[row * n + c] / scale))) + 8 : 8;
                    int at = (c * blocks + b) * (BLOCK / 2) + j / 2;
                    out[at] = (byte) (j % 2 == 0 ? (out[at] & 0xF0) | q : (out[at] & 0x0F) | (q << 4));
                }
            }
        }
        return new Packed(out, scales, blocks);
    }

    private static AttributeProto intAttr(String name, long v) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INT).setI(v).build();
    }
}
