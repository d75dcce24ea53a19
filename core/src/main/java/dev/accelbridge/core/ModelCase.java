package dev.accelbridge.core;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One model with one concrete input set: the unit every backend runs.
 *
 * @param model    the model
 * @param inputSet a name for the input set ({@code "sentences"}, {@code "test_data_set_0"}, ...)
 * @param inputs   the tensors fed to the model, one per graph input
 * @param expected expected outputs shipped with the model (ONNX test-data layout); empty when the
 *                 native CPU run is the reference
 * @param freeDims values of the model's symbolic dimensions for this case ({@code --dim}, or what the inputs fix):
 *                 every runtime builds the same static graph from them (ORT's free-dimension overrides natively,
 *                 onnxruntime-web's {@code freeDimensionOverrides} in the page)
 * @param precision the precision the model computes in (fp16 weights, int8 quantization), as shipped
 * @param replacedReference when a batch sweep resized inputs that shipped expected outputs: what replaced them (the
 *                          native CPU run at the new batch), said in the parity of every result; null otherwise
 * @param scenario what the case does with the model: one forward pass, or a generation (its {@code inputs} the prompt)
 * @param runtimeOptions the ONNX Runtime session options it runs with ({@code run --runtime-option}); the defaults when null
 */
public record ModelCase(ModelSpec model, String inputSet, List<NamedTensor> inputs, Optional<List<NamedTensor>> expected,
                        Map<String, Long> freeDims, Precision precision, String replacedReference, Scenario scenario,
                        RuntimeOptions runtimeOptions) {
    /** A case at the default session options. */
    public ModelCase(ModelSpec model, String inputSet, List<NamedTensor> inputs, Optional<List<NamedTensor>> expected,
                     Map<String, Long> freeDims, Precision precision, String replacedReference, Scenario scenario) {
        this(model, inputSet, inputs, expected, freeDims, precision, replacedReference, scenario, RuntimeOptions.DEFAULT);
    }

    public ModelCase {
        runtimeOptions = runtimeOptions == null ? RuntimeOptions.DEFAULT : runtimeOptions;
        scenario = scenario == null ? Scenario.SINGLE_PASS : scenario;
        inputs = List.copyOf(inputs);
        expected = expected.map(List::copyOf);
        freeDims = freeDims == null ? Map.of() : Map.copyOf(freeDims);
        precision = precision == null ? Precision.FP32 : precision;
    }

    /** A case of one forward pass. */
    public ModelCase(ModelSpec model, String inputSet, List<NamedTensor> inputs, Optional<List<NamedTensor>> expected,
                     Map<String, Long> freeDims, Precision precision, String replacedReference) {
        this(model, inputSet, inputs, expected, freeDims, precision, replacedReference, Scenario.SINGLE_PASS);
    }

    /** A generation case: {@code generation.newTokens()} greedy tokens after the prompt {@code inputs}. */
    public static ModelCase generating(ModelSpec model, String inputSet, List<NamedTensor> prompt, Generation generation) {
        return new ModelCase(model, inputSet, prompt, Optional.empty(), Map.of(), Precision.FP32, null, generation);
    }

    /** The cell this case's scenario makes: one forward pass, or a generation after a prompt the length of its input ids. */
    public ScenarioId scenarioId() {
        return scenario.id(inputs);
    }

    /** The same case in another scenario (a generation teacher-forced, or making other tokens). */
    public ModelCase withScenario(Scenario s) {
        return new ModelCase(model, inputSet, inputs, expected, freeDims, precision, replacedReference, s, runtimeOptions);
    }

    /** The same case at other session options. */
    public ModelCase withRuntimeOptions(RuntimeOptions o) {
        return new ModelCase(model, inputSet, inputs, expected, freeDims, precision, replacedReference, scenario, o);
    }

    /** A case that keeps its shipped reference (if any). */
    public ModelCase(ModelSpec model, String inputSet, List<NamedTensor> inputs, Optional<List<NamedTensor>> expected,
                     Map<String, Long> freeDims, Precision precision) {
        this(model, inputSet, inputs, expected, freeDims, precision, null);
    }

    /** An fp32 case without free-dimension overrides. */
    public ModelCase(ModelSpec model, String inputSet, List<NamedTensor> inputs, Optional<List<NamedTensor>> expected) {
        this(model, inputSet, inputs, expected, Map.of(), Precision.FP32);
    }

    /** An fp32 case with free-dimension values. */
    public ModelCase(ModelSpec model, String inputSet, List<NamedTensor> inputs, Optional<List<NamedTensor>> expected,
                     Map<String, Long> freeDims) {
        this(model, inputSet, inputs, expected, freeDims, Precision.FP32);
    }

    /** The same case, recorded at {@code p}. */
    public ModelCase withPrecision(Precision p) {
        return new ModelCase(model, inputSet, inputs, expected, freeDims, p, replacedReference, scenario, runtimeOptions);
    }

    /** {@code family/model[/inputSet]}, the case's display key. */
    public String key() {
        return model.family().id() + "/" + model.name() + (inputSet == null || inputSet.isEmpty() ? "" : "/" + inputSet);
    }
}
