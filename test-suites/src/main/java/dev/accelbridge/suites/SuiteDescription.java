package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.TensorSpec;

import java.util.List;

/**
 * One suite model as {@code accelbridge suites --json} prints it.
 *
 * @param family     text, vision or audio
 * @param name       model name
 * @param summary    architecture in one line
 * @param opset      default-domain opset
 * @param parameters weight elements
 * @param mflops     approximate MFLOPs of one inference on the suite input (matrix products and convolutions)
 * @param inputs     declared graph inputs (-1 for a symbolic dimension)
 * @param inputSet   name of the generated input set
 * @param fedInputs  the concrete tensors fed, as {@code name:type[dims]}
 * @param outputs    declared graph outputs
 * @param ops        distinct op types, sorted
 * @param path       the cached {@code .onnx} file
 * @param sha256     its SHA-256
 * @param bytes      its size
 */
@PublicApi
public record SuiteDescription(String family, String name, String summary, long opset, long parameters, double mflops,
                               List<TensorSpec> inputs, String inputSet, List<String> fedInputs, List<TensorSpec> outputs,
                               List<String> ops, String path, String sha256, long bytes) {
}
