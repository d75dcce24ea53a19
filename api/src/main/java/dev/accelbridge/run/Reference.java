package dev.accelbridge.run;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Tolerance;

import java.util.List;
import java.util.Optional;

/**
 * The outputs every backend's outputs are checked against for one case: the expected outputs shipped with a
 * model (ONNX test-data layout), else the native CPU run's. When neither exists (the CPU run failed), there
 * is no reference and {@link #failure()} says why.
 *
 * @param outputs the reference outputs, empty when there is none
 * @param against {@code expected-outputs} or {@code native-cpu}
 * @param failure why there is no reference, when there is none
 * @param variantRun for an fp16/int8 variant judged against its fp32 model's reference: the variant's own native CPU
 *                   run, compared too so that "the variant is lossy" and "this backend gets the variant wrong" are told
 *                   apart
 * @param variantItself this (fp32) reference is given to a dtype variant's own native CPU run: that run is the variant's
 *                      reference, so its distance from fp32 is its fidelity and never its status
 */
public record Reference(Optional<List<NamedTensor>> outputs, String against, Optional<String> failure,
                        Optional<Reference> variantRun, boolean variantItself) {

    /** A reference without a variant run. */
    public Reference(Optional<List<NamedTensor>> outputs, String against, Optional<String> failure) {
        this(outputs, against, failure, Optional.empty());
    }

    /** A reference for any case but a variant's own native CPU run. */
    public Reference(Optional<List<NamedTensor>> outputs, String against, Optional<String> failure, Optional<Reference> variantRun) {
        this(outputs, against, failure, variantRun, false);
    }

    /** This fp32 reference as given to a dtype variant's own native CPU run ({@link #variantItself}). */
    public Reference forVariantItself() {
        return new Reference(outputs, asFp32().against, failure, Optional.empty(), true);
    }

    /** This reference as the fp32 one a variant is judged against ({@code native-cpu fp32}). */
    public Reference asFp32() {
        return against.endsWith(Parity.FP32_BASIS) ? this
                : new Reference(outputs, against + Parity.FP32_BASIS, failure, variantRun, variantItself);
    }

    /** This (fp32) reference, with the {@code precision} variant's own native CPU run beside it. */
    public Reference withVariantRun(Reference own, Precision precision) {
        return new Reference(outputs, asFp32().against, failure, Optional.of(new Reference(own.outputs,
                own.against + " " + precision.id(), own.failure)));
    }

    /**
     * This reference as seen from a lane on another machine: the native CPU run was this bridge host's, and the parity
     * says so ({@code native-cpu (reference from host X)}), so a device's result is never read as checked on itself.
     */
    public Reference fromHost(String hostname) {
        String from = " (reference from host " + hostname + ")";
        return against.endsWith(from) || against.equals("expected-outputs") ? this
                : new Reference(outputs, against + from, failure, variantRun.map(v -> v.fromHost(hostname)), variantItself);
    }

    /** The expected outputs of a model's test data set. */
    public static Optional<Reference> expected(ModelCase mc) {
        return mc.expected().map(e -> new Reference(Optional.of(e), "expected-outputs", Optional.empty()));
    }

    /** The native CPU run's outputs. */
    public static Reference nativeCpu(List<NamedTensor> outputs) {
        return new Reference(Optional.of(outputs), "native-cpu", Optional.empty());
    }

    /**
     * The native CPU run's outputs for {@code mc}: when a batch sweep resized a case that shipped expected outputs, the
     * basis says so ({@code native-cpu (batch 4 replaced the expected outputs shipped for batch 3 ...)}), in every parity.
     */
    public static Reference nativeCpu(ModelCase mc, List<NamedTensor> outputs) {
        return new Reference(Optional.of(outputs), mc.replacedReference() == null ? "native-cpu"
                : "native-cpu (" + mc.replacedReference() + ")", Optional.empty());
    }

    /** No reference: the native CPU run failed for {@code why}. */
    public static Reference missing(String why) {
        return new Reference(Optional.empty(), "none", Optional.of(why));
    }

    /** Compares a backend's outputs with this reference, each output by its type's tolerance; empty when there is none. */
    public Optional<Parity> compare(List<NamedTensor> actual, java.util.function.Function<DType,
            Tolerance> toleranceFor) {
        return outputs.map(ref -> Parity.compare(ref, actual, toleranceFor, against));
    }
}
