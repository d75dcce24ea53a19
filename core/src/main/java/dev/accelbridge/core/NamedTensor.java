package dev.accelbridge.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One tensor: name, element type, shape and its raw little-endian bytes. The byte form is what travels to
 * the browser as a binary WebSocket frame and what DJL and ONNX Runtime are fed, so every backend sees the
 * very same bits.
 *
 * @param name  the graph input or output name
 * @param dtype element type
 * @param shape dimensions (all known)
 * @param data  little-endian element bytes, {@code product(shape) * dtype.byteSize()} long
 */
public record NamedTensor(String name, DType dtype, long[] shape, byte[] data) {

    /** Validates that the byte length matches the shape. */
    public NamedTensor {
        long n = elementCount(shape);
        if (n * dtype.byteSize() != data.length) {
            throw new AccelbridgeException("Tensor '" + name + "' has " + data.length + " bytes but shape "
                    + Arrays.toString(shape) + " of " + dtype.webName() + " needs " + n * dtype.byteSize(),
                    "check the input's shape and type");
        }
    }

    /** Number of elements of a shape. */
    public static long elementCount(long[] shape) {
        long n = 1;
        for (long d : shape) {
            if (d < 0) {
                throw new AccelbridgeException("Shape " + Arrays.toString(shape) + " has an unknown dimension",
                        "give the input with concrete dimensions");
            }
            n *= d;
        }
        return n;
    }

    /** Number of elements. */
    public long size() {
        return elementCount(shape);
    }

    /** A float32 tensor. */
    public static NamedTensor ofFloats(String name, long[] shape, float[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(values);
        return new NamedTensor(name, DType.FLOAT32, shape.clone(), b.array());
    }

    /** An int64 tensor. */
    public static NamedTensor ofLongs(String name, long[] shape, long[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asLongBuffer().put(values);
        return new NamedTensor(name, DType.INT64, shape.clone(), b.array());
    }

    /**
     * This tensor at batch {@code b}: item {@code k} along dimension 0 is this tensor's item {@code k mod n} (n its own
     * leading dimension), so a batch holds the same items in the same order whatever its size.
     */
    public NamedTensor atBatch(int b) {
        if (shape.length == 0 || shape[0] < 1) {
            throw new AccelbridgeException("Tensor '" + name + "' has no leading (batch) dimension to resize", "feed it as is");
        }
        int n = (int) shape[0];
        int item = data.length / n;
        byte[] out = new byte[item * b];
        for (int k = 0; k < b; k++) {
            System.arraycopy(data, (k % n) * item, out, k * item, item);
        }
        long[] s = shape.clone();
        s[0] = b;
        return new NamedTensor(name, dtype, s, out);
    }

    /** Item {@code k} along dimension 0, as a batch of one. */
    public NamedTensor item(int k) {
        if (shape.length == 0 || k < 0 || k >= shape[0]) {
            throw new AccelbridgeException("Tensor '" + name + "' has no item " + k + " (shape " + Arrays.toString(shape) + ")",
                    "ask for an item below the leading dimension");
        }
        int item = (int) (data.length / shape[0]);
        long[] s = shape.clone();
        s[0] = 1;
        return new NamedTensor(name, dtype, s, Arrays.copyOfRange(data, k * item, (k + 1) * item));
    }

    /** A little-endian view of the bytes. */
    public ByteBuffer buffer() {
        return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The values widened to double, whatever the element type (for parity checks). */
    public double[] toDoubles() {
        int n = (int) size();
        double[] out = new double[n];
        ByteBuffer b = buffer();
        for (int i = 0; i < n; i++) {
            out[i] = valueAt(b, dtype, i);
        }
        return out;
    }

    /**
     * Element {@code i} of the little-endian view {@code b} of a tensor of {@code dtype}, widened to double: what lets
     * parity stream over an output without a widened copy of it.
     */
    public static double valueAt(ByteBuffer b, DType dtype, int i) {
        return switch (dtype) {
            case FLOAT32 -> b.getFloat(i * 4);
            case FLOAT64 -> b.getDouble(i * 8);
            case FLOAT16 -> Float16.toFloat(b.getShort(i * 2));
            case INT64 -> b.getLong(i * 8);
            case INT32 -> b.getInt(i * 4);
            case INT8 -> b.get(i);
            case UINT8 -> b.get(i) & 0xff;
            case BOOL -> b.get(i) != 0 ? 1 : 0;
        };
    }

    /** The values as float (float32 tensors only, no copy semantics promised). */
    public float[] toFloats() {
        if (dtype != DType.FLOAT32) {
            throw new AccelbridgeException("Tensor '" + name + "' is " + dtype.webName() + ", not float32", null);
        }
        float[] out = new float[(int) size()];
        buffer().asFloatBuffer().get(out);
        return out;
    }

    /** The values as long (int64 tensors only). */
    public long[] toLongs() {
        if (dtype != DType.INT64) {
            throw new AccelbridgeException("Tensor '" + name + "' is " + dtype.webName() + ", not int64", null);
        }
        long[] out = new long[(int) size()];
        buffer().asLongBuffer().get(out);
        return out;
    }

    /** The same data under another name. */
    public NamedTensor withName(String newName) {
        return new NamedTensor(newName, dtype, shape, data);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NamedTensor t && name.equals(t.name) && dtype == t.dtype
                && Arrays.equals(shape, t.shape) && Arrays.equals(data, t.data);
    }

    /**
     * Name, shape, length and at most 64 bytes sampled across the data: consistent with {@link #equals} (equal tensors
     * sample the same bytes) without hashing every byte, since cases holding a tensor of hundreds of MB are map keys.
     */
    @Override
    public int hashCode() {
        int h = 31 * (31 * name.hashCode() + Arrays.hashCode(shape)) + data.length;
        int step = Math.max(1, data.length / 64);
        for (int i = 0; i < data.length; i += step) {
            h = 31 * h + data[i];
        }
        return h;
    }

    @Override
    public String toString() {
        return name + ":" + dtype.webName() + Arrays.toString(shape);
    }
}
