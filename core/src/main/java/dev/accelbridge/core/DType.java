package dev.accelbridge.core;

import java.util.Locale;

/**
 * Tensor element types that Accelbridge can feed and compare, with their ONNX {@code TensorProto.DataType}
 * codes and their onnxruntime-web type names.
 */
public enum DType {
    FLOAT32(1, 4, "float32"),
    UINT8(2, 1, "uint8"),
    INT8(3, 1, "int8"),
    INT32(6, 4, "int32"),
    INT64(7, 8, "int64"),
    BOOL(9, 1, "bool"),
    FLOAT16(10, 2, "float16"),
    FLOAT64(11, 8, "float64");

    private final int onnxCode;
    private final int byteSize;
    private final String webName;

    DType(int onnxCode, int byteSize, String webName) {
        this.onnxCode = onnxCode;
        this.byteSize = byteSize;
        this.webName = webName;
    }

    /** The ONNX {@code TensorProto.DataType} code. */
    public int onnxCode() {
        return onnxCode;
    }

    /** Bytes per element. */
    public int byteSize() {
        return byteSize;
    }

    /** onnxruntime-web's name for the type ("float32", "int64", ...). */
    public String webName() {
        return webName;
    }

    /** True for the floating point types. */
    public boolean isFloat() {
        return this == FLOAT32 || this == FLOAT16 || this == FLOAT64;
    }

    /**
     * The type with ONNX code {@code code}.
     *
     * @throws AccelbridgeException naming the code when Accelbridge cannot feed it
     */
    public static DType fromOnnx(int code) {
        for (DType d : values()) {
            if (d.onnxCode == code) {
                return d;
            }
        }
        throw new AccelbridgeException("Unsupported ONNX tensor element type " + code,
                "Accelbridge feeds float32, float16, float64, int64, int32, int8, uint8 and bool tensors");
    }

    /** The type named {@code name} in onnxruntime-web's or this enum's spelling. */
    public static DType parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (DType d : values()) {
            if (d.webName.equals(n) || d.name().toLowerCase(Locale.ROOT).equals(n)) {
                return d;
            }
        }
        throw new AccelbridgeException("Unknown tensor type '" + name + "'", null);
    }
}
