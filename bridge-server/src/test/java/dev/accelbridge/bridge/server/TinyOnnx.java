package dev.accelbridge.bridge.server;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.TensorSpec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Test helper: writes a real ONNX model (IR 8, opset 13) with a tiny hand-rolled protobuf writer, so the
 * native runner's tests do not depend on the test-suites module. The graph is an MLP
 * {@code y = (Relu(x·W1 + b1))·W2 + b2} (the hidden layer repeated {@code layers} times) on float32 input
 * {@code x[batch, in]} with a symbolic batch dimension. Field numbers follow onnx.proto.
 */
final class TinyOnnx {
    /** The model's weights, kept so tests can compute the expected output by hand. */
    record Mlp(int in, int hidden, int out, int layers, List<float[]> weights, List<float[]> biases, byte[] bytes) {
        /** Reference forward pass in double precision. */
        double[] forward(float[] x, int batch) {
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
    static Mlp small() {
        return mlp(4, 3, 2, 1, 7L);
    }

    /** An MLP {@code in → hidden (× layers) → out} with weights drawn from a seeded generator. */
    static Mlp mlp(int in, int hidden, int out, int layers, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<float[]> ws = new ArrayList<>();
        List<float[]> bs = new ArrayList<>();
        List<byte[]> nodes = new ArrayList<>();
        List<byte[]> inits = new ArrayList<>();
        String cur = "x";
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
            inits.add(tensor("W" + l, new long[] {width, next}, w));
            inits.add(tensor("B" + l, new long[] {next}, b));
            String mm = "mm" + l;
            String add = l == layers ? "y" : "add" + l;
            nodes.add(node("MatMul", List.of(cur, "W" + l), mm));
            nodes.add(node("Add", List.of(mm, "B" + l), add));
            cur = add;
            if (l < layers) {
                nodes.add(node("Relu", List.of(add), "relu" + l));
                cur = "relu" + l;
            }
            width = next;
        }
        Pb graph = new Pb();
        nodes.forEach(n -> graph.bytes(1, n));
        graph.string(2, "tiny_mlp");
        inits.forEach(t -> graph.bytes(5, t));
        graph.bytes(11, valueInfo("x", in));
        graph.bytes(12, valueInfo("y", out));
        Pb model = new Pb();
        model.varint(1, 8); // ir_version
        model.string(2, "accelbridge-bridge-server-test"); // producer_name
        model.bytes(7, graph.toBytes());
        model.bytes(8, new Pb().string(1, "").varint(2, 13).toBytes()); // opset_import: default domain, 13
        return new Mlp(in, hidden, out, layers, ws, bs, model.toBytes());
    }

    /** Writes the model to {@code dir/name.onnx} and describes it as a core ModelSpec. */
    static ModelSpec write(Mlp mlp, Path dir, String name) throws IOException {
        Path p = dir.resolve(name + ".onnx");
        Files.write(p, mlp.bytes());
        long params = 0;
        for (int i = 0; i < mlp.weights().size(); i++) {
            params += mlp.weights().get(i).length + mlp.biases().get(i).length;
        }
        return new ModelSpec(ModelFamily.OTHER, name, p, sha256(mlp.bytes()), 13, params,
                List.of("Add", "MatMul", "Relu"),
                List.of(new TensorSpec("x", DType.FLOAT32, new long[] {-1, mlp.in()})),
                List.of(new TensorSpec("y", DType.FLOAT32, new long[] {-1, mlp.out()})), "generated", 1e-4);
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] node(String op, List<String> inputs, String output) {
        Pb n = new Pb();
        inputs.forEach(i -> n.string(1, i));
        n.string(2, output);
        n.string(3, op + "_" + output);
        n.string(4, op);
        return n.toBytes();
    }

    private static byte[] tensor(String name, long[] dims, float[] values) {
        Pb t = new Pb();
        for (long d : dims) {
            t.varint(1, d);
        }
        t.varint(2, 1); // FLOAT
        t.string(8, name);
        ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        raw.asFloatBuffer().put(values);
        t.bytes(9, raw.array());
        return t.toBytes();
    }

    /** ValueInfoProto for float32 {@code [batch, width]}. */
    private static byte[] valueInfo(String name, int width) {
        Pb shape = new Pb()
                .bytes(1, new Pb().string(2, "batch").toBytes())
                .bytes(1, new Pb().varint(1, width).toBytes());
        Pb tensorType = new Pb().varint(1, 1).bytes(2, shape.toBytes());
        Pb type = new Pb().bytes(1, tensorType.toBytes());
        return new Pb().string(1, name).bytes(2, type.toBytes()).toBytes();
    }

    /** Minimal protobuf wire-format writer: varint (type 0) and length-delimited (type 2) fields. */
    static final class Pb {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Pb varint(int field, long v) {
            raw((long) field << 3);
            raw(v);
            return this;
        }

        Pb bytes(int field, byte[] b) {
            raw(((long) field << 3) | 2);
            raw(b.length);
            out.writeBytes(b);
            return this;
        }

        Pb string(int field, String s) {
            return bytes(field, s.getBytes(StandardCharsets.UTF_8));
        }

        private void raw(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }

        byte[] toBytes() {
            return out.toByteArray();
        }
    }
}
