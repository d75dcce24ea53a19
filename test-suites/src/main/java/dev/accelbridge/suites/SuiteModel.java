package dev.accelbridge.suites;

import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.GeneratedModel;

import java.util.List;
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
 */
record SuiteModel(ModelFamily family, String name, String summary, LongFunction<GeneratedModel> builder,
                  String inputSet, Supplier<List<NamedTensor>> inputs) {
}
