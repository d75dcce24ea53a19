package dev.accelbridge.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The model families (suites) Accelbridge knows. */
public enum ModelFamily {
    /** BERT-style encoders fed by a tokenizer: sentence embedders, judged by their pooled, normalised embeddings too. */
    TEXT("text", Double.NaN),
    /** Image classifiers on NCHW float32 input. */
    VISION("vision", Double.NaN),
    /** Whisper-style encoders fed by a log-mel spectrogram. */
    AUDIO("audio", Double.NaN),
    /**
     * Two-tower (CLIP-style) models: an image encoder and a text encoder into one embedding space, judged by the
     * image-text similarity matrix and the ranking of texts it gives each image, and each tower on its own.
     */
    MULTIMODAL("multimodal", Double.NaN),
    /** Decoders with a KV cache, run as generations (greedy tokens after a prompt) and as single steps at cache depths. */
    TEXT_GENERATION("text-generation", Double.NaN),
    /**
     * The op-conformance suite: one single-op model per operator, opset, attribute variant and data type
     * ({@code --suites ops}); never in the default matrix.
     */
    OPS("ops", Double.NaN),
    /** A user model whose family could not be inferred. */
    OTHER("other", Double.NaN);

    private final String id;
    private final double defaultTolerance;

    ModelFamily(String id, double defaultTolerance) {
        this.id = id;
        this.defaultTolerance = defaultTolerance;
    }

    /** The lower-case name used on the command line and in reports. */
    public String id() {
        return id;
    }

    /**
     * The absolute tolerance given for the family's models: none (NaN), so every output is judged by the default for
     * the backend that ran it and its type ({@link Tolerance#defaults}); a model's own (its folder's accelbridge.json,
     * {@code --tolerance}) replaces it.
     */
    public double defaultTolerance() {
        return defaultTolerance;
    }

    /** Parses "text", "vision", "audio", "multimodal", "text-generation", "ops" or "other", case-insensitively. */
    public static ModelFamily parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (ModelFamily f : values()) {
            if (f.id.equals(t)) {
                return f;
            }
        }
        throw new AccelbridgeException("Unknown suite '" + text + "'",
                "use one of: " + Arrays.stream(values()).filter(f -> f != OTHER).map(ModelFamily::id)
                        .collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return id;
    }
}
