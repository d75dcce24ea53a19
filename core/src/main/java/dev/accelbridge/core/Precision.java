package dev.accelbridge.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The numeric precision a model variant computes in: a dimension of the matrix. */
public enum Precision {
    /** 32-bit float weights and compute (what the suites author). */
    FP32("fp32"),
    /** 16-bit float weights and compute. */
    FP16("fp16"),
    /** 8-bit integer (quantized) weights. */
    INT8("int8");

    private final String id;

    Precision(String id) {
        this.id = id;
    }

    /** The lower-case name used on the command line, in the store and in reports. */
    public String id() {
        return id;
    }

    /**
     * Parses {@code fp32}, {@code fp16} or {@code int8}, case-insensitively.
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
