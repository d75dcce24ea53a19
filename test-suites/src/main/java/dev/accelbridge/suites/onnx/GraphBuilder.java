package dev.accelbridge.suites.onnx;

import com.google.protobuf.ByteString;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.OperatorSetIdProto;
import dev.accelbridge.suites.onnx.proto.Onnx.StringStringEntryProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorShapeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TypeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A small fluent builder for ONNX graphs with seeded weights. It writes IR version 8 with the default
 * domain at opset 17, which ONNX Runtime and onnxruntime-web both load.
 *
 * <p>Determinism: every weight is drawn, in creation order, from one {@link SplittableRandom} seeded with
 * the seed given here (its {@code nextDouble} algorithm is specified, not JDK-dependent), and the model is
 * serialized with no maps and no timestamps, so the same seed and the same build calls give the same bytes.
 *
 * <p>It also keeps two running figures the suite documents: the parameter count (elements of every
 * initializer) and an approximate FLOP count that the layer helpers add for their matrix products.
 */
public final class GraphBuilder {
    /** ONNX IR version written. */
    public static final long IR_VERSION = 8;
    /** Default-domain opset imported. */
    public static final long OPSET = 17;

    private final GraphProto.Builder graph = GraphProto.newBuilder();
    private final SplittableRandom rng;
    private final Set<String> names = new HashSet<>();
    private final Set<String> ops = new java.util.TreeSet<>();
    private final Set<String> domains = new java.util.TreeSet<>();
    private int counter;
    private long parameters;
    private double flops;

    /**
     * @param graphName name stored in the graph
     * @param seed      seed of every weight this builder draws
     */
    public GraphBuilder(String graphName, long seed) {
        graph.setName(graphName);
        rng = new SplittableRandom(seed);
    }

    /** An attribute of a node. */
    public record Attr(AttributeProto proto) {
    }

    /** An int attribute. */
    public static Attr attr(String name, long value) {
        return new Attr(AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INT).setI(value).build());
    }

    /** A float attribute. */
    public static Attr attr(String name, float value) {
        return new Attr(AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.FLOAT).setF(value).build());
    }

    /** A string attribute. */
    public static Attr attr(String name, String value) {
        return new Attr(AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.STRING)
                .setS(ByteString.copyFromUtf8(value)).build());
    }

    /** An ints attribute. */
    public static Attr ints(String name, long... values) {
        AttributeProto.Builder b = AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INTS);
        for (long v : values) {
            b.addInts(v);
        }
        return new Attr(b.build());
    }

    // ---------------------------------------------------------------- inputs, outputs, value infos

    /**
     * Declares a graph input. Each dim is a {@link Number} (concrete) or a {@link String} (symbolic, e.g.
     * "batch").
     */
    public String input(String name, DType dtype, Object... dims) {
        claim(name);
        graph.addInput(info(name, dtype, dims));
        return name;
    }

    /** Declares a graph output (a value some node produces). */
    public GraphBuilder output(String name, DType dtype, Object... dims) {
        graph.addOutput(info(name, dtype, dims));
        return this;
    }

    /**
     * Declares a graph output with its element type only: single-op models leave the shape to the runtime's own
     * inference, so a declared shape can never be the thing under test.
     */
    public GraphBuilder outputOfType(String name, DType dtype) {
        graph.addOutput(ValueInfoProto.newBuilder().setName(name)
                .setType(TypeProto.newBuilder().setTensorType(TypeProto.Tensor.newBuilder().setElemType(dtype.onnxCode()))).build());
        return this;
    }

    /** Records the type and shape of an intermediate value (helps readers such as Netron). */
    public GraphBuilder valueInfo(String name, DType dtype, Object... dims) {
        graph.addValueInfo(info(name, dtype, dims));
        return this;
    }

    private static ValueInfoProto info(String name, DType dtype, Object... dims) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (Object d : dims) {
            TensorShapeProto.Dimension.Builder dim = TensorShapeProto.Dimension.newBuilder();
            if (d instanceof Number n) {
                dim.setDimValue(n.longValue());
            } else {
                dim.setDimParam(String.valueOf(d));
            }
            shape.addDim(dim);
        }
        return ValueInfoProto.newBuilder().setName(name)
                .setType(TypeProto.newBuilder().setTensorType(TypeProto.Tensor.newBuilder()
                        .setElemType(dtype.onnxCode()).setShape(shape)))
                .build();
    }

    // ---------------------------------------------------------------- initializers

    /** A float weight drawn uniformly from {@code [-bound, bound)} with this builder's seeded stream. */
    public String uniform(String name, double bound, long... shape) {
        return uniform(name, 0.0, bound, shape);
    }

    /** A float weight drawn uniformly from {@code [center - bound, center + bound)}. */
    public String uniform(String name, double center, double bound, long... shape) {
        float[] v = new float[(int) count(shape)];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (center + (rng.nextDouble() * 2 - 1) * bound);
        }
        return floats(name, v, shape);
    }

    /** A float weight drawn uniformly from {@code [lo, hi)}. */
    public String uniformRange(String name, double lo, double hi, long... shape) {
        float[] v = new float[(int) count(shape)];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (lo + rng.nextDouble() * (hi - lo));
        }
        return floats(name, v, shape);
    }

    /** A float initializer with the given values. */
    public String floats(String name, float[] values, long... shape) {
        checkCount(name, values.length, shape);
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(values);
        return initializer(name, DType.FLOAT32, b.array(), shape);
    }

    /** An int64 initializer with the given values (shapes, axes, indices). */
    public String longs(String name, long[] values, long... shape) {
        checkCount(name, values.length, shape);
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asLongBuffer().put(values);
        return initializer(name, DType.INT64, b.array(), shape);
    }

    /** An initializer of any type, holding {@code t}'s bytes under {@code name}. */
    public String constant(String name, NamedTensor t) {
        return initializer(name, t.dtype(), t.data(), t.shape());
    }

    /** A float scalar constant (rank 0). */
    public String scalar(String name, float value) {
        return floats(name, new float[] {value});
    }

    /** An int64 vector constant. */
    public String vector(String name, long... values) {
        return longs(name, values, values.length);
    }

    private String initializer(String name, DType dtype, byte[] raw, long... shape) {
        claim(name);
        TensorProto.Builder t = TensorProto.newBuilder().setName(name).setDataType(dtype.onnxCode())
                .setRawData(ByteString.copyFrom(raw));
        for (long d : shape) {
            t.addDims(d);
        }
        graph.addInitializer(t);
        parameters += count(shape);
        return name;
    }

    // ---------------------------------------------------------------- nodes

    /** Adds a node with one output, named after {@code prefix}; returns the output name. */
    public String op(String opType, String prefix, List<String> inputs, Attr... attrs) {
        return opN(opType, prefix, 1, inputs, attrs).get(0);
    }

    /** Adds a node with {@code outputs} outputs; returns their names. */
    public List<String> opN(String opType, String prefix, int outputs, List<String> inputs, Attr... attrs) {
        List<String> outs = new ArrayList<>();
        String base = prefix + "/" + opType + "_" + (counter++);
        for (int i = 0; i < outputs; i++) {
            outs.add(base + (outputs == 1 ? "" : ":" + i));
        }
        node(opType, base, inputs, outs, attrs);
        return outs;
    }

    /** Adds a node writing to the given output name (e.g. a graph output). */
    public String opInto(String opType, String output, List<String> inputs, Attr... attrs) {
        node(opType, output + "/" + opType, inputs, List.of(output), attrs);
        return output;
    }

    /** Adds one node named {@code nodeName} reading {@code inputs} ("" for an omitted optional input) into {@code outputs}. */
    public GraphBuilder nodeInto(String opType, String nodeName, List<String> inputs, List<String> outputs, Attr... attrs) {
        node(opType, nodeName, inputs, outputs, attrs);
        return this;
    }

    /**
     * Adds a node. An operator of another domain than the default is written with its domain in front
     * ({@code com.microsoft.GroupQueryAttention}: op types have no dots); the model then imports that domain at opset 1.
     */
    private void node(String opType, String nodeName, List<String> inputs, List<String> outputs, Attr... attrs) {
        int dot = opType.lastIndexOf('.');
        NodeProto.Builder n = NodeProto.newBuilder().setOpType(opType.substring(dot + 1)).setName(nodeName)
                .addAllInput(inputs).addAllOutput(outputs);
        if (dot > 0) {
            n.setDomain(opType.substring(0, dot));
            domains.add(opType.substring(0, dot));
        }
        for (String o : outputs) {
            if (!o.isEmpty()) { // an optional output left out
                claim(o);
            }
        }
        for (Attr a : attrs) {
            n.addAttribute(a.proto());
        }
        graph.addNode(n);
        ops.add(opType);
    }

    // ---------------------------------------------------------------- figures

    /** Adds {@code n} floating point operations to the running estimate. */
    public GraphBuilder addFlops(double n) {
        flops += n;
        return this;
    }

    /** Elements in all initializers so far. */
    public long parameters() {
        return parameters;
    }

    /** Approximate FLOPs per inference added by the layer helpers. */
    public double flops() {
        return flops;
    }

    /** Distinct op types used so far, sorted. */
    public List<String> ops() {
        return List.copyOf(ops);
    }

    /** The model: IR 8, opset 17, producer "accelbridge". */
    public ModelProto build(String docString) {
        return build(docString, OPSET);
    }

    /**
     * The model at another default-domain opset, with the IR version that opset came with (8 up to 17, 9 for 18–20,
     * 10 for 21–22, 11 from 23), so a runtime that checks the pair accepts it.
     */
    public ModelProto build(String docString, long opset) {
        long ir = opset <= 17 ? IR_VERSION : opset <= 20 ? 9 : opset <= 22 ? 10 : 11;
        return ModelProto.newBuilder()
                .setIrVersion(ir)
                .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(opset))
                .addAllOpsetImport(domains.stream().map(d -> OperatorSetIdProto.newBuilder().setDomain(d).setVersion(1).build()).toList())
                .setProducerName("accelbridge")
                .setProducerVersion("1")
                .setDocString(docString)
                .setGraph(graph.build())
                .addMetadataProps(StringStringEntryProto.newBuilder().setKey("generator").setValue("dev.accelbridge.suites"))
                .build();
    }

    private void claim(String name) {
        if (!names.add(name)) {
            throw new IllegalStateException("duplicate value name in graph: " + name);
        }
    }

    private static long count(long... shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    private static void checkCount(String name, int length, long... shape) {
        if (count(shape) != length) {
            throw new IllegalArgumentException(name + ": " + length + " values for shape " + java.util.Arrays.toString(shape));
        }
    }
}
