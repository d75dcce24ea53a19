package dev.accelbridge.tools.cli;

import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.PlanDefaults;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.run.Workload;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code --model PATH|NAME} of the bisection commands: a model folder or {@code .onnx} file, a suite model's name
 * ({@code accelbridge suites}) or an op-suite case's ({@code Elu-22-f32}), put on a plan and loaded as that one model.
 *
 * @param value  what was given
 * @param option the option that gave it, as errors name it ({@code --model}, {@code fit}'s {@code --from})
 */
record ModelArg(String value, String option) {
    /** A model given by {@code --model}. */
    ModelArg(String value) {
        this(value, "--model");
    }

    /** Puts the model on {@code w}: its folder or file, or its suite. */
    Workload.Builder apply(Workload.Builder w, long seed) {
        Path path = Path.of(value);
        return Files.exists(path) ? w.optSuites(List.of()).optUserModels(List.of(path)) : w.optSuites(List.of(suiteOf(seed)));
    }

    /** The plan's models, only this one when it is a suite model. */
    ModelSet load(RunPlan plan) {
        ModelSet set = ModelSet.load(plan);
        return Files.exists(Path.of(value)) ? set : set.only(value);
    }

    /** The suite family that has a model called {@link #value}; bad input when none has. */
    private ModelFamily suiteOf(long seed) {
        SuiteCatalog catalog = SuiteCatalog.create(new SuiteOptions(PlanDefaults.modelCache(), ModelSize.SMALL, seed));
        // either size's names (a large suite's models have names of their own: bert-base for bert-mini)
        return SuiteCatalog.familyOf(value)
                .or(() -> catalog.models(ModelFamily.OPS).stream().filter(m -> m.name().equals(value)).findFirst()
                        .map(m -> ModelFamily.OPS)) // an op-suite case (OpType-opset-variant), as 'accelbridge ops' names it
                .orElseThrow(() -> new AccelbridgeException(option + " " + value + " is neither an existing path nor a suite model",
                        "give a model folder or .onnx file, a suite model name from 'accelbridge suites', or an op-suite case "
                                + "from 'accelbridge ops'"));
    }
}
