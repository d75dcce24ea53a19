package dev.accelbridge.core;

import java.util.Map;
import java.util.Properties;

/**
 * DJL's settings that keep its native libraries to the ones its jars carry, set once before DJL loads (by the native
 * runner and by the tokenizer of the suites' text inputs), each only where the user has not set it.
 *
 * <p>Measured on a host with a CUDA driver and no network (an H200 with an offline bundle): DJL's ONNX Runtime engine
 * made its first model's NDManager ask for an "alternative engine"; the tokenizers jar put one on the class path (its
 * Rust engine), whose loader saw CUDA, wanted the CUDA build of its library ({@code cu122-90}), which no jar carries,
 * tried to download it from publish.djl.ai and failed with an {@link ExceptionInInitializerError}: every native case of
 * the run. Accelbridge runs ONNX models through ONNX Runtime alone and tokenizes on the CPU, so it needs neither.
 */
@PublicApi
public final class DjlDefaults {
    /** The settings, by name: no alternative engine under ONNX Runtime, the CPU build of the tokenizers' library. */
    public static final Map<String, String> SETTINGS = Map.of(
            "ai.djl.onnx.disable_alternative", "true",
            "RUST_FLAVOR", "cpu");
    private static boolean done;

    private DjlDefaults() {
    }

    /** Sets {@link #SETTINGS} as system properties where neither the property nor a variable of that name is set; once. */
    public static synchronized void apply() {
        if (!done) {
            done = true;
            apply(System.getProperties(), System.getenv());
        }
    }

    /** {@link #apply()} on given properties and environment. */
    static void apply(Properties properties, Map<String, String> environment) {
        SETTINGS.forEach((name, value) -> {
            if (properties.getProperty(name) == null && environment.get(name) == null) {
                properties.setProperty(name, value);
            }
        });
    }
}
