package dev.accelbridge.suites;

import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.GeneratedModel;

import java.util.List;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * One model of a suite: how to author it from a seed and how to make its input set.
 *
 * @param family   text, vision or audio
 * @param name     stable name, e.g. {@code bert-mini}
 * @param summary  one line on the architecture
 * @param builder  authors the model from a seed
 * @param inputSet name of the generated input set
 * @param inputs   makes the input tensors (deterministic, independent of the seed)
 * @param cases    the model's cases once it is written: its one input set as one forward pass, or (a decoder) a generation
 *                 and its single steps
 * @param encoder  the suite model whose file is this decoder's encoder (speech-to-text), written beside it and given to
 *                 its generations; null for a model alone
 */
record SuiteModel(ModelFamily family, String name, String summary, LongFunction<GeneratedModel> builder,
                  String inputSet, Supplier<List<NamedTensor>> inputs, Function<ModelSpec, List<ModelCase>> cases, SuiteModel encoder) {
    /** A model alone. */
    SuiteModel(ModelFamily family, String name, String summary, LongFunction<GeneratedModel> builder, String inputSet,
               Supplier<List<NamedTensor>> inputs, Function<ModelSpec, List<ModelCase>> cases) {
        this(family, name, summary, builder, inputSet, inputs, cases, null);
    }

    /** A model of one case: its input set, one forward pass. */
    SuiteModel(ModelFamily family, String name, String summary, LongFunction<GeneratedModel> builder, String inputSet,
               Supplier<List<NamedTensor>> inputs) {
        this(family, name, summary, builder, inputSet, inputs,
                spec -> List.of(new ModelCase(spec, inputSet, inputs.get(), java.util.Optional.empty())));
    }
}
