package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.audio.LogMel;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.vision.Images;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

/**
 * The bytes of an input nothing gave: seeded values in a range that suits its type and role, each element written
 * little-endian in its dtype:
 * <ul>
 *   <li>float: standard normal (or uniform in {@code --input-range}); images and log-mel spectrograms for inputs of
 *       those shapes; recurrent state ({@code state}, {@code h}, {@code c}, {@code past*}, {@code cache*},
 *       {@code hidden*}): zeros;</li>
 *   <li>int64/int32: masks 1, token types 0, positions 0..n-1, a scalar sample rate ({@code sr},
 *       {@code sample_rate}) 16000, ids uniform in [0, N) with N the rows of the embedding table the id indexes
 *       (else 100, or the range);</li>
 *   <li>bool: true; int8/uint8: uniform.</li>
 * </ul>
 * A name starting with NUL marks an image or a spectrogram the values were made as.
 */
final class InputValues {
    /** Seed of generated data. */
    public static final long SEED = 0x5eedL;
    private static final Pattern STATE = Pattern.compile("(?i)(state|^h\\d*$|^c\\d*$|^h_?0$|^c_?0$|past|cache|hidden|memory)");

    private InputValues() {
    }

    /** Generated data for one input (a name starting with NUL marks an image or a spectrogram). */
    static NamedTensor generate(TensorSpec s, long[] shape, ModelProto proto, FeedOptions feed) {
        int n = (int) NamedTensor.elementCount(shape);
        if (feed.rangeLo() == null && s.dtype() == DType.FLOAT32 && shape.length == 4 && shape[0] == 1 && shape[1] == 3) {
            int h = (int) shape[2];
            int w = (int) shape[3];
            return NamedTensor.ofFloats("\u0000" + s.name(), shape,
                    Images.normalize(Images.resizeBilinear(Images.testPattern(4 * w, 4 * h), w, h)));
        }
        if (feed.rangeLo() == null && s.dtype() == DType.FLOAT32 && shape.length == 3 && shape[0] == 1 && shape[1] == LogMel.N_MELS) {
            return NamedTensor.ofFloats("\u0000" + s.name(), shape, LogMel.ofClip((int) shape[2]));
        }
        SplittableRandom rng = new SplittableRandom(SEED ^ s.name().hashCode());
        ByteBuffer b = ByteBuffer.allocate(n * s.dtype().byteSize()).order(ByteOrder.LITTLE_ENDIAN);
        String lname = s.name().toLowerCase(Locale.ROOT);
        boolean state = STATE.matcher(s.name()).find();
        long idRange = feed.rangeLo() != null ? Math.max(1, (long) Math.ceil(feed.rangeHi() - Math.max(0, feed.rangeLo())))
                : Math.max(1, gatherRows(proto, s.name()));
        long idLo = feed.rangeLo() != null ? Math.max(0, (long) Math.floor(feed.rangeLo())) : 0;
        for (int i = 0; i < n; i++) {
            double v;
            if (s.dtype().isFloat()) {
                v = state ? 0 : feed.rangeLo() != null ? feed.rangeLo() + rng.nextDouble() * (feed.rangeHi() - feed.rangeLo())
                        : gaussian(rng);
            } else if (s.dtype() == DType.BOOL) {
                v = 1;
            } else if (s.dtype() == DType.INT8 || s.dtype() == DType.UINT8) {
                v = s.dtype() == DType.INT8 ? rng.nextInt(256) - 128 : rng.nextInt(256);
            } else if (lname.contains("mask")) {
                v = 1;
            } else if (lname.contains("type") || lname.contains("segment")) {
                v = 0;
            } else if (lname.contains("position")) {
                v = shape.length == 0 ? 0 : i % shape[shape.length - 1];
            } else if (shape.length == 0 && (lname.equals("sr") || lname.contains("sample_rate") || lname.contains("samplerate"))) {
                v = 16000;
            } else {
                v = idLo + rng.nextLong(idRange);
            }
            put(b, s.dtype(), v);
        }
        return new NamedTensor(s.name(), s.dtype(), shape, b.array());
    }

    private static double gaussian(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    /** Rows of the embedding table an id input indexes (a Gather reading it from an initializer), else 100. */
    static long gatherRows(ModelProto proto, String input) {
        Map<String, TensorProto> inits = new LinkedHashMap<>();
        proto.getGraph().getInitializerList().forEach(t -> inits.put(t.getName(), t));
        for (NodeProto n : proto.getGraph().getNodeList()) {
            if (n.getOpType().equals("Gather") && n.getInputCount() == 2 && n.getInput(1).equals(input)
                    && inits.containsKey(n.getInput(0)) && inits.get(n.getInput(0)).getDimsCount() > 0) {
                return inits.get(n.getInput(0)).getDims(0);
            }
        }
        return 100;
    }

    /** float to IEEE half (round to nearest). */
    static short halfOf(float f) {
        int bits = Float.floatToIntBits(f);
        int sign = (bits >>> 16) & 0x8000;
        int exp = ((bits >>> 23) & 0xff) - 127 + 15;
        int mant = bits & 0x7fffff;
        if (exp <= 0) {
            return (short) sign;
        }
        if (exp >= 31) {
            return (short) (sign | 0x7c00);
        }
        return (short) (sign | ((exp << 10) + ((mant + 0x1000) >>> 13))); // a mantissa carry rolls into the exponent
    }

    /** Writes {@code v} as one element of {@code dtype}, little-endian. */
    static void put(ByteBuffer b, DType dtype, double v) {
        switch (dtype) {
            case FLOAT32 -> b.putFloat((float) v);
            case FLOAT64 -> b.putDouble(v);
            case FLOAT16 -> b.putShort(halfOf((float) v));
            case INT64 -> b.putLong((long) v);
            case INT32 -> b.putInt((int) v);
            case INT8, UINT8 -> b.put((byte) (long) v);
            case BOOL -> b.put((byte) (v != 0 ? 1 : 0));
        }
    }
}
