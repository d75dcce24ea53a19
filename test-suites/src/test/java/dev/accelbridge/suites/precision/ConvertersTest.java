package dev.accelbridge.suites.precision;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.Precision;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The graph rewrites themselves, on authored graphs, without I/O (running them is tested in native-runner). */
class ConvertersTest {
    /** x[batch,8] → MatMul → Add → TopK(k=2) → values, indices; Gemm head; a float Cast of a Shape. */
    private static ModelProto model() {
        GraphBuilder g = new GraphBuilder("conv-test", 3);
        String x = g.input("x", DType.FLOAT32, "batch", 8L);
        String h = g.op("MatMul", "mm", List.of(x, g.uniform("w", 0.5, 8, 6)));
        h = g.op("Add", "bias", List.of(h, g.uniform("b", 0.1, 6)));
        String k = g.vector("k", 2);
        List<String> top = g.opN("TopK", "top", 2, List.of(h, k));
        String gemm = g.op("Gemm", "head", List.of(h, g.uniform("wh", 0.5, 4, 6), g.uniform("bh", 0.1, 4)),
                GraphBuilder.attr("transB", 1L));
        String len = g.op("Cast", "len", List.of(g.op("Shape", "shape", List.of(x))), GraphBuilder.attr("to", 1L));
        g.opInto("Identity", "values", List.of(top.get(0)));
        g.opInto("Identity", "indices", List.of(top.get(1)));
        g.opInto("Identity", "logits", List.of(gemm));
        g.opInto("Identity", "length", List.of(len));
        g.output("values", DType.FLOAT32, "batch", 2L);
        g.output("indices", DType.INT64, "batch", 2L);
        g.output("logits", DType.FLOAT32, "batch", 4L);
        g.output("length", DType.FLOAT32, 2L);
        return g.build("converter test");
    }

    private static NodeProto node(GraphProto g, String op) {
        return g.getNodeList().stream().filter(n -> n.getOpType().equals(op)).findFirst().orElseThrow();
    }

    @Test
    void fp16KeepsFloat32EdgesAndTheBlockedOpInFloat32() {
        ModelProto m = Float16Converter.convert(model());
        GraphProto g = m.getGraph();
        // weights are float16; the graph's inputs and outputs are still float32
        assertThat(g.getInitializerList()).filteredOn(t -> t.getName().equals("w")).singleElement()
                .satisfies(t -> assertThat(t.getDataType()).isEqualTo(TensorProto.DataType.FLOAT16_VALUE));
        assertThat(g.getInput(0).getType().getTensorType().getElemType()).isEqualTo(TensorProto.DataType.FLOAT_VALUE);
        assertThat(g.getOutputList()).allSatisfy(o -> assertThat(o.getType().getTensorType().getElemType())
                .isIn(TensorProto.DataType.FLOAT_VALUE, TensorProto.DataType.INT64_VALUE));
        // a Cast to float16 right after the input, a Cast to float32 before each float output
        assertThat(g.getNode(0).getOpType()).isEqualTo("Cast");
        assertThat(g.getNode(0).getInput(0)).isEqualTo("x");
        assertThat(g.getNodeList()).filteredOn(n -> n.getOutputCount() == 1 && n.getOutput(0).equals("logits"))
                .singleElement().satisfies(n -> assertThat(n.getOpType()).isEqualTo("Cast"));
        // TopK is on the block list: it is fed float32 and its float output cast back to float16
        NodeProto topk = node(g, "TopK");
        NodeProto feed = g.getNodeList().stream().filter(n -> n.getOutputCount() == 1 && n.getOutput(0).equals(topk.getInput(0)))
                .findFirst().orElseThrow();
        assertThat(feed.getOpType()).isEqualTo("Cast");
        assertThat(feed.getAttribute(0).getI()).isEqualTo(TensorProto.DataType.FLOAT_VALUE);
        assertThat(topk.getOutput(0)).endsWith("/fp32");
        assertThat(topk.getOutput(1)).as("the int64 indices are untouched").endsWith(":1").doesNotContain("fp32");
        // the Cast of a Shape to float follows the float edges into float16
        NodeProto len = g.getNodeList().stream().filter(n -> n.getName().startsWith("len")).findFirst().orElseThrow();
        assertThat(len.getAttributeList()).filteredOn(a -> a.getName().equals("to")).singleElement()
                .satisfies(a -> assertThat(a.getI()).isEqualTo(TensorProto.DataType.FLOAT16_VALUE));
        assertThat(OnnxModels.precision(m)).isEqualTo(Precision.FP16);
    }

    /**
     * Found when tried: the Llama-style decoder's fp16 variant gave NaN logits natively and on wasm; its mask's large negative
     * became float16's -inf. ONNX Runtime's converter clamps constants to +-1e4 (and tiny ones to +-1e-7); so does this one.
     */
    @Test
    void fp16ClampsConstantsAsOnnxRuntimesConverterDoes() {
        TensorProto t = TensorProto.newBuilder().setName("mask").setDataType(TensorProto.DataType.FLOAT_VALUE).addDims(4)
                .addFloatData(-1e9f).addFloatData(3e4f).addFloatData(1e-9f).addFloatData(0.5f).build();
        double[] half = dev.accelbridge.suites.onnx.OnnxTensors.fromProto(Float16Converter.toHalf(t), null).toDoubles();
        assertThat(half[0]).isEqualTo(-1e4, org.assertj.core.api.Assertions.within(8.0));
        assertThat(half[1]).isEqualTo(1e4, org.assertj.core.api.Assertions.within(8.0));
        assertThat(half[2]).isPositive().isLessThan(2e-7);
        assertThat(half[3]).isEqualTo(0.5);
    }

    @Test
    void int8QuantizesMatMulAndGemmWeightsAsQuantizeDynamicDoes() {
        DynamicQuantizer.Result r = DynamicQuantizer.quantize(model());
        GraphProto g = r.model().getGraph();
        assertThat(r.quantizedNodes()).isEqualTo(2);
        assertThat(g.getNodeList()).extracting(NodeProto::getOpType).doesNotContain("MatMul", "Gemm")
                .contains("DynamicQuantizeLinear", "MatMulInteger", "Cast", "Mul", "Add");
        TensorProto w = g.getInitializerList().stream().filter(t -> t.getName().equals("w_quantized")).findFirst().orElseThrow();
        assertThat(w.getDataType()).isEqualTo(TensorProto.DataType.INT8_VALUE);
        assertThat(w.getDimsList()).containsExactly(8L, 6L);
        // Gemm's transB weight [4, 6] is stored transposed for MatMulInteger: [6, 4]
        assertThat(g.getInitializerList()).filteredOn(t -> t.getName().equals("wh_quantized")).singleElement()
                .satisfies(t -> assertThat(t.getDimsList()).containsExactly(6L, 4L));
        assertThat(g.getInitializerList()).extracting(TensorProto::getName).doesNotContain("w", "wh");
        assertThat(OnnxModels.precision(r.model())).isEqualTo(Precision.INT8);
    }

    @Test
    void symmetricInt8ScaleMapsTheLargestWeightTo64AndRoundsHalfToEven() {
        // 7 bits (reduce_range): ONNX Runtime's uint8 x int8 kernel without VNNI saturates on full-range weights
        DynamicQuantizer.Quantized q = DynamicQuantizer.Quantized.int8(new float[] {-0.5f, 0.25f, 1.0f, 0f, 2.5f / 64});
        assertThat(q.scale()).isEqualTo(1f / 64);
        assertThat(q.q()).containsExactly((byte) -32, (byte) 16, (byte) 64, (byte) 0, (byte) 2);
        DynamicQuantizer.Quantized u = DynamicQuantizer.Quantized.uint8(new float[] {-1f, 0f, 1f});
        assertThat(u.zeroPoint()).isBetween(127, 128);
        assertThat(u.q()[1] & 0xff).as("zero is exact: it is the zero point").isEqualTo(u.zeroPoint());
        assertThat(u.q()[0] & 0xff).isEqualTo(0);
        assertThat(u.q()[2] & 0xff).isGreaterThanOrEqualTo(254);
    }

    @Test
    void controlFlowAndExternalWeightsAreRefusedNotGuessed() {
        ModelProto m = model();
        ModelProto withIf = m.toBuilder().setGraph(m.getGraph().toBuilder().addNode(NodeProto.newBuilder().setOpType("If")
                .addAttribute(AttributeProto.newBuilder().setName("then_branch").setType(AttributeProto.AttributeType.GRAPH)
                        .setG(GraphProto.newBuilder().setName("then"))))).build();
        assertThatThrownBy(() -> Float16Converter.convert(withIf)).isInstanceOf(ConversionException.class).hasMessageContaining("control-flow");
        ModelProto external = m.toBuilder().setGraph(m.getGraph().toBuilder().setInitializer(0, m.getGraph().getInitializer(0)
                .toBuilder().clearRawData().setDataLocation(TensorProto.DataLocation.EXTERNAL))).build();
        assertThatThrownBy(() -> DynamicQuantizer.quantize(external)).isInstanceOf(ConversionException.class)
                .hasMessageContaining("external data");
    }
}
