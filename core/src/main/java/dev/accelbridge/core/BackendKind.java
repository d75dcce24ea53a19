package dev.accelbridge.core;

/** Where a backend executes: inside a browser page (onnxruntime-web) or natively in this JVM (DJL). */
public enum BackendKind {
    /** Executed by onnxruntime-web inside a real browser. */
    BROWSER,
    /** Executed by ONNX Runtime through DJL in this process. */
    NATIVE
}
