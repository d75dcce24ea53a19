package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Builds the inputs of a user's model when it ships no test data: every dimension resolved (given shape, given
 * {@code --dim}, a batch-like dimension = 1, else a clear error naming the input, the dimension and the flag), every
 * input given ({@code --input}) or generated, seeded ({@link InputValues}): the same seed gives the same bytes, and every
 * backend is fed those bytes.
 */
final class InputFeeder {
    private static final Pattern BATCH = Pattern.compile("(?i)(batch|^n$|^b$|^bs$)");
    /** The names exporters give a token sequence's length (Optimum, transformers.js, tf2onnx, PyTorch's dynamo export). */
    private static final Pattern SEQUENCE = Pattern.compile("(?i)^(sequence|seq)(_?len(gth)?)?$|^(num_|n_)?tokens$|^(text|token)_?(len|length)$");
    /**
     * The length a token sequence takes when its symbolic dimension has a common name and no value was given: what
     * Optimum's and sentence-transformers' examples pad to, and within every BERT's 512 positions.
     */
    public static final int DEFAULT_SEQUENCE = 128;

    private InputFeeder() {
    }

    /**
     * The fed inputs of one case.
     *
     * @param inputs   one tensor per graph input, in graph order
     * @param inputSet the input set's name: {@code generated-SEED}, or {@code given-SHA} when any input came from the user
     * @param freeDims every symbolic dimension's value, for ORT's free-dimension overrides on both sides
     */
    public record Fed(List<NamedTensor> inputs, String inputSet, Map<String, Long> freeDims) {
    }

    /** Feeds {@code spec}'s inputs. */
    public static Fed feed(ModelSpec spec, ModelProto proto, FeedOptions feed) {
        Map<String, ValueInfoProto> infos = new LinkedHashMap<>();
        OnnxModels.graphInputs(proto).forEach(v -> infos.put(v.getName(), v));
        // --input and --shape name inputs of some of the models of a run; names this model lacks are not for it (the CLI
        // refuses a name no model has)
        // a shape given for one input fixes its symbolic dimensions for every input that shares them (input_ids and its
        // attention_mask share "sequence")
        Map<String, Long> implied = new LinkedHashMap<>(feed.dims());
        for (TensorSpec s : spec.inputs()) {
            long[] given = feed.shapes().get(s.name());
            ValueInfoProto info = infos.get(s.name());
            if (given != null && info != null) {
                String[] names = OnnxTensors.dimParams(info);
                for (int i = 0; i < names.length && i < given.length; i++) {
                    if (names[i] != null && !names[i].isEmpty()) {
                        implied.putIfAbsent(names[i], given[i]);
                    }
                }
            }
        }
        List<String> defaulted = sequenceDefaults(spec, infos, implied);
        feed = new FeedOptions(implied, feed.shapes(), feed.inputs(), feed.rangeLo(), feed.rangeHi(), feed.tolerance(), feed.baseDir());
        List<NamedTensor> out = new ArrayList<>();
        Map<String, Long> free = new LinkedHashMap<>(feed.dims());
        String set = "generated-" + Long.toHexString(InputValues.SEED);
        MessageDigest given = sha256();
        boolean anyGiven = false;
        for (TensorSpec s : spec.inputs()) {
            ValueInfoProto info = infos.get(s.name());
            String[] names = info == null ? new String[s.shape().length] : OnnxTensors.dimParams(info);
            NamedTensor t;
            if (feed.inputs().containsKey(s.name())) {
                t = GivenInputs.of(spec, s, feed, feed.inputs().get(s.name()));
                given.update(t.data());
                anyGiven = true;
            } else {
                long[] shape = shape(spec, s, names, feed);
                t = InputValues.generate(s, shape, proto, feed);
                if (t.name().startsWith("\u0000")) { // marker: a recognisable signal, not seeded noise
                    t = t.withName(s.name());
                    set = shape.length == 4 ? "generated-image" : "chirp-tones";
                }
            }
            for (int i = 0; i < names.length && i < t.shape().length; i++) {
                if (names[i] != null && !names[i].isEmpty()) {
                    free.putIfAbsent(names[i], t.shape()[i]);
                }
            }
            out.add(t);
        }
        if (anyGiven) {
            set = "given-" + HexFormat.of().formatHex(given.digest()).substring(0, 12);
        }
        if (!defaulted.isEmpty()) {
            set += ", " + String.join(", ", defaulted) + " by default";
        }
        return new Fed(out, set, free);
    }

    /** Whether {@code dimParam} names a token sequence's length ({@code sequence_length}, {@code seq_len}, {@code num_tokens}, ...). */
    static boolean isSequence(String dimParam) {
        return dimParam != null && SEQUENCE.matcher(dimParam).find();
    }

    /**
     * Puts {@link #DEFAULT_SEQUENCE} into {@code dims} for each symbolic sequence dimension of an integer input (token ids, a
     * mask) that nothing gave a value, and returns them as {@code name=value} to state in the input set.
     */
    private static List<String> sequenceDefaults(ModelSpec spec, Map<String, ValueInfoProto> infos, Map<String, Long> dims) {
        List<String> out = new ArrayList<>();
        for (TensorSpec s : spec.inputs()) {
            ValueInfoProto info = infos.get(s.name());
            if (info == null || !(s.dtype() == DType.INT64 || s.dtype() == DType.INT32)) {
                continue;
            }
            String[] names = OnnxTensors.dimParams(info);
            for (int i = 1; i < names.length && i < s.shape().length; i++) {
                if (s.shape()[i] <= 0 && isSequence(names[i]) && !dims.containsKey(names[i])) {
                    dims.put(names[i], (long) DEFAULT_SEQUENCE);
                    out.add(names[i] + "=" + DEFAULT_SEQUENCE);
                }
            }
        }
        return out;
    }

    /** The concrete shape of a generated input. */
    static long[] shape(ModelSpec spec, TensorSpec s, String[] names, FeedOptions feed) {
        long[] given = feed.shapes().get(s.name());
        if (given != null) {
            if (given.length != s.shape().length) {
                throw new SuiteException.UnfeedableInputException("--shape " + s.name() + "=" + dims(given) + " has rank " + given.length
                        + " but input '" + s.name() + "' of " + spec.name() + " is " + describe(s, names), "give all "
                        + s.shape().length + " dimensions");
            }
            for (int i = 0; i < given.length; i++) {
                if (s.shape()[i] > 0 && s.shape()[i] != given[i]) {
                    throw new SuiteException.UnfeedableInputException("--shape " + s.name() + "=" + dims(given) + " sets dimension " + i
                            + " to " + given[i] + " but input '" + s.name() + "' of " + spec.name() + " fixes it at " + s.shape()[i]
                            + " " + describe(s, names), "keep the model's fixed dimensions");
                }
            }
            return given.clone();
        }
        long[] shape = s.shape().clone();
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] > 0) {
                continue;
            }
            String sym = names[i];
            boolean named = sym != null && !sym.isEmpty();
            if (named && feed.dims().containsKey(sym)) {
                shape[i] = feed.dims().get(sym);
            } else if (i == 0 || (named && BATCH.matcher(sym).find())) {
                shape[i] = 1;
            } else {
                throw new SuiteException.UnfeedableInputException("Graph input '" + s.name() + "' of " + spec.name() + " has dimension " + i
                        + (named ? " ('" + sym + "')" : " (unnamed)") + " unknown " + describe(s, names) + " and no data was given",
                        named ? "give --dim " + sym + "=N (or --shape " + s.name() + "=" + hint(s, names) + ")"
                                : "give --shape " + s.name() + "=" + hint(s, names));
            }
        }
        checkSize(spec, s, shape);
        return shape;
    }

    /** The largest input Accelbridge generates: one Java array (and one WebSocket transfer of bounded chunks) holds it. */
    static final long MAX_INPUT_BYTES = Integer.MAX_VALUE - 64;

    /** Refuses, before anything is allocated, an input whose declared shape needs more bytes than one array holds. */
    private static void checkSize(ModelSpec spec, TensorSpec s, long[] shape) {
        long bytes;
        try {
            bytes = s.dtype().byteSize();
            for (long d : shape) {
                bytes = Math.multiplyExact(bytes, d);
            }
        } catch (ArithmeticException e) {
            bytes = Long.MAX_VALUE;
        }
        if (bytes > MAX_INPUT_BYTES) {
            throw new SuiteException.UnfeedableInputException("Graph input '" + s.name() + "' of " + spec.name() + " at " + dims(shape)
                    + " would need " + (bytes == Long.MAX_VALUE ? "more than 2^63" : String.valueOf(bytes)) + " bytes, above the "
                    + MAX_INPUT_BYTES + " one input may hold", "give a smaller --shape " + s.name() + "=... or --dim");
        }
    }

    private static String describe(TensorSpec s, String[] names) {
        List<String> d = new ArrayList<>();
        for (int i = 0; i < s.shape().length; i++) {
            d.add(s.shape()[i] > 0 ? Long.toString(s.shape()[i]) : names[i] != null && !names[i].isEmpty() ? names[i] : "?");
        }
        return "[" + String.join(", ", d) + "]";
    }

    private static String hint(TensorSpec s, String[] names) {
        List<String> d = new ArrayList<>();
        for (int i = 0; i < s.shape().length; i++) {
            d.add(s.shape()[i] > 0 ? Long.toString(s.shape()[i]) : i == 0 ? "1" : "N");
        }
        return String.join("x", d);
    }

    private static String dims(long[] shape) {
        return String.join("x", Arrays.stream(shape).mapToObj(Long::toString).toList());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
