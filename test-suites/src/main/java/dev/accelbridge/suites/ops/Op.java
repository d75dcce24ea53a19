package dev.accelbridge.suites.ops;

import com.google.protobuf.ByteString;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.OpVariant;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes one op case in a line: {@code op("ReduceSum", 13).in(F32, 2, 3, 4).ints(1).a("keepdims", 0).v("f32.axes=1.keepdims=0")}.
 * Fed inputs are named {@code x0, x1, ...}, constants {@code c0, c1, ...}, outputs {@code y0, y1, ...}.
 */
final class Op {
    private final String type;
    private final int opset;
    private final String domain;
    private final List<OpCase.Input> inputs = new ArrayList<>();
    private final List<GraphBuilder.Attr> attrs = new ArrayList<>();
    private final List<DType> outs = new ArrayList<>();

    private Op(String type, int opset, String domain) {
        this.type = type;
        this.opset = opset;
        this.domain = domain;
    }

    static Op op(String type, int opset) {
        return new Op(type, opset, "");
    }

    /** An operator of ONNX Runtime's contrib domain ({@code com.microsoft}, opset 1). */
    static Op ms(String type) {
        return new Op(type, 1, OpVariant.MS_DOMAIN);
    }

    /** A fed input of uniform values in [-2, 2]. */
    Op in(DType t, long... shape) {
        return in(t, Gen.NORMAL, shape);
    }

    /** A fed input made by {@code g}. */
    Op in(DType t, Gen g, long... shape) {
        inputs.add(new OpCase.Input("x" + inputs.size(), t, shape, g, false));
        return this;
    }

    /** A constant (initializer) made by {@code g}. */
    Op c(DType t, Gen g, long... shape) {
        inputs.add(new OpCase.Input("c" + inputs.size(), t, shape, g, true));
        return this;
    }

    /** A constant int64 vector (axes, shapes, pads, repeats). */
    Op ints(long... values) {
        double[] v = new double[values.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = values[i];
        }
        return c(DType.INT64, Gen.fixed(v), values.length);
    }

    /** A constant scalar (rank 0) of type {@code t}. */
    Op scalar(DType t, double v) {
        return c(t, Gen.fixed(v));
    }

    /** An optional input left out. */
    Op none() {
        inputs.add(new OpCase.Input("", DType.FLOAT32, new long[0], Gen.NORMAL, true));
        return this;
    }

    Op a(String name, long v) {
        attrs.add(GraphBuilder.attr(name, v));
        return this;
    }

    Op a(String name, double v) {
        attrs.add(GraphBuilder.attr(name, (float) v));
        return this;
    }

    Op a(String name, String v) {
        attrs.add(GraphBuilder.attr(name, v));
        return this;
    }

    Op as(String name, long... v) {
        attrs.add(GraphBuilder.ints(name, v));
        return this;
    }

    Op af(String name, double... v) {
        AttributeProto.Builder b = AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.FLOATS);
        for (double x : v) {
            b.addFloats((float) x);
        }
        attrs.add(new GraphBuilder.Attr(b.build()));
        return this;
    }

    /** A tensor attribute of one value ({@code ConstantOfShape}'s {@code value}). */
    Op at(String name, DType t, double v) {
        var tensor = OpModels.fill(t, new long[] {1}, Gen.fixed(v), null);
        TensorProto p = TensorProto.newBuilder().setDataType(t.onnxCode()).addDims(1).setRawData(ByteString.copyFrom(tensor)).build();
        attrs.add(new GraphBuilder.Attr(AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.TENSOR)
                .setT(p).build()));
        return this;
    }

    /** The outputs' element types (default: one output of the first input's type). */
    Op out(DType... types) {
        outs.addAll(List.of(types));
        return this;
    }

    /** The case, under {@code variant}. */
    OpCase v(String variant) {
        List<DType> o = outs.isEmpty() ? List.of(inputs.stream().filter(i -> !i.omitted()).findFirst().orElseThrow().dtype()) : outs;
        return new OpCase(new OpVariant(type, opset, variant, domain), inputs, attrs, o, false);
    }
}
