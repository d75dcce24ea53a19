package dev.accelbridge.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The numeric precision a model variant computes in: a dimension of the matrix. The values are the {@code dtype}s
 * transformers.js names, each with the file suffix its model folders ship it under ({@code onnx/model_quantized.onnx}
 * is {@link #Q8}); {@link #INT8} is also what {@code --precision int8} derives.
 */
public enum Precision {
    /** 32-bit float weights and compute (what the suites author): {@code model.onnx}. */
    FP32("fp32", "", false, false),
    /** 16-bit float weights and compute: {@code model_fp16.onnx}. */
    FP16("fp16", "_fp16", true, false),
    /** 8-bit integer (quantized) weights: {@code model_int8.onnx}, and the variant {@code --precision int8} derives. */
    INT8("int8", "_int8", false, true),
    /** 8-bit dynamic quantization as transformers.js ships it by default: {@code model_quantized.onnx}. */
    Q8("q8", "_quantized", false, true),
    /** 8-bit unsigned integer weights: {@code model_uint8.onnx}. */
    UINT8("uint8", "_uint8", false, true),
    /** 4-bit block-quantized MatMul weights ({@code MatMulNBits}), float32 elsewhere: {@code model_q4.onnx}. */
    Q4("q4", "_q4", false, true),
    /** 4-bit block-quantized MatMul weights with float16 elsewhere: {@code model_q4f16.onnx}. */
    Q4F16("q4f16", "_q4f16", true, true),
    /** 4-bit bitsandbytes-style (NF4/FP4) MatMul weights: {@code model_bnb4.onnx}. */
    BNB4("bnb4", "_bnb4", false, true);

    private final String id;
    private final String suffix;
    private final boolean halfFloat;
    private final boolean quantized;

    Precision(String id, String suffix, boolean halfFloat, boolean quantized) {
        this.id = id;
        this.suffix = suffix;
        this.halfFloat = halfFloat;
        this.quantized = quantized;
    }

    /** The lower-case name used on the command line, in the store and in reports (transformers.js's {@code dtype}). */
    public String id() {
        return id;
    }

    /** The suffix of the file a transformers.js folder ships this variant in ({@code model} + suffix + {@code .onnx}). */
    public String suffix() {
        return suffix;
    }

    /** Whether it computes in float16 (needs WebGPU's {@code shader-f16}, a WebNN context taking float16). */
    public boolean halfFloat() {
        return halfFloat;
    }

    /** Whether its weights are quantized to integers. */
    public boolean quantized() {
        return quantized;
    }

    /** Whether it is judged by the half-precision or quantized tolerance (everything but fp32). */
    public boolean lossy() {
        return halfFloat || quantized;
    }

    /** The precision a transformers.js file suffix names ({@code _quantized} → q8), if any. */
    public static Optional<Precision> ofSuffix(String suffix) {
        return Arrays.stream(values()).filter(p -> p.suffix.equals(suffix)).findFirst();
    }

    /**
     * Parses an id ({@code fp32}, {@code q4f16}, ...), case-insensitively.
     *
     * @throws AccelbridgeException naming the valid ids
     */
    public static Precision parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (Precision p : values()) {
            if (p.id.equals(t)) {
                return p;
            }
        }
        throw new AccelbridgeException("Unknown precision '" + text + "'", "use one of: "
                + Arrays.stream(values()).map(Precision::id).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return id;
    }
}
