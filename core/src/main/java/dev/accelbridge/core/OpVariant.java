package dev.accelbridge.core;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a case of the op suite ({@link ModelFamily#OPS}) tests: one operator at one opset of its domain, with one variant
 * of its attributes and data types. The op suite names each model {@code OpType-opset-variant}
 * ({@code ReduceSum-18-f32.axes=1.keepdims=0}), an operator of ONNX Runtime's own domain with the domain in front
 * ({@code com.microsoft.MatMulNBits-1-f16.bits=4.block=32}); this record is that name read back, so results, filters
 * and the op table need no field of their own to know the op.
 *
 * @param opType  the operator ({@code ReduceSum})
 * @param opset   the opset of its domain the model imports
 * @param variant its attributes and data types as a short stable string ({@code f32.axes=1.keepdims=0}): tokens
 *                joined by {@code .}, the data types first
 * @param domain  the operator's domain: empty for ONNX's default domain ({@code ai.onnx}), or {@link #MS_DOMAIN}
 */
public record OpVariant(String opType, int opset, String variant, String domain) {
    /** ONNX Runtime's contrib operators' domain. */
    public static final String MS_DOMAIN = "com.microsoft";
    private static final Pattern NAME = Pattern.compile("(?:(com\\.microsoft)\\.)?([A-Z][A-Za-z0-9]*)-(\\d{1,2})-([A-Za-z0-9_.=+:-]+)");

    /** An operator of the default domain. */
    public OpVariant(String opType, int opset, String variant) {
        this(opType, opset, variant, "");
    }

    public OpVariant {
        domain = domain == null ? "" : domain;
        if (!domain.isEmpty() && !domain.equals(MS_DOMAIN)) {
            throw new IllegalArgumentException("domain '" + domain + "' is neither ONNX's default domain nor " + MS_DOMAIN);
        }
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
        return qualifiedType() + "-" + opset + "-" + variant;
    }

    /** The operator with its domain in front when that is not the default ({@code com.microsoft.MatMulNBits}). */
    public String qualifiedType() {
        return domain.isEmpty() ? opType : domain + "." + opType;
    }

    /** Whether the operator is one of ONNX Runtime's contrib operators. */
    public boolean contrib() {
        return !domain.isEmpty();
    }

    /** The variant a model name of the op suite stands for, or empty for any other name. */
    public static Optional<OpVariant> parse(String modelName) {
        if (modelName == null) {
            return Optional.empty();
        }
        var m = NAME.matcher(modelName);
        return m.matches() ? Optional.of(new OpVariant(m.group(2), Integer.parseInt(m.group(3)), m.group(4),
                m.group(1) == null ? "" : m.group(1))) : Optional.empty();
    }

    /** The variant a case tests: present only for the op suite's cases. */
    public static Optional<OpVariant> of(CaseId id) {
        return id.family() == ModelFamily.OPS ? parse(id.model()) : Optional.empty();
    }

    /** {@code ReduceSum-18 [f32.axes=1.keepdims=0]}. */
    @Override
    public String toString() {
        return qualifiedType() + "-" + opset + " [" + variant + "]";
    }
}
