package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;

/**
 * How big the generated suite models are. {@link #SMALL} (the default) keeps each model to a few tens of
 * MFLOPs per inference so a case finishes in about a second even on a software WebGPU adapter;
 * {@link #LARGE} gives realistic sizes (224x224 vision, 12-layer BERT-base text, Whisper-base-like audio on
 * 30 s of audio) for real hardware.
 */
@PublicApi
public enum ModelSize {
    SMALL,
    LARGE;

    /** Parses "small" or "large", case-insensitively. */
    public static ModelSize parse(String text) {
        for (ModelSize s : values()) {
            if (s.name().equalsIgnoreCase(text == null ? "" : text.trim())) {
                return s;
            }
        }
        throw new SuiteException("Unknown model size '" + text + "'", "use small or large");
    }
}
