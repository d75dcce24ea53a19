package dev.accelbridge.nativerunner;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/** Moves tensors between core's {@link NamedTensor} (little-endian bytes) and DJL's {@link NDArray}. */
final class Tensors {
    private Tensors() {
    }

    static DataType toDjl(DType t) {
        return switch (t) {
            case FLOAT32 -> DataType.FLOAT32;
            case FLOAT16 -> DataType.FLOAT16;
            case FLOAT64 -> DataType.FLOAT64;
            case INT64 -> DataType.INT64;
            case INT32 -> DataType.INT32;
            case INT8 -> DataType.INT8;
            case UINT8 -> DataType.UINT8;
            case BOOL -> DataType.BOOLEAN;
        };
    }

    /** The core type of a DJL type; null when Accelbridge cannot carry it (strings, bf16, ...). */
    static DType fromDjl(DataType t) {
        return switch (t) {
            case FLOAT32 -> DType.FLOAT32;
            case FLOAT16 -> DType.FLOAT16;
            case FLOAT64 -> DType.FLOAT64;
            case INT64 -> DType.INT64;
            case INT32 -> DType.INT32;
            case INT8 -> DType.INT8;
            case UINT8 -> DType.UINT8;
            case BOOLEAN -> DType.BOOL;
            default -> null;
        };
    }

    /** A named NDArray on {@code manager} holding exactly {@code t}'s bits. */
    static NDArray toNd(NDManager manager, NamedTensor t) {
        // ORT wants a direct buffer in native order; core's bytes are little-endian.
        ByteBuffer direct = ByteBuffer.allocateDirect(t.data().length).order(ByteOrder.nativeOrder());
        direct.put(reorder(t.data(), t.dtype().byteSize(), ByteOrder.LITTLE_ENDIAN, ByteOrder.nativeOrder()));
        direct.rewind();
        NDArray a = manager.create(direct, new Shape(t.shape()), toDjl(t.dtype()));
        a.setName(t.name());
        return a;
    }

    /** A NamedTensor with the array's name, type, shape and little-endian bytes. */
    /** Every tensor, in order, as NDArrays of {@code manager}. */
    static NDList toNd(NDManager manager, List<NamedTensor> tensors) {
        NDList nd = new NDList();
        for (NamedTensor t : tensors) {
            nd.add(toNd(manager, t));
        }
        return nd;
    }

    static NamedTensor fromNd(NDArray a, String fallbackName) {
        DType dtype = fromDjl(a.getDataType());
        String name = a.getName() == null || a.getName().isEmpty() ? fallbackName : a.getName();
        if (dtype == null) {
            throw new NativeRunnerException("Output '" + name + "' has element type " + a.getDataType()
                    + ", which Accelbridge cannot compare", "use a model whose outputs are numeric or bool tensors");
        }
        ByteBuffer b = a.toByteBuffer();
        byte[] raw = new byte[b.remaining()];
        b.duplicate().get(raw);
        return new NamedTensor(name, dtype, a.getShape().getShape(),
                reorder(raw, dtype.byteSize(), ByteOrder.nativeOrder(), ByteOrder.LITTLE_ENDIAN));
    }

    /**
     * An ONNX Runtime output as a tensor under its graph name: one copy of its bytes onto the heap (the copy ONNX
     * Runtime's {@code getByteBuffer} makes), kept as the tensor's data when it is already little-endian.
     *
     * <p>The bytes are in the machine's order whatever the buffer says: ONNX Runtime's Java API before 1.20 hands them in a
     * buffer left at Java's default BIG_ENDIAN (measured with 1.19.0: 1.5f read back as 6.9e-41), so trusting
     * {@code order()} swapped every element of every output of those versions ({@code run --ort 1.19.0} was WRONG_OUTPUT
     * with errors of 1e34).
     */
    static NamedTensor fromOrt(ai.onnxruntime.OnnxValue v, String name) {
        if (!(v instanceof ai.onnxruntime.OnnxTensor t)) {
            throw new NativeRunnerException("Output '" + name + "' is a " + v.getType() + ", not a tensor, which Accelbridge cannot compare",
                    "use a model whose outputs are numeric or bool tensors");
        }
        DType dtype = switch (t.getInfo().type) {
            case FLOAT -> DType.FLOAT32;
            case DOUBLE -> DType.FLOAT64;
            case FLOAT16 -> DType.FLOAT16;
            case INT64 -> DType.INT64;
            case INT32 -> DType.INT32;
            case INT8 -> DType.INT8;
            case UINT8 -> DType.UINT8;
            case BOOL -> DType.BOOL;
            default -> throw new NativeRunnerException("Output '" + name + "' has element type " + t.getInfo().type
                    + ", which Accelbridge cannot compare", "use a model whose outputs are numeric or bool tensors");
        };
        ByteBuffer b = t.getByteBuffer();
        byte[] raw;
        if (b.hasArray() && b.arrayOffset() == 0 && b.position() == 0 && b.remaining() == b.array().length) {
            raw = b.array();
        } else {
            raw = new byte[b.remaining()];
            b.duplicate().get(raw);
        }
        return new NamedTensor(name, dtype, t.getInfo().getShape(), reorder(raw, dtype.byteSize(), ByteOrder.nativeOrder(), ByteOrder.LITTLE_ENDIAN));
    }

    private static byte[] reorder(byte[] data, int width, ByteOrder from, ByteOrder to) {
        if (from == to || width == 1) {
            return data;
        }
        byte[] out = new byte[data.length];
        for (int i = 0; i < data.length; i += width) {
            for (int j = 0; j < width; j++) {
                out[i + j] = data[i + width - 1 - j];
            }
        }
        return out;
    }
}
