package dev.accelbridge.suites;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.suites.onnx.OnnxTensors;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the models under a user's {@code --model} path and loads each on its own, so one model's problem becomes
 * that model's {@link ModelLoad} and never stops the others.
 */
@PublicApi
public final class ModelDirectory {
    private ModelDirectory() {
    }

    /**
     * Every model under {@code path}: an {@code .onnx} file; a model folder ({@code model.onnx} or
     * {@code onnx/model.onnx}); a speech-to-text export (Optimum's {@code encoder_model.onnx} and
     * {@code decoder_model_merged.onnx}: one model); a folder of several other {@code .onnx} files (each is its own model); or a folder of such folders (a model zoo, or a directory of ONNX test-data-layout cases), to three
     * levels. A model that cannot be read or fed is a {@link ModelLoad} with its problem, and the others still load.
     *
     * @throws SuiteException.ModelNotFoundException when {@code path} does not exist or holds no model at all (bad input)
     */
    public static List<ModelLoad> loadAll(Path path, Optional<ModelFamily> family, FeedOptions feed) {
        if (!Files.exists(path)) {
            throw new SuiteException.ModelNotFoundException("Model path " + path + " does not exist",
                    "check the --model path (a folder with model.onnx, a folder of model folders, or an .onnx file)");
        }
        List<Path> models = new ArrayList<>();
        collect(path, 0, models);
        if (models.isEmpty()) {
            throw new SuiteException.ModelNotFoundException("No ONNX model under " + path,
                    "point --model at a folder with model.onnx, a folder of model folders, or an .onnx file");
        }
        List<ModelLoad> out = new ArrayList<>();
        for (Path m : models) {
            out.addAll(loadVariants(m, family, feed));
        }
        return out;
    }

    /**
     * Whether every model under {@code path} ships its own test data ({@code test_data_set_N} beside it, the ONNX
     * test-data layout of onnxruntime's and ONNX's node tests): such a run asks a conformance question, whose verdict one
     * run answers. False when {@code path} holds no model or cannot be listed (the run says why later).
     */
    public static boolean shipsTestData(Path path) {
        List<Path> models = new ArrayList<>();
        try {
            collect(path, 0, models);
        } catch (RuntimeException e) {
            return false;
        }
        return !models.isEmpty() && models.stream().allMatch(m -> {
            try {
                return !ModelFolderLoader.dataSets(Files.isDirectory(m) ? m : m.toAbsolutePath().getParent()).isEmpty();
            } catch (SuiteException e) {
                return false; // unreadable: not this question's to answer
            }
        });
    }

    /** Whether {@code p} is a transformers.js folder of dtype variants (an unreadable one is not: it is listed as files). */
    private static boolean shipsVariants(Path p) {
        try {
            return ModelFolderLoader.shipped(p).variants().stream().anyMatch(v -> v.precision() != null);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static void collect(Path p, int depth, List<Path> out) {
        if (Files.isRegularFile(p)) {
            out.add(p);
            return;
        }
        if (!Files.isDirectory(p) || depth > 3) {
            return;
        }
        if (Files.isRegularFile(p.resolve("model.onnx")) || Files.isRegularFile(p.resolve("onnx").resolve("model.onnx"))
                || SpeechToTextFolder.in(p).isPresent() || shipsVariants(p)) {
            out.add(p);
            return;
        }
        List<Path> children;
        try (Stream<Path> s = Files.list(p)) {
            children = s.sorted().toList();
        } catch (IOException e) {
            throw new SuiteException("Cannot list " + p + ": " + e, "check the folder's permissions", e);
        }
        List<Path> files = children.stream().filter(c -> Files.isRegularFile(c) && c.getFileName().toString().endsWith(".onnx")).toList();
        if (!files.isEmpty()) {
            out.addAll(files);
            return;
        }
        for (Path c : children) {
            if (Files.isDirectory(c)) {
                collect(c, depth + 1, out);
            }
        }
    }

    /**
     * The model at {@code model}, one load per dtype variant its folder ships (a variant's problem is that variant's rows),
     * the folder's notes beside the first.
     */
    private static List<ModelLoad> loadVariants(Path model, Optional<ModelFamily> family, FeedOptions feed) {
        DtypeFolder.Shipped shipped;
        try {
            shipped = ModelFolderLoader.shipped(model);
        } catch (RuntimeException e) {
            // found when tried: a folder of more than 64 variants ran its fp32 file alone, and nothing said why
            ModelLoad one = loadOne(model, new DtypeFolder.Variant(null, model, null), family, feed);
            String why = e instanceof AccelbridgeException ae ? ae.oneLine() : e.toString();
            return List.of(one.withNotes(List.of(Untrusted.reason("its dtype variants were not read (" + why
                    + "): the folder runs as one model"))));
        }
        List<ModelLoad> out = new ArrayList<>();
        for (DtypeFolder.Variant v : shipped.variants()) {
            out.add(loadOne(model, v, family, feed));
        }
        out.set(0, out.get(0).withNotes(shipped.skipped()));
        return out;
    }

    private static ModelLoad loadOne(Path model, DtypeFolder.Variant v, Optional<ModelFamily> family, FeedOptions feed) {
        try {
            List<ModelCase> cases = ModelFolderLoader.loadVariant(model, v, family, feed);
            cases.forEach(ModelCase::scenario); // a scenario the model's own files make out of bounds is this model's row
            ModelLoad loaded = ModelLoad.loaded(cases);
            return v.precision() == null ? loaded : loaded.withNotes(DtypeFolder.mismatch(v, cases.get(0).model()).stream().toList());
        } catch (RuntimeException e) {
            // any problem a model carries (unreadable, unfeedable, data the loader did not foresee) is that model's rows
            Path file = v.precision() != null ? v.file() : Files.isDirectory(model) ? Stream.of(model.resolve("model.onnx"),
                    model.resolve("onnx").resolve("model.onnx")).filter(Files::isRegularFile).findFirst().orElse(model) : model;
            String name = v.precision() != null ? ModelFolderLoader.modelName(v.file().resolveSibling("model.onnx"))
                    : Files.isRegularFile(file) ? ModelFolderLoader.modelName(file) : model.getFileName().toString();
            String sha = null;
            try {
                sha = Files.isRegularFile(file) ? OnnxModels.sha256(file) : null;
            } catch (RuntimeException ignored) {
                // unreadable: the problem below says so
            }
            Status status = e instanceof SuiteException.UnsupportedTypeException
                    ? Status.UNSUPPORTED : Status.FAILED;
            String where = String.valueOf(e.getMessage()).contains(file.toString()) ? "" : " (" + file + ")";
            String stage = e instanceof SuiteException.InvalidModelException || e instanceof SuiteException.ModelNotFoundException
                    ? "load: " : "feed: ";
            String text = e instanceof AccelbridgeException a ? a.oneLine() : e.toString();
            List<String> names = List.of();
            try {
                names = OnnxModels.graphInputs(OnnxTensors.readModel(file)).stream().map(x -> x.getName()).toList();
            } catch (RuntimeException ignored) {
                // unreadable: no names to offer
            }
            return new ModelLoad(name, file, family.orElse(ModelFamily.OTHER), sha, List.of(), status, stage + text + where, names,
                    v.precision() == null ? Precision.FP32 : v.precision(), List.of());
        }
    }

}
