package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.onnx.Npy;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * An input the user gave ({@code --input NAME=VALUE}): a value the input is filled with, a {@code .npy} file or an ONNX
 * {@code TensorProto} file, checked against the graph's declared type and shape before anything runs.
 */
final class GivenInputs {
    private GivenInputs() {
    }

    /** An input the user gave: a scalar value or a {@code .npy} / {@code .pb} file, checked against the graph. */
    static NamedTensor of(ModelSpec spec, TensorSpec s, FeedOptions feed, String value) {
        NamedTensor t;
        if (FeedOptions.isNumber(value)) {
            long[] shape = feed.shapes().getOrDefault(s.name(), s.shape().length == 0 ? new long[0] : null);
            if (shape == null) {
                throw new SuiteException.UnfeedableInputException("--input " + s.name() + "=" + value + " is a single value but input '"
                        + s.name() + "' of " + spec.name() + " has rank " + s.shape().length,
                        "give a tensor file (--input " + s.name() + "=x.npy or .pb), or --shape " + s.name() + "=... to fill it with the value");
            }
            t = filled(s.name(), s.dtype(), shape, value);
        } else {
            Path f = Path.of(value);
            if (!Files.isRegularFile(f)) {
                throw new SuiteException.UnfeedableInputException("The file " + f + " given for input '" + s.name() + "' does not exist",
                        "give an existing .npy or ONNX TensorProto .pb file");
            }
            t = f.getFileName().toString().endsWith(".npy") ? Npy.read(f, s.name()) : readPb(f, s.name());
        }
        boolean fits = t.dtype() == s.dtype() && t.shape().length == s.shape().length;
        for (int i = 0; fits && i < s.shape().length; i++) {
            fits = s.shape()[i] < 0 || s.shape()[i] == t.shape()[i];
        }
        if (!fits) {
            throw new SuiteException.UnfeedableInputException("The input given for '" + s.name() + "' (" + value + ") is "
                    + t.dtype().webName() + Arrays.toString(t.shape()) + " but " + spec.name() + " expects " + s.dtype().webName()
                    + Arrays.toString(s.shape()).replace("-1", "?"), "give a tensor of the input's type and shape");
        }
        return t;
    }

    private static NamedTensor readPb(Path f, String name) {
        try (InputStream in = Files.newInputStream(f)) {
            return OnnxTensors.fromProto(TensorProto.parseFrom(in), name);
        } catch (IOException e) {
            throw new SuiteException.InvalidTestDataException(f + " is not a serialized ONNX TensorProto (" + e.getMessage() + ")",
                    "write it with onnx.numpy_helper.from_array(array, name).SerializeToString(), or give a .npy", e);
        }
    }

    private static NamedTensor filled(String name, DType dtype, long[] shape, String value) {
        int n = (int) NamedTensor.elementCount(shape);
        String v = value.trim().toLowerCase(Locale.ROOT);
        double d = v.equals("true") ? 1 : v.equals("false") ? 0 : v.equals("inf") ? Double.POSITIVE_INFINITY
                : v.equals("-inf") ? Double.NEGATIVE_INFINITY : Double.parseDouble(v);
        ByteBuffer b = ByteBuffer.allocate(n * dtype.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            InputValues.put(b, dtype, d);
        }
        return new NamedTensor(name, dtype, shape, b.array());
    }
}
