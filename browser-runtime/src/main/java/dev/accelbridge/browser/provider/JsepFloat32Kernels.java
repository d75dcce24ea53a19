package dev.accelbridge.browser.provider;

import java.util.Map;

/**
 * The op types whose onnxruntime-web JSEP kernels compute in float32 inside themselves: their WGSL widens float16 inputs
 * to f32 ({@code castToF32}, f32 accumulators for the mean and variance) and narrows the result back, so a float16
 * variant's node of such a type ran no float16 arithmetic of its own, though no cast was inserted. Read from the shipped
 * bundle (a test holds each entry to the program of that name in {@code ort.all.mjs}); only JSEP's, the one engine whose
 * shader source ships in the bundle as text.
 */
final class JsepFloat32Kernels {
    /** How the profiler names JSEP's provider. */
    static final String PROVIDER = "JsExecutionProvider";

    /** Each op type, with the name of the WGSL program that computes it in the bundle. */
    static final Map<String, String> PROGRAMS = Map.of(
            "LayerNormalization", "LayerNormalization",
            "SimplifiedLayerNormalization", "LayerNormalization",
            "SkipLayerNormalization", "SkipLayerNormalization",
            "SkipSimplifiedLayerNormalization", "SkipLayerNormalization",
            "InstanceNormalization", "InstanceNormalization");

    private JsepFloat32Kernels() {
    }

    /** Whether a node of {@code op} that ran on {@code provider} computed in float32 inside its kernel. */
    static boolean inside(String provider, String op) {
        return PROVIDER.equals(provider) && PROGRAMS.containsKey(op);
    }
}
