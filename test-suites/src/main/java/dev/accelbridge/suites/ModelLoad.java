package dev.accelbridge.suites;

import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.TensorSpec;

import java.nio.file.Path;
import java.util.List;

/**
 * What loading one model of a user's folder gave: its cases, or the model's own problem (unreadable, unfeedable, a
 * type Accelbridge cannot feed) as the status its rows get and the reason naming the file. One model's problem
 * never stops the others.
 *
 * @param name    the model's name (its folder, or its file without {@code .onnx})
 * @param path    the {@code .onnx} file (or the folder when no file was found)
 * @param family  its family (given, inferred, or {@link ModelFamily#OTHER} when it could not be read)
 * @param sha256  the file's SHA-256, null when unreadable
 * @param cases   the cases, empty when the model has a problem
 * @param status  {@code null} when loaded; {@link Status#FAILED} or {@link Status#UNSUPPORTED} otherwise
 * @param problem the problem and its fix, null when loaded
 * @param inputNames the graph's input names where the file could be read (to check {@code --input} names against)
 * @param precision the dtype it was loaded at (a transformers.js folder's variant, or the precision its graph says)
 * @param notes     what its folder ships that is not run, and why (a file whose suffix names no dtype)
 */
@PublicApi
public record ModelLoad(String name, Path path, ModelFamily family, String sha256, List<ModelCase> cases, Status status,
                        String problem, List<String> inputNames, Precision precision, List<String> notes) {
    public ModelLoad {
        cases = List.copyOf(cases);
        inputNames = List.copyOf(inputNames);
        notes = List.copyOf(notes);
    }

    /** A model at fp32 with nothing to note. */
    public ModelLoad(String name, Path path, ModelFamily family, String sha256, List<ModelCase> cases, Status status,
                     String problem, List<String> inputNames) {
        this(name, path, family, sha256, cases, status, problem, inputNames, Precision.FP32, List.of());
    }

    /** A model that loaded. */
    public static ModelLoad loaded(List<ModelCase> cases) {
        ModelCase first = cases.get(0);
        return new ModelLoad(first.model().name(), first.model().path(), first.model().family(), first.model().sha256(), cases,
                null, null, first.model().inputs().stream().map(TensorSpec::name).toList(), first.precision(),
                List.of());
    }

    /** This load with {@code notes} said beside it. */
    public ModelLoad withNotes(List<String> more) {
        List<String> all = new java.util.ArrayList<>(notes);
        all.addAll(more);
        return new ModelLoad(name, path, family, sha256, cases, status, problem, inputNames, precision, all);
    }

    /** True when the model has a problem instead of cases. */
    public boolean broken() {
        return status != null;
    }
}
