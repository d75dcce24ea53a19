package dev.accelbridge.tools.cli;

import dev.accelbridge.run.Workload;
import dev.accelbridge.core.Precision;
import dev.accelbridge.suites.SuiteOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * The one case a bisection runs ({@code bisect}, {@code bisect-versions}): {@code --model}, {@code --precision},
 * {@code --batch}, {@code --seed} and how the model is fed ({@link FeedArgs}), as a picocli mixin that puts them on a plan.
 */
public final class OneCaseArgs {
    @Option(names = "--model", required = true, paramLabel = "PATH|NAME",
            description = "A model folder or .onnx file, or a suite model's name (see 'accelbridge suites').")
    String model;

    /** --tolerance (every tensor is judged by it), and --dim/--shape/--input/--input-range for a model of your own, as for run. */
    @Mixin
    FeedArgs feedArgs = new FeedArgs();

    @Option(names = "--precision", paramLabel = "P", converter = Converters.PrecisionId.class, description = "fp32 (default), fp16, int8, q8, uint8, q4, q4f16 or bnb4.")
    Precision precision = Precision.FP32;

    @Option(names = "--batch", paramLabel = "N", converter = Converters.BatchSize.class, description = "The batch size (default 1).")
    int batch = 1;

    @Option(names = "--seed", description = "Seed of the suites' generated weights and inputs (default ${DEFAULT-VALUE}).")
    long seed = SuiteOptions.DEFAULT_SEED;

    /** The model as given. */
    String model() {
        return model;
    }

    /** The model argument, resolved. */
    ModelArg modelArg() {
        return new ModelArg(model);
    }

    /** The case's model, feed, precision, batch size and seed on a plan. */
    Workload.Builder apply(Workload.Builder b) {
        return modelArg().apply(b.optSeed(seed).optPrecisions(List.of(precision)).optBatchSizes(List.of(batch)).optFeed(feedArgs.feed()), seed);
    }
}
