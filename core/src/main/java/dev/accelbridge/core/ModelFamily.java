package dev.accelbridge.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The model families (suites) Accelbridge knows, each with its default output tolerance. */
public enum ModelFamily {
    /** BERT-style encoders fed by a WordPiece tokenizer. */
    TEXT("text", 1e-3),
    /** Image classifiers on NCHW float32 input. */
    VISION("vision", 1e-3),
    /** Whisper-style encoders fed by a log-mel spectrogram. */
    AUDIO("audio", 1e-3),
    /** A user model whose family could not be inferred. */
    OTHER("other", 1e-3);

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
     * Default tolerance for the parity check: an output passes when its max absolute error, scaled by
     * {@code max(1, max|reference|)}, is at most this, and its cosine similarity is at least {@code 1 - tolerance}.
     */
    public double defaultTolerance() {
        return defaultTolerance;
    }

    /** Parses "text", "vision", "audio" or "other", case-insensitively. */
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
