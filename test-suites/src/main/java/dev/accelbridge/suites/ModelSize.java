package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;

/**
 * How big the generated suite models are. {@link #SMALL} (the default) keeps each model to a few tens of
 * MFLOPs per inference so a case finishes in about a second even on a software WebGPU adapter;
 * {@link #LARGE} gives realistic sizes (224x224 vision, 12-layer BERT-base text, Whisper-base-like audio on
 * 30 s of audio) for real hardware; {@link #REAL} gives published architectures at their published configurations and
 * parameter counts (BERT-base, ViT-B/16, a decoder in Qwen2.5-0.5B's layout in int4), weights from the seed.
 */
@PublicApi
public enum ModelSize {
    /** A few tens of MFLOPs a model. */
    SMALL,
    /** Realistic sizes. */
    LARGE,
    /** Published architectures at their published sizes. */
    REAL;

    /** Parses "small", "large" or "real", case-insensitively. */
    public static ModelSize parse(String text) {
        for (ModelSize s : values()) {
            if (s.name().equalsIgnoreCase(text == null ? "" : text.trim())) {
                return s;
            }
        }
        throw new SuiteException("Unknown model size '" + text + "'", "use small, large or real");
    }
}
