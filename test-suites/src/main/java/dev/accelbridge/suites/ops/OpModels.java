package dev.accelbridge.suites.ops;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.Float16;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.GeneratedModel;
import dev.accelbridge.suites.onnx.GraphBuilder;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Authors an op case's single-node model and makes its fed inputs, both deterministic from the seed. */
final class OpModels {
    private OpModels() {
    }

    /** The model: the inputs (fed or initializers), one node, outputs declared by type only. */
    static GeneratedModel build(OpCase c, long seed) {
        String name = c.variant().modelName();
        GraphBuilder g = new GraphBuilder(name, seed);
        List<String> ins = new ArrayList<>();
        for (int i = 0; i < c.inputs().size(); i++) {
            OpCase.Input in = c.inputs().get(i);
            if (in.omitted()) {
                ins.add("");
            } else if (in.constant()) {
                ins.add(g.constant(in.name(), tensor(c, i, seed)));
            } else {
                Object[] dims = new Object[in.shape().length];
                for (int d = 0; d < dims.length; d++) {
                    dims[d] = in.shape()[d];
                }
                ins.add(g.input(in.name(), in.dtype(), dims));
            }
        }
        List<String> outs = new ArrayList<>();
        for (int i = 0; i < c.outputs().size(); i++) {
            outs.add("y" + i);
        }
        g.nodeInto(c.variant().qualifiedType(), c.variant().opType(), ins, outs, c.attrs().toArray(GraphBuilder.Attr[]::new));
        for (int i = 0; i < outs.size(); i++) {
            g.outputOfType(outs.get(i), c.outputs().get(i));
        }
        // a contrib op's opset is its own domain's; the default domain is then imported at the project's usual opset
        long opset = c.variant().contrib() ? GraphBuilder.OPSET : c.variant().opset();
        return new GeneratedModel(g.build("Accelbridge op suite: " + c.variant(), opset), Double.NaN);
    }

    /** The fed inputs, in order. */
    static List<NamedTensor> inputs(OpCase c, long seed) {
        List<NamedTensor> out = new ArrayList<>();
        for (int i = 0; i < c.inputs().size(); i++) {
            OpCase.Input in = c.inputs().get(i);
            if (!in.omitted() && !in.constant()) {
                out.add(tensor(c, i, seed));
            }
        }
        return out;
    }

    private static NamedTensor tensor(OpCase c, int index, long seed) {
        OpCase.Input in = c.inputs().get(index);
        // each input its own stream: adding an input to a case never changes the values of the others
        SplittableRandom rng = new SplittableRandom(seed * 31 + c.variant().modelName().hashCode() * 17L + index);
        return new NamedTensor(in.name(), in.dtype(), in.shape(), fill(in.dtype(), in.shape(), in.gen(), rng));
    }

    /** The bytes of a tensor of {@code t} and {@code shape} made by {@code g}. */
    static byte[] fill(DType t, long[] shape, Gen g, SplittableRandom rng) {
        int n = (int) NamedTensor.elementCount(shape);
        double[] v = new double[n];
        boolean integral = !t.isFloat();
        int[] order = null;
        if (g.kind() == Gen.Kind.DISTINCT) {
            order = new int[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                int s = order[i];
                order[i] = order[j];
                order[j] = s;
            }
        }
        for (int i = 0; i < n; i++) {
            v[i] = switch (g.kind()) {
                // integers: the whole numbers inside the range (POSITIVE gives 1..3, never a zero divisor)
                case UNIFORM -> integral ? Math.ceil(g.lo()) + rng.nextLong((long) (Math.floor(g.hi()) - Math.ceil(g.lo())) + 1)
                        : g.lo() + rng.nextDouble() * (g.hi() - g.lo());
                case INTEGERS -> g.lo() + rng.nextLong((long) (g.hi() - g.lo()) + 1);
                case DISTINCT -> integral ? order[i] - n / 2 : (order[i] - n / 2.0) * 0.25;
                case BOOL -> rng.nextBoolean() ? 1 : 0;
                case FIXED -> g.values()[i % g.values().length];
            };
        }
        ByteBuffer b = ByteBuffer.allocate(n * t.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) {
            switch (t) {
                case FLOAT32 -> b.putFloat((float) x);
                case FLOAT16 -> b.putShort(Float16.fromFloat((float) x));
                case FLOAT64 -> b.putDouble(x);
                case INT64 -> b.putLong((long) x);
                case INT32 -> b.putInt((int) x);
                case INT8 -> b.put((byte) Math.max(-128, Math.min(127, (long) x)));
                case UINT8 -> b.put((byte) Math.max(0, Math.min(255, (long) x)));
                case BOOL -> b.put((byte) (x != 0 ? 1 : 0));
            }
        }
        return b.array();
    }
}
