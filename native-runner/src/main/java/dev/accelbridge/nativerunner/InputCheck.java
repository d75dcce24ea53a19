package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Matches a case's tensors to a model's inputs before anything runs, so a wrong name, type or shape is
 * reported naming the input and what the model expects, instead of as ONNX Runtime's terse message.
 * Pure: no I/O.
 */
final class InputCheck {
    private InputCheck() {
    }

    /**
     * The given tensors in the order of the model's inputs.
     *
     * @param spec        the model (its declared inputs give types and shapes; -1 = any size)
     * @param modelInputs the input names the loaded session reports, in order; empty = use the spec's
     * @param given       the case's tensors
     * @throws ExecutionFailedException (RUN) naming the first input that is missing, unknown or mismatched
     */
    static List<NamedTensor> order(ModelSpec spec, List<String> modelInputs, List<NamedTensor> given) {
        List<String> names = modelInputs.isEmpty() ? spec.inputs().stream().map(TensorSpec::name).toList() : modelInputs;
        List<String> givenNames = given.stream().map(NamedTensor::name).toList();
        for (NamedTensor t : given) {
            if (!names.contains(t.name())) {
                throw new ExecutionFailedException(Phase.RUN, "Input '" + t.name() + "' is not an input of model '"
                        + spec.name() + "' (its inputs: " + describe(spec, names) + ")",
                        "name the tensors as the model's inputs", null);
            }
        }
        List<NamedTensor> ordered = new ArrayList<>();
        for (String name : names) {
            NamedTensor t = given.stream().filter(g -> g.name().equals(name)).findFirst()
                    .orElseThrow(() -> new ExecutionFailedException(Phase.RUN, "Model '" + spec.name()
                            + "' needs input '" + name + "', but the case gives " + givenNames,
                            "provide every input: " + describe(spec, names), null));
            Optional<TensorSpec> declared = spec.inputs().stream().filter(d -> d.name().equals(name)).findFirst();
            if (declared.isPresent()) {
                check(spec, declared.get(), t);
            }
            ordered.add(t);
        }
        return ordered;
    }

    private static void check(ModelSpec spec, TensorSpec d, NamedTensor t) {
        if (d.dtype() != null && d.dtype() != t.dtype()) {
            throw new ExecutionFailedException(Phase.RUN, "Input '" + t.name() + "' of model '" + spec.name() + "' is "
                    + t.dtype().webName() + " but the model expects " + d.dtype().webName(),
                    "feed '" + t.name() + "' as " + d.dtype().webName(), null);
        }
        long[] want = d.shape();
        long[] got = t.shape();
        boolean ok = want.length == got.length;
        for (int i = 0; ok && i < want.length; i++) {
            ok = want[i] < 0 || want[i] == got[i];
        }
        if (!ok) {
            throw new ExecutionFailedException(Phase.RUN, "Input '" + t.name() + "' of model '" + spec.name()
                    + "' has shape " + Arrays.toString(got) + " but the model expects " + Arrays.toString(want)
                    + " (-1 = any size)", "feed '" + t.name() + "' with shape " + Arrays.toString(want)
                    + ", any size where -1", null);
        }
    }

    private static String describe(ModelSpec spec, List<String> names) {
        return names.stream().map(n -> spec.inputs().stream().filter(d -> d.name().equals(n)).findFirst()
                .map(TensorSpec::toString).orElse(n)).toList().toString();
    }
}
