package dev.accelbridge.core;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a case of the op suite ({@link ModelFamily#OPS}) tests: one operator of the ONNX default domain at one opset,
 * with one variant of its attributes and data types. The op suite names each model {@code OpType-opset-variant}
 * ({@code ReduceSum-18-f32.axes=1.keepdims=0}); this record is that name read back, so results, filters and the op
 * table need no field of their own to know the op.
 *
 * @param opType  the operator ({@code ReduceSum})
 * @param opset   the default-domain opset the model imports
 * @param variant its attributes and data types as a short stable string ({@code f32.axes=1.keepdims=0}): tokens
 *                joined by {@code .}, the data types first
 */
public record OpVariant(String opType, int opset, String variant) {
    private static final Pattern NAME = Pattern.compile("([A-Z][A-Za-z0-9]*)-(\\d{1,2})-([A-Za-z0-9_.=+:-]+)");

    public OpVariant {
        if (opType == null || !opType.matches("[A-Z][A-Za-z0-9]*")) {
            throw new IllegalArgumentException("op type '" + opType + "' is not an ONNX operator name");
        }
        if (opset < 1 || opset > 99) {
            throw new IllegalArgumentException("opset " + opset + " is out of range");
        }
        if (variant == null || !variant.matches("[A-Za-z0-9_.=+:-]+")) {
            throw new IllegalArgumentException("variant '" + variant + "' must be tokens of [A-Za-z0-9_=+:-] joined by '.'");
        }
    }

    /** The model name the op suite gives this variant. */
    public String modelName() {
        return opType + "-" + opset + "-" + variant;
    }

    /** The variant a model name of the op suite stands for, or empty for any other name. */
    public static Optional<OpVariant> parse(String modelName) {
        if (modelName == null) {
            return Optional.empty();
        }
        var m = NAME.matcher(modelName);
        return m.matches() ? Optional.of(new OpVariant(m.group(1), Integer.parseInt(m.group(2)), m.group(3))) : Optional.empty();
    }

    /** The variant a case tests: present only for the op suite's cases. */
    public static Optional<OpVariant> of(CaseId id) {
        return id.family() == ModelFamily.OPS ? parse(id.model()) : Optional.empty();
    }

    /** {@code ReduceSum-18 [f32.axes=1.keepdims=0]}. */
    @Override
    public String toString() {
        return opType + "-" + opset + " [" + variant + "]";
    }
}
