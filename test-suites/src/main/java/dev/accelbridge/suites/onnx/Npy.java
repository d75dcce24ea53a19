package dev.accelbridge.suites.onnx;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.SuiteException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads NumPy's {@code .npy} format (versions 1–3): little-endian or byte-sized numeric types, C order. What
 * {@code numpy.save} writes for the tensors users keep beside a model (a recurrent state, a sample).
 */
public final class Npy {
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']+)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private Npy() {
    }

    /**
     * Reads {@code file} as tensor {@code name}.
     *
     * @throws SuiteException.InvalidTestDataException naming the file and what is wrong with it
     */
    public static NamedTensor read(Path file, String name) {
        byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new SuiteException.InvalidTestDataException("Cannot read " + file + ": " + e.getMessage(), "check the path", e);
        }
        if (all.length < 10 || all[0] != (byte) 0x93 || !new String(all, 1, 5, StandardCharsets.US_ASCII).equals("NUMPY")) {
            throw bad(file, "it has no NumPy header");
        }
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        int major = all[6];
        int headerLen = major == 1 ? b.getShort(8) & 0xffff : b.getInt(8);
        int start = major == 1 ? 10 : 12;
        if (start + headerLen > all.length) {
            throw bad(file, "its header runs past the end of the file");
        }
        String header = new String(all, start, headerLen, StandardCharsets.ISO_8859_1);
        Matcher d = DESCR.matcher(header);
        Matcher f = FORTRAN.matcher(header);
        Matcher s = SHAPE.matcher(header);
        if (!d.find() || !f.find() || !s.find()) {
            throw bad(file, "its header is not a NumPy array description: " + header.trim());
        }
        if (f.group(1).equals("True")) {
            throw bad(file, "it is in Fortran order");
        }
        DType dtype = switch (d.group(1)) {
            case "<f4" -> DType.FLOAT32;
            case "<f8" -> DType.FLOAT64;
            case "<f2" -> DType.FLOAT16;
            case "<i8" -> DType.INT64;
            case "<i4" -> DType.INT32;
            case "|i1" -> DType.INT8;
            case "|u1" -> DType.UINT8;
            case "|b1" -> DType.BOOL;
            default -> throw bad(file, "its dtype '" + d.group(1) + "' is not one Accelbridge feeds (little-endian "
                    + "float32/64/16, int64/32/8, uint8, bool)");
        };
        long[] shape = Arrays.stream(s.group(1).split(",")).map(String::trim).filter(x -> !x.isEmpty())
                .mapToLong(Long::parseLong).toArray();
        long n = NamedTensor.elementCount(shape);
        int dataStart = start + headerLen;
        if (all.length - dataStart != n * dtype.byteSize()) {
            throw bad(file, "its shape " + Arrays.toString(shape) + " of " + dtype.webName() + " needs " + n * dtype.byteSize()
                    + " bytes but it holds " + (all.length - dataStart));
        }
        return new NamedTensor(name, dtype, shape, Arrays.copyOfRange(all, dataStart, all.length));
    }

    private static SuiteException.InvalidTestDataException bad(Path file, String why) {
        return new SuiteException.InvalidTestDataException(file + " is not a .npy file Accelbridge can read: " + why,
                "write it with numpy.save (C order, little-endian), or give an ONNX TensorProto .pb", null);
    }
}
