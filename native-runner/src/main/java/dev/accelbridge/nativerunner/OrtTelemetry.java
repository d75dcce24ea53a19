package dev.accelbridge.nativerunner;

import com.sun.jna.Platform;

/**
 * ONNX Runtime's telemetry, off before its environment starts. Measured: ONNX Runtime 1.29 on Linux keeps a queue of
 * events to upload (session creations with the model's producer, execution-provider use, the CPU and OS) in
 * {@code $XDG_CACHE_HOME} or {@code $HOME/.cache}, under {@code Microsoft/DeveloperTools/.onnxruntime/onnxruntime.db}
 * with a device id, whatever Accelbridge's cache folder is; it reads {@code ORT_DISABLE_TELEMETRY} when its environment
 * is created, and turning telemetry off after that is too late. A tool for closed labs writes nothing it does not say,
 * and sends nothing: the variable is set in this process before the first engine starts (and given to every runner
 * process), unless the user has set it.
 */
public final class OrtTelemetry {
    /** The variable ONNX Runtime reads; {@code 1} turns its telemetry off. */
    public static final String VARIABLE = "ORT_DISABLE_TELEMETRY";
    private static boolean done;

    private OrtTelemetry() {
    }

    /** Sets {@link #VARIABLE} to {@code 1} in this process's environment unless it is set already; once. */
    public static synchronized void off() {
        if (done) {
            return;
        }
        done = true;
        if (System.getenv(VARIABLE) != null || Platform.isWindows()) {
            return; // the user's choice stands; on Windows ONNX Runtime's telemetry is ETW, off unless a tracer listens
        }
        try {
            com.sun.jna.platform.unix.LibC.INSTANCE.setenv(VARIABLE, "1", 0);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            // no C library to call: docs/security.md says to set the variable for such a host
        }
    }
}
