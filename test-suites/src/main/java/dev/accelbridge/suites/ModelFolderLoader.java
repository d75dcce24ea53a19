package dev.accelbridge.suites;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
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
 *   <li>a speech-to-text export ({@code encoder_model.onnx} and {@code decoder_model_merged.onnx}, Optimum's Whisper
 *       layout): one generation, the decoder fed the encoder's states ({@link SpeechToTextFolder});</li>
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
        return load(path, family, FeedOptions.none());
    }

    /**
     * The cases of the model at {@code path}, fed as {@code feed} says (its folder's {@code accelbridge.json} first,
     * then {@code feed} over it).
     *
     * @throws SuiteException naming the path or input when the model cannot be found, read or fed
     */
    public static List<ModelCase> load(Path path, Optional<ModelFamily> family, FeedOptions feed) {
        List<ModelCase> out = new ArrayList<>();
        for (DtypeFolder.Variant v : shipped(path).variants()) {
            out.addAll(loadVariant(path, v, family, feed));
        }
        return out;
    }

    /**
     * The models in a dtype each at {@code path}, and what its folder ships that is not run (with why): a transformers.js
     * folder's variants ({@link DtypeFolder}; an encoder-decoder's pairs), or the one model there (its precision null: as
     * its graph says).
     *
     * @throws SuiteException.ModelNotFoundException when {@code path} does not exist
     */
    static DtypeFolder.Shipped shipped(Path path) {
        if (!Files.exists(path)) {
            throw new SuiteException.ModelNotFoundException("Model folder " + path + " does not exist",
                    "check the --model path (a folder with model.onnx, or an .onnx file)");
        }
        Optional<Path> stt = SpeechToTextFolder.in(path);
        if (stt.isPresent()) {
            return DtypeFolder.encoderDecoder(stt.get(), SpeechToTextFolder.ENCODER_STEM, SpeechToTextFolder.DECODER_STEM);
        }
        // the folder (path or its onnx/) holding model*.onnx in more than one file or dtype, if any
        Optional<DtypeFolder.Shipped> folder = !Files.isDirectory(path) ? Optional.empty() : Stream.of(path, path.resolve("onnx"))
                .filter(Files::isDirectory).map(d -> DtypeFolder.of(d, DtypeFolder.MODEL)).filter(DtypeFolder.Shipped::hasVariants).findFirst();
        return folder.orElse(new DtypeFolder.Shipped(List.of(new DtypeFolder.Variant(null, path, null)), List.of()));
    }

    /**
     * The cases of one of {@link #shipped}'s variants: named after the folder, at the variant's precision, the family given, else
     * the one the folder's {@code config.json} names, else inferred from the inputs.
     *
     * @throws SuiteException naming the file or input when it cannot be read or fed
     */
    static List<ModelCase> loadVariant(Path path, DtypeFolder.Variant v, Optional<ModelFamily> family, FeedOptions feed) {
        Optional<ModelFamily> fam = family.or(() -> Files.isDirectory(path) ? DtypeFolder.family(path) : Optional.empty());
        if (v.encoder() != null) { // an encoder and a merged decoder: one speech-to-text generation
            FeedOptions own = FeedOptions.ofFolder(path).map(f -> f.overriddenBy(feed)).orElse(feed);
            return List.of(SpeechToTextFolder.load(path, v.encoder(), v.file(), path.toAbsolutePath().getFileName().toString(), own)
                    .withPrecision(v.precision()));
        }
        if (v.precision() == null) {
            Path onnx = Files.isDirectory(path) ? findModel(path) : path;
            return loadFile(path, onnx, modelName(onnx), fam, feed, null);
        }
        return loadFile(path, v.file(), modelName(v.file().resolveSibling("model.onnx")), fam, feed, v.precision());
    }

    /** The cases of the graph {@code onnx} called {@code name}, at {@code shipped} (null: the precision its graph says). */
    private static List<ModelCase> loadFile(Path path, Path onnx, String name, Optional<ModelFamily> family, FeedOptions feed,
                                            Precision shipped) {
        Path dir = onnx.toAbsolutePath().getParent();
        FeedOptions effective = FeedOptions.ofFolder(dir).map(f -> f.overriddenBy(feed)).orElse(feed);
        ModelProto proto = OnnxTensors.readModel(onnx);
        for (String loc : OnnxModels.externalData(proto)) {
            ModelFiles.inside(dir, loc, "external data"); // a link out of the folder is the model's problem, on every side
        }
        ModelSpec spec = OnnxModels.inspect(onnx, proto, family.orElse(null), name, path.toAbsolutePath().toString());
        if (effective.tolerance() != null) {
            spec = spec.withTolerance(effective.tolerance());
        }

        Precision precision = shipped != null ? shipped : OnnxModels.precision(proto);
        List<Path> dataSets = dataSets(dir);
        if (!dataSets.isEmpty()) {
            List<ModelCase> out = new ArrayList<>();
            // an output declared without a shape has an unknown rank, not rank 0: its data's size is not checked against it
            java.util.Set<String> shaped = new java.util.HashSet<>();
            proto.getGraph().getOutputList().stream().filter(o -> o.getType().getTensorType().hasShape())
                    .forEach(o -> shaped.add(o.getName()));
            for (Path ds : dataSets) {
                out.add(testDataCase(spec, shaped, ds).withPrecision(precision));
            }
            return out;
        }
        if (effective.generate().force() || DecoderLayout.looksLikeDecoder(spec)) {
            // a decoder with a KV cache (or a model said to be one): a generation, or one error naming what it lacks
            return List.of(GenerateOptions.ofConfig(dir).overriddenBy(effective.generate()).generationCase(spec).withPrecision(precision));
        }
        Path tokenizer = Stream.of(dir.resolve("tokenizer.json"), dir.getParent() == null ? null : dir.getParent().resolve("tokenizer.json"))
                .filter(p -> p != null && Files.isRegularFile(p)).findFirst().orElse(null);
        if (tokenizer != null && effective.inputs().isEmpty() && spec.inputs().stream().anyMatch(s -> s.name().equals("input_ids"))) {
            return List.of(new ModelCase(spec, "sentences", TokenizedInputs.of(spec, proto, tokenizer, effective.dims()), Optional.empty())
                    .withPrecision(precision));
        }
        Optional<JsonNode> processor = Preprocessor.find(dir);
        if (processor.isPresent()) {
            InputFeeder.Fed fed = Preprocessor.feed(spec, proto, processor.get(), effective);
            return List.of(new ModelCase(spec, fed.inputSet(), fed.inputs(), Optional.empty(), fed.freeDims(), precision));
        }
        return List.of(generatedCase(spec, proto, effective).withPrecision(precision));
    }

    /** A file called model.onnx is named after its folder (Optimum's onnx/ sub-folder after the one above); another file after itself. */
    static String modelName(Path onnx) {
        Path dir = onnx.toAbsolutePath().getParent();
        String name = onnx.getFileName().toString().equals("model.onnx") && dir != null && dir.getFileName() != null
                ? dir.getFileName().toString()
                : onnx.getFileName().toString().replaceFirst("\\.onnx$", "");
        if (name.equals("onnx") && dir.getParent() != null && dir.getParent().getFileName() != null) {
            name = dir.getParent().getFileName().toString();
        }
        return name;
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

    /** The folder's {@code test_data_set_N} folders, in order (none: it ships no test data). */
    static List<Path> dataSets(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).filter(p -> DATA_SET.matcher(p.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(p -> index(DATA_SET, p))).toList();
        } catch (IOException e) {
            throw new SuiteException("Cannot list " + dir + ": " + e, "check the folder's permissions", e);
        }
    }

    private static ModelCase testDataCase(ModelSpec spec, java.util.Set<String> shaped, Path ds) {
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
        for (NamedTensor o : outputs) {
            spec.outputs().stream().filter(v -> v.name().equals(o.name()) && shaped.contains(v.name())).findFirst().ifPresent(v -> {
                boolean staticShape = java.util.Arrays.stream(v.shape()).allMatch(d -> d > 0);
                if (staticShape && NamedTensor.elementCount(v.shape()) != o.size()) {
                    throw new SuiteException.InvalidTestDataException("Expected output '" + o.name() + "' in " + ds + " has " + o.size()
                            + " elements but the model's output is " + java.util.Arrays.toString(v.shape()) + " ("
                            + NamedTensor.elementCount(v.shape()) + " elements)", "regenerate the data set's output_K.pb from the model", null);
                }
            });
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

    private static ModelCase generatedCase(ModelSpec spec, ModelProto proto, FeedOptions feed) {
        InputFeeder.Fed fed = InputFeeder.feed(spec, proto, feed);
        return new ModelCase(spec, fed.inputSet(), fed.inputs(), Optional.empty(), fed.freeDims());
    }
}
