package dev.accelbridge.suites;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.audio.LogMel;
import dev.accelbridge.suites.audio.Waveforms;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.vision.Images;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Loads a user's own model ({@code --model PATH}) as {@link ModelCase}s. It understands:
 * <ol>
 *   <li>the ONNX test-data layout of the ONNX backend tests and model zoo: {@code model.onnx} with
 *       {@code test_data_set_N/input_K.pb} and {@code output_K.pb} (serialized {@code TensorProto}, raw or
 *       typed data): one case per data set, with its expected outputs;</li>
 *   <li>a Hugging Face Optimum export: {@code model.onnx} (or {@code onnx/model.onnx}) with
 *       {@code tokenizer.json} (and optionally {@code config.json}): the suite's sentences are tokenized
 *       with the model's own tokenizer to feed {@code input_ids}, {@code attention_mask},
 *       {@code token_type_ids} (and {@code position_ids});</li>
 *   <li>a folder or a single {@code .onnx} file whose inputs all have static shapes (a leading symbolic
 *       dimension is taken as batch 1): images and log-mel spectrograms are generated for vision and audio
 *       shaped inputs, other inputs get deterministic seeded data.</li>
 * </ol>
 * The family is given or inferred from the inputs (see {@link OnnxModels#inferFamily}).
 */
public final class ModelFolderLoader {
    /** Seed of the data fed to inputs that have no test data. */
    static final long FEED_SEED = 0x5eedL;
    private static final Pattern DATA_SET = Pattern.compile("test_data_set_(\\d+)");
    private static final Pattern INPUT = Pattern.compile("input_(\\d+)\\.pb");
    private static final Pattern OUTPUT = Pattern.compile("output_(\\d+)\\.pb");

    private ModelFolderLoader() {
    }

    /**
     * The cases of the model at {@code path} (a folder or an {@code .onnx} file).
     *
     * @param family the family, or empty to infer it
     * @throws SuiteException naming the path or input when the model cannot be found, read or fed
     */
    public static List<ModelCase> load(Path path, Optional<ModelFamily> family) {
        if (!Files.exists(path)) {
            throw new SuiteException.ModelNotFoundException("Model folder " + path + " does not exist",
                    "check the --model path (a folder with model.onnx, or an .onnx file)");
        }
        Path onnx = Files.isDirectory(path) ? findModel(path) : path;
        Path dir = onnx.toAbsolutePath().getParent();
        ModelProto proto = OnnxTensors.readModel(onnx);
        // a folder, or a file called model.onnx, is named after its folder; another file after itself
        String name = onnx.getFileName().toString().equals("model.onnx") && dir.getFileName() != null
                ? dir.getFileName().toString()
                : onnx.getFileName().toString().replaceFirst("\\.onnx$", "");
        if (name.equals("onnx") && dir.getParent() != null) { // Optimum's onnx/ sub-folder
            name = dir.getParent().getFileName().toString();
        }
        ModelSpec spec = OnnxModels.inspect(onnx, proto, family.orElse(null), name, path.toAbsolutePath().toString());

        List<Path> dataSets = dataSets(dir);
        if (!dataSets.isEmpty()) {
            List<ModelCase> out = new ArrayList<>();
            for (Path ds : dataSets) {
                out.add(testDataCase(spec, ds));
            }
            return out;
        }
        Path tokenizer = Stream.of(dir.resolve("tokenizer.json"), dir.getParent() == null ? null : dir.getParent().resolve("tokenizer.json"))
                .filter(p -> p != null && Files.isRegularFile(p)).findFirst().orElse(null);
        if (tokenizer != null && spec.inputs().stream().anyMatch(s -> s.name().equals("input_ids"))) {
            return List.of(new ModelCase(spec, "sentences", tokenizedInputs(spec, proto, tokenizer), Optional.empty()));
        }
        return List.of(generatedCase(spec, proto));
    }

    private static Path findModel(Path folder) {
        for (Path p : List.of(folder.resolve("model.onnx"), folder.resolve("onnx").resolve("model.onnx"))) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        List<Path> onnx;
        try (Stream<Path> s = Files.list(folder)) {
            onnx = s.filter(p -> p.getFileName().toString().endsWith(".onnx")).sorted().toList();
        } catch (IOException e) {
            throw new SuiteException("Cannot list " + folder + ": " + e, "check the folder's permissions", e);
        }
        if (onnx.size() == 1) {
            return onnx.get(0);
        }
        throw new SuiteException.ModelNotFoundException("No model.onnx in " + folder
                + (onnx.isEmpty() ? "" : " (found " + onnx.size() + " .onnx files: " + onnx.stream().map(p -> p.getFileName().toString()).toList() + ")"),
                "put the model in the folder as model.onnx (optimum-cli export onnx writes it) or pass the .onnx file itself");
    }

    // ------------------------------------------------------------------ (a) ONNX test-data layout

    private static List<Path> dataSets(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).filter(p -> DATA_SET.matcher(p.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(p -> index(DATA_SET, p))).toList();
        } catch (IOException e) {
            throw new SuiteException("Cannot list " + dir + ": " + e, "check the folder's permissions", e);
        }
    }

    private static ModelCase testDataCase(ModelSpec spec, Path ds) {
        List<NamedTensor> inputs = readTensors(ds, INPUT, spec.inputs());
        List<NamedTensor> outputs = readTensors(ds, OUTPUT, spec.outputs());
        if (inputs.isEmpty()) {
            throw new SuiteException.InvalidTestDataException(ds + " holds no input_K.pb files",
                    "write one serialized TensorProto per graph input (onnx.numpy_helper.from_array(...).SerializeToString())", null);
        }
        for (TensorSpec s : spec.inputs()) {
            NamedTensor given = inputs.stream().filter(t -> t.name().equals(s.name())).findFirst()
                    .orElseThrow(() -> new SuiteException.UnfeedableInputException("Graph input '" + s.name() + "' of "
                            + spec.name() + " has no data in " + ds, "add an input_K.pb for it"));
            checkFits(s, given, ds);
        }
        return new ModelCase(spec, ds.getFileName().toString(), inputs, outputs.isEmpty() ? Optional.empty() : Optional.of(outputs));
    }

    /** A data set's input must have the graph input's type, rank and every concrete dimension: refused before any backend runs. */
    private static void checkFits(TensorSpec declared, NamedTensor given, Path ds) {
        boolean fits = declared.dtype() == given.dtype() && declared.shape().length == given.shape().length;
        for (int i = 0; fits && i < declared.shape().length; i++) {
            fits = declared.shape()[i] < 0 || declared.shape()[i] == given.shape()[i];
        }
        if (!fits) {
            throw new SuiteException.InvalidTestDataException("Input '" + declared.name() + "' in " + ds + " is "
                    + given.dtype().webName() + java.util.Arrays.toString(given.shape()) + " but the model expects "
                    + declared.dtype().webName() + java.util.Arrays.toString(declared.shape()).replace("-1", "?"),
                    "regenerate the data set with the model's input shape and type", null);
        }
    }

    /** Reads {@code input_K.pb} / {@code output_K.pb} in K order; a nameless tensor takes the graph's K-th name. */
    private static List<NamedTensor> readTensors(Path ds, Pattern pattern, List<TensorSpec> graphValues) {
        List<Path> files;
        try (Stream<Path> s = Files.list(ds)) {
            files = s.filter(p -> pattern.matcher(p.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(p -> index(pattern, p))).toList();
        } catch (IOException e) {
            throw new SuiteException("Cannot list " + ds + ": " + e, "check the folder's permissions", e);
        }
        List<NamedTensor> out = new ArrayList<>();
        for (Path f : files) {
            int k = index(pattern, f);
            TensorProto p;
            try (InputStream in = Files.newInputStream(f)) {
                p = TensorProto.parseFrom(in);
            } catch (IOException e) {
                throw new SuiteException.InvalidTestDataException(f + " is not a serialized ONNX TensorProto (" + e.getMessage() + ")",
                        "write it with onnx.numpy_helper.from_array(array, name).SerializeToString()", e);
            }
            String name = p.getName();
            if (name.isEmpty() || graphValues.stream().noneMatch(v -> v.name().equals(p.getName()))) {
                if (k >= graphValues.size()) {
                    throw new SuiteException.InvalidTestDataException(f + " has index " + k + " but the graph declares only "
                            + graphValues.size() + " such values", "remove the extra file or name the tensor after a graph value", null);
                }
                name = graphValues.get(k).name();
            }
            try {
                out.add(OnnxTensors.fromProto(p, name));
            } catch (SuiteException e) {
                throw new SuiteException.InvalidTestDataException(f + ": " + e.getMessage(), e.fix(), e);
            }
        }
        return out;
    }

    private static int index(Pattern p, Path f) {
        Matcher m = p.matcher(f.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(1)) : Integer.MAX_VALUE;
    }

    // ------------------------------------------------------------------ (b) Hugging Face Optimum export

    private static List<NamedTensor> tokenizedInputs(ModelSpec spec, ModelProto proto, Path tokenizerJson) {
        TensorSpec idsSpec = spec.inputs().stream().filter(s -> s.name().equals("input_ids")).findFirst().orElseThrow();
        long[] dims = idsSpec.shape();
        int batch = dims.length > 0 && dims[0] > 0 ? (int) dims[0] : SuiteDefinitions.SENTENCES.size();
        int fixedLength = dims.length > 1 && dims[1] > 0 ? (int) dims[1] : -1;
        int maxLength = fixedLength > 0 ? fixedLength : Math.min(128, maxPositions(tokenizerJson.getParent()));
        List<String> sentences = new ArrayList<>();
        for (int i = 0; i < batch; i++) {
            sentences.add(SuiteDefinitions.SENTENCES.get(i % SuiteDefinitions.SENTENCES.size()));
        }
        Encoding[] enc;
        try {
            HuggingFaceTokenizer.Builder b = HuggingFaceTokenizer.builder().optTokenizerPath(tokenizerJson)
                    .optMaxLength(maxLength).optTruncation(true);
            b = fixedLength > 0 ? b.optPadToMaxLength() : b.optPadding(true);
            try (HuggingFaceTokenizer tok = b.build()) {
                enc = tok.batchEncode(sentences);
            }
        } catch (IOException | RuntimeException e) {
            throw new SuiteException.InvalidTestDataException("Cannot load the tokenizer " + tokenizerJson + ": " + e.getMessage(),
                    "re-save it with transformers' tokenizer.save_pretrained() (a fast tokenizer's tokenizer.json)", e);
        }
        int len = enc[0].getIds().length;
        List<NamedTensor> out = new ArrayList<>();
        for (TensorSpec s : spec.inputs()) {
            long[] v = new long[batch * len];
            for (int r = 0; r < batch; r++) {
                long[] row = switch (s.name()) {
                    case "input_ids" -> enc[r].getIds();
                    case "attention_mask" -> enc[r].getAttentionMask();
                    case "token_type_ids" -> enc[r].getTypeIds();
                    case "position_ids" -> positions(len);
                    default -> throw new SuiteException.UnfeedableInputException("Graph input '" + s.name() + "' of " + spec.name()
                            + " is not one a tokenizer produces (input_ids, attention_mask, token_type_ids, position_ids)",
                            "give the inputs as ONNX test data (test_data_set_0/input_K.pb)");
                };
                System.arraycopy(row, 0, v, r * len, len);
            }
            out.add(integers(s, new long[] {batch, len}, v));
        }
        return out;
    }

    private static long[] positions(int len) {
        long[] p = new long[len];
        for (int i = 0; i < len; i++) {
            p[i] = i;
        }
        return p;
    }

    private static int maxPositions(Path dir) {
        Path config = dir.resolve("config.json");
        if (Files.isRegularFile(config)) {
            try {
                JsonNode n = new ObjectMapper().readTree(config.toFile()).path("max_position_embeddings");
                if (n.isInt() && n.asInt() > 2) {
                    return n.asInt();
                }
            } catch (IOException e) {
                throw new SuiteException.InvalidTestDataException(config + " is not valid JSON: " + e.getMessage(),
                        "re-save it with config.save_pretrained()", e);
            }
        }
        return 512;
    }

    private static NamedTensor integers(TensorSpec s, long[] shape, long[] v) {
        return switch (s.dtype()) {
            case INT64 -> NamedTensor.ofLongs(s.name(), shape, v);
            case INT32 -> {
                ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
                for (long x : v) {
                    b.putInt((int) x);
                }
                yield new NamedTensor(s.name(), DType.INT32, shape, b.array());
            }
            default -> throw new SuiteException.UnfeedableInputException("Graph input '" + s.name() + "' is "
                    + s.dtype().webName() + ", but token ids need int64 or int32", "give the inputs as ONNX test data");
        };
    }

    // ------------------------------------------------------------------ (c) generated data for static shapes

    private static ModelCase generatedCase(ModelSpec spec, ModelProto proto) {
        List<NamedTensor> inputs = new ArrayList<>();
        String set = "seeded";
        for (TensorSpec s : spec.inputs()) {
            long[] shape = concreteShape(spec, s);
            int n = (int) NamedTensor.elementCount(shape);
            if (s.dtype() == DType.FLOAT32 && shape.length == 4 && shape[0] == 1 && shape[1] == 3) {
                int h = (int) shape[2];
                int w = (int) shape[3];
                inputs.add(NamedTensor.ofFloats(s.name(), shape, Images.normalize(Images.resizeBilinear(Images.testPattern(4 * w, 4 * h), w, h))));
                set = "generated-image";
            } else if (s.dtype() == DType.FLOAT32 && shape.length == 3 && shape[0] == 1 && shape[1] == LogMel.N_MELS) {
                int frames = (int) shape[2];
                float[][] mel = LogMel.compute(Waveforms.chirpAndTones(frames * (double) LogMel.HOP / LogMel.SAMPLE_RATE));
                inputs.add(NamedTensor.ofFloats(s.name(), shape, LogMel.flatten(mel)));
                set = "chirp-tones";
            } else {
                inputs.add(seeded(s, shape, n, proto));
            }
        }
        return new ModelCase(spec, set, inputs, Optional.empty());
    }

    /** The spec's shape with a leading symbolic (batch) dimension set to 1; any other unknown dimension is an error. */
    private static long[] concreteShape(ModelSpec spec, TensorSpec s) {
        long[] shape = s.shape().clone();
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] < 0) {
                if (i == 0) {
                    shape[i] = 1;
                } else {
                    throw new SuiteException.UnfeedableInputException("Graph input '" + s.name() + "' of " + spec.name()
                            + " has a dynamic shape " + Arrays.toString(s.shape()).replace("-1", "?")
                            + " (dimension " + i + " unknown) and no data was given",
                            "add test_data_set_0/input_K.pb with the inputs (ONNX test-data layout), a tokenizer.json for text models, or export the model with static shapes");
                }
            }
        }
        return shape;
    }

    private static NamedTensor seeded(TensorSpec s, long[] shape, int n, ModelProto proto) {
        SplittableRandom rng = new SplittableRandom(FEED_SEED ^ s.name().hashCode());
        ByteBuffer b = ByteBuffer.allocate(n * s.dtype().byteSize()).order(ByteOrder.LITTLE_ENDIAN);
        String lname = s.name().toLowerCase(java.util.Locale.ROOT);
        long idRange = Math.max(1, Math.min(1000, gatherRows(proto, s.name())));
        for (int i = 0; i < n; i++) {
            switch (s.dtype()) {
                case FLOAT32 -> b.putFloat((float) (rng.nextDouble() * 2 - 1));
                case FLOAT64 -> b.putDouble(rng.nextDouble() * 2 - 1);
                case FLOAT16 -> b.putShort(halfOf((float) (rng.nextDouble() * 2 - 1)));
                case INT64, INT32 -> {
                    long v;
                    if (lname.contains("mask")) {
                        v = 1;
                    } else if (lname.contains("type") || lname.contains("segment")) {
                        v = 0;
                    } else if (lname.contains("position")) {
                        v = i % shape[shape.length - 1];
                    } else {
                        v = rng.nextLong(idRange);
                    }
                    if (s.dtype() == DType.INT64) {
                        b.putLong(v);
                    } else {
                        b.putInt((int) v);
                    }
                }
                case INT8 -> b.put((byte) (rng.nextInt(256) - 128));
                case UINT8 -> b.put((byte) rng.nextInt(256));
                case BOOL -> b.put((byte) rng.nextInt(2));
            }
        }
        return new NamedTensor(s.name(), s.dtype(), shape, b.array());
    }

    /** Rows of the embedding table an id input indexes (first Gather reading it from an initializer), else 100. */
    private static long gatherRows(ModelProto proto, String input) {
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

    /** float to IEEE half (round to nearest; inputs here are in [-1, 1]). */
    private static short halfOf(float f) {
        int bits = Float.floatToIntBits(f);
        int sign = (bits >>> 16) & 0x8000;
        int exp = ((bits >>> 23) & 0xff) - 127 + 15;
        int mant = bits & 0x7fffff;
        if (exp <= 0) {
            return (short) sign;
        }
        return (short) (sign | ((exp << 10) + ((mant + 0x1000) >>> 13))); // a mantissa carry rolls into the exponent
    }
}
