package dev.accelbridge.suites.onnx;

import dev.accelbridge.core.PublicApi;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.SuiteException;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorShapeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TypeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Conversions between ONNX protobuf messages and Accelbridge's tensors and specs, and model file reading. */
@PublicApi
public final class OnnxTensors {
    private OnnxTensors() {
    }

    /** A {@code TensorProto} holding the tensor's bytes as {@code raw_data} (how ONNX test data is usually stored). */
    public static TensorProto toProto(NamedTensor t) {
        TensorProto.Builder b = TensorProto.newBuilder().setName(t.name()).setDataType(t.dtype().onnxCode())
                .setRawData(ByteString.copyFrom(t.data()));
        for (long d : t.shape()) {
            b.addDims(d);
        }
        return b.build();
    }

    /**
     * The tensor held by a {@code TensorProto}, from {@code raw_data} or the typed fields
     * ({@code float_data}, {@code int32_data}, {@code int64_data}, {@code double_data}).
     *
     * @param name the name to give it (e.g. the graph input it feeds); null keeps the proto's name
     */
    public static NamedTensor fromProto(TensorProto p, String name) {
        String n = name != null ? name : p.getName();
        if (p.getDataLocation() == TensorProto.DataLocation.EXTERNAL) {
            throw new SuiteException("Tensor '" + n + "' keeps its data in an external file",
                    "save the tensor with its data inline (onnx.numpy_helper.from_array)");
        }
        DType dtype;
        try {
            dtype = DType.fromOnnx(p.getDataType());
        } catch (AccelbridgeException e) {
            throw new SuiteException("Tensor '" + n + "' has ONNX element type " + p.getDataType()
                    + " (" + TensorProto.DataType.forNumber(p.getDataType()) + ") that Accelbridge cannot feed or compare",
                    e.fix(), e);
        }
        long[] shape = p.getDimsList().stream().mapToLong(Long::longValue).toArray();
        int count = (int) NamedTensor.elementCount(shape);
        ByteBuffer out = ByteBuffer.allocate(count * dtype.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
        if (!p.getRawData().isEmpty()) {
            if (p.getRawData().size() != out.capacity()) {
                throw new SuiteException("Tensor '" + n + "' holds " + p.getRawData().size() + " bytes of raw_data but shape "
                        + java.util.Arrays.toString(shape) + " needs " + out.capacity(), "re-export the test data");
            }
            out.put(p.getRawData().asReadOnlyByteBuffer());
        } else {
            int have = switch (dtype) {
                case FLOAT32 -> p.getFloatDataCount();
                case FLOAT64 -> p.getDoubleDataCount();
                case INT64 -> p.getInt64DataCount();
                default -> p.getInt32DataCount();
            };
            if (have != count) {
                throw new SuiteException("Tensor '" + n + "' holds " + have + " values but shape "
                        + java.util.Arrays.toString(shape) + " needs " + count, "re-export the test data");
            }
            for (int i = 0; i < count; i++) {
                switch (dtype) {
                    case FLOAT32 -> out.putFloat(p.getFloatData(i));
                    case FLOAT64 -> out.putDouble(p.getDoubleData(i));
                    case INT64 -> out.putLong(p.getInt64Data(i));
                    case INT32 -> out.putInt(p.getInt32Data(i));
                    case FLOAT16 -> out.putShort((short) p.getInt32Data(i)); // fp16 bits live in int32_data
                    case INT8, UINT8, BOOL -> out.put((byte) p.getInt32Data(i));
                }
            }
        }
        return new NamedTensor(n, dtype, shape, out.array());
    }

    /**
     * The spec of a graph input or output; symbolic or missing dimensions become -1.
     *
     * @throws SuiteException.UnfeedableInputException naming the value when it is not a tensor of a type
     *                                                 Accelbridge handles
     */
    public static TensorSpec spec(ValueInfoProto v) {
        if (!v.getType().hasTensorType()) {
            throw new SuiteException.UnsupportedTypeException("Graph value '" + v.getName() + "' is a "
                    + v.getType().getValueCase() + ", not a tensor", "Accelbridge runs models whose inputs and outputs are plain tensors");
        }
        TypeProto.Tensor t = v.getType().getTensorType();
        DType dtype;
        try {
            dtype = DType.fromOnnx(t.getElemType());
        } catch (AccelbridgeException e) {
            throw new SuiteException.UnsupportedTypeException("Graph value '" + v.getName() + "' has element type "
                    + TensorProto.DataType.forNumber(t.getElemType()) + " that Accelbridge cannot feed or compare", e.fix());
        }
        long[] shape = new long[t.getShape().getDimCount()];
        for (int i = 0; i < shape.length; i++) {
            TensorShapeProto.Dimension d = t.getShape().getDim(i);
            shape[i] = d.hasDimValue() && d.getDimValue() > 0 ? d.getDimValue() : -1;
        }
        return new TensorSpec(v.getName(), dtype, shape);
    }

    /** Symbolic dimension names of a value ("batch", "sequence"), null where a dimension is concrete. */
    public static String[] dimParams(ValueInfoProto v) {
        TensorShapeProto s = v.getType().getTensorType().getShape();
        String[] out = new String[s.getDimCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = s.getDim(i).hasDimValue() ? null : s.getDim(i).getDimParam();
        }
        return out;
    }

    /**
     * Reads and checks an ONNX model file.
     *
     * @throws SuiteException.ModelNotFoundException when the file does not exist
     * @throws SuiteException.InvalidModelException  when it is not a parseable model with a graph and an opset
     */
    public static ModelProto readModel(Path file) {
        ModelProto m;
        try (InputStream in = Files.newInputStream(file)) {
            m = ModelProto.parseFrom(in);
        } catch (NoSuchFileException e) {
            throw new SuiteException.ModelNotFoundException("ONNX model " + file + " does not exist", "check the path");
        } catch (InvalidProtocolBufferException e) {
            throw invalid(file, "protobuf parse error: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new SuiteException("Cannot read " + file + ": " + e, "check the file's permissions", e);
        }
        // a graph without nodes is legal ONNX (its outputs are inputs or initializers); one without outputs computes nothing
        if (m.getIrVersion() <= 0 || !m.hasGraph() || m.getGraph().getOutputCount() == 0) {
            throw invalid(file, "no IR version, graph or outputs", null);
        }
        if (m.getOpsetImportCount() == 0) {
            throw invalid(file, "no opset_import", null);
        }
        return m;
    }

    /**
     * A cache entry written by {@link #writeAtomically}, or null when there is none or it is damaged (then the caller
     * makes it again).
     */
    public static ModelProto readCached(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return readModel(file);
        } catch (SuiteException e) {
            return null;
        }
    }

    /**
     * Writes a model file through a temporary file and a rename, so a crash never leaves a half-written model behind.
     *
     * @param what what the file is, for the error ("generated model", "model variant")
     * @throws SuiteException.CacheException when the cache directory cannot be written
     */
    public static void writeAtomically(Path file, byte[] bytes, String what) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new SuiteException.CacheException("Cannot write " + what + " " + file + ": " + e,
                    "give a writable cache directory (--cache-dir)", e);
        }
    }

    private static SuiteException.InvalidModelException invalid(Path file, String why, Throwable cause) {
        return new SuiteException.InvalidModelException(file + " is not a valid ONNX model (" + why + ")",
                "re-export it or check the download (a truncated or HTML file is the usual cause)", cause);
    }
}
