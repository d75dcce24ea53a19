package dev.accelbridge.nativerunner;


import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.proto.Onnx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Test helper: a real ONNX model (IR 8, opset 17) authored with the suites' {@link GraphBuilder}, whose
 * weights the tests keep to compute the expected output by hand. The graph is an MLP
 * {@code y = (Relu(x·W1 + b1))·W2 + b2} (the hidden layer repeated {@code layers} times) on float32 input
 * {@code x[batch, in]} with a symbolic batch dimension. Field numbers follow onnx.proto.
 */
public final class TinyOnnx {
    /** The model's weights, kept so tests can compute the expected output by hand. */
    public record Mlp(int in, int hidden, int out, int layers, List<float[]> weights, List<float[]> biases, byte[] bytes) {
        /** Reference forward pass in double precision. */
        public double[] forward(float[] x, int batch) {
            double[] cur = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                cur[i] = x[i];
            }
            int width = in;
            for (int l = 0; l < weights.size(); l++) {
                float[] w = weights.get(l);
                float[] b = biases.get(l);
                int next = b.length;
                double[] y = new double[batch * next];
                for (int r = 0; r < batch; r++) {
                    for (int c = 0; c < next; c++) {
                        double s = b[c];
                        for (int k = 0; k < width; k++) {
                            s += cur[r * width + k] * w[k * next + c];
                        }
                        y[r * next + c] = l < weights.size() - 1 ? Math.max(0, s) : s;
                    }
                }
                cur = y;
                width = next;
            }
            return cur;
        }
    }

    private TinyOnnx() {
    }

    /** A 4 → 3 → 2 MLP (one hidden layer) with seeded weights. */
    public static Mlp small() {
        return mlp(4, 3, 2, 1, 7L);
    }

    /** An MLP {@code in → hidden (× layers) → out} with weights drawn from a seeded generator. */
    public static Mlp mlp(int in, int hidden, int out, int layers, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<float[]> ws = new ArrayList<>();
        List<float[]> bs = new ArrayList<>();
        GraphBuilder g = new GraphBuilder("tiny_mlp", seed);
        String cur = g.input("x", DType.FLOAT32, "batch", in);
        int width = in;
        for (int l = 0; l <= layers; l++) {
            int next = l == layers ? out : hidden;
            float[] w = new float[width * next];
            float[] b = new float[next];
            double scale = 1.0 / Math.sqrt(width);
            for (int i = 0; i < w.length; i++) {
                w[i] = (float) ((rnd.nextDouble() * 2 - 1) * scale);
            }
            for (int i = 0; i < b.length; i++) {
                b[i] = (float) (rnd.nextDouble() * 0.2 - 0.1);
            }
            ws.add(w);
            bs.add(b);
            String mm = g.op("MatMul", "mm" + l, List.of(cur, g.floats("W" + l, w, width, next)));
            String bias = g.floats("B" + l, b, next);
            cur = l == layers ? g.opInto("Add", "y", List.of(mm, bias)) : g.op("Relu", "relu" + l, List.of(g.op("Add", "add" + l, List.of(mm, bias))));
            width = next;
        }
        g.output("y", DType.FLOAT32, "batch", out);
        byte[] bytes = g.build("accelbridge native-runner test MLP").toByteArray();
        return new Mlp(in, hidden, out, layers, ws, bs, bytes);
    }

    /** Writes the model to {@code dir/name.onnx} and describes it as a core ModelSpec. */
    public static ModelSpec write(Mlp mlp, Path dir, String name) throws IOException {
        Path p = dir.resolve(name + ".onnx");
        Files.write(p, mlp.bytes());
        long params = 0;
        for (int i = 0; i < mlp.weights().size(); i++) {
            params += mlp.weights().get(i).length + mlp.biases().get(i).length;
        }
        return new ModelSpec(ModelFamily.OTHER, name, p, sha256(mlp.bytes()), GraphBuilder.OPSET, params,
                List.of("Add", "MatMul", "Relu"),
                List.of(new TensorSpec("x", DType.FLOAT32, new long[] {-1, mlp.in()})),
                List.of(new TensorSpec("y", DType.FLOAT32, new long[] {-1, mlp.out()})), "generated", 1e-4);
    }

    public static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Onnx.ValueInfoProto value(String name, int type, long... dims) {
        Onnx.TensorShapeProto.Builder shape = Onnx.TensorShapeProto.newBuilder();
        for (long d : dims) {
            shape.addDim(Onnx.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        return Onnx.ValueInfoProto.newBuilder().setName(name).setType(Onnx.TypeProto.newBuilder().setTensorType(
                Onnx.TypeProto.Tensor.newBuilder().setElemType(type).setShape(shape))).build();
    }

    /**
     * y = x after a Loop of 10^12 iterations whose body passes its value through: a model of a few hundred bytes whose one run
     * never ends, written to {@code dir/endless.onnx}.
     */
    public static Path endlessLoop(Path dir) throws IOException {
        int f32 = Onnx.TensorProto.DataType.FLOAT_VALUE;
        Onnx.GraphProto body = Onnx.GraphProto.newBuilder().setName("body")
                .addInput(value("i", Onnx.TensorProto.DataType.INT64_VALUE)).addInput(value("c", Onnx.TensorProto.DataType.BOOL_VALUE))
                .addInput(value("v", f32, 1))
                .addNode(Onnx.NodeProto.newBuilder().setOpType("Identity").setName("keep").addInput("c").addOutput("c_out"))
                .addNode(Onnx.NodeProto.newBuilder().setOpType("Identity").setName("pass").addInput("v").addOutput("v_out"))
                .addOutput(value("c_out", Onnx.TensorProto.DataType.BOOL_VALUE)).addOutput(value("v_out", f32, 1)).build();
        Onnx.GraphProto g = Onnx.GraphProto.newBuilder().setName("endless")
                .addInitializer(Onnx.TensorProto.newBuilder().setName("M").setDataType(Onnx.TensorProto.DataType.INT64_VALUE).addInt64Data(1_000_000_000_000L))
                .addInitializer(Onnx.TensorProto.newBuilder().setName("go").setDataType(Onnx.TensorProto.DataType.BOOL_VALUE).addInt32Data(1))
                .addInput(value("x", f32, 1))
                .addNode(Onnx.NodeProto.newBuilder().setOpType("Loop").setName("loop").addInput("M").addInput("go").addInput("x").addOutput("y")
                        .addAttribute(Onnx.AttributeProto.newBuilder().setName("body").setType(Onnx.AttributeProto.AttributeType.GRAPH).setG(body)))
                .addOutput(value("y", f32, 1)).build();
        Onnx.ModelProto m = Onnx.ModelProto.newBuilder().setIrVersion(8).addOpsetImport(Onnx.OperatorSetIdProto.newBuilder().setVersion(13)).setGraph(g).build();
        return Files.write(dir.resolve("endless.onnx"), m.toByteArray());
    }
}
