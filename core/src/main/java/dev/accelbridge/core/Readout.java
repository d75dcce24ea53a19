package dev.accelbridge.core;

import java.util.Locale;

/**
 * What a user reads off a case's outputs, judged beside the raw outputs' {@link Parity}: a sentence embedder's pooled,
 * normalised embedding per sentence (mean pooling over the attention mask, as sentence-transformers pools), or a two-tower
 * model's image-text similarity matrix and the ranking of texts per image it gives. Made by {@link Readouts}.
 *
 * @param kind       what was read
 * @param items      sentences (pooled), or images (similarity)
 * @param minCosine  the lowest cosine similarity to the reference over the items' embeddings (pooled: each sentence's; similarity:
 *                   each image's and each text's embedding when the model outputs them, else each row of the matrix)
 * @param maxAbsErr  the largest difference of what was read (the pooled embeddings, or the matrix)
 * @param agree      items whose reading agrees with the reference's: pooled, those at cosine &ge; {@link #SAME_MEANING};
 *                   similarity, images whose texts rank in the same order
 * @param note       what differs, as a sentence; null when every item agrees
 */
public record Readout(Kind kind, int items, double minCosine, double maxAbsErr, int agree, String note) {
    /** The cosine at which two pooled embeddings are read as the same (sentence-transformers' own checks use 1e-4). */
    public static final double SAME_MEANING = 0.9999;

    /** What a readout reads. */
    public enum Kind {
        /** Mean pooling of {@code last_hidden_state} over {@code attention_mask}, L2-normalised, per sentence. */
        POOLED_EMBEDDING("pooled-embedding"),
        /** A two-tower model's {@code logits_per_image} matrix and the order of texts it gives each image. */
        SIMILARITY("similarity");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        /** The name in JSON and reports. */
        public String id() {
            return id;
        }

        /** Parses {@link #id()}. */
        public static Kind parse(String id) {
            for (Kind k : values()) {
                if (k.id.equals(id)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown readout '" + id + "'");
        }
    }

    /** Whether every item agrees with the reference. */
    public boolean allAgree() {
        return agree == items;
    }

    /** One line: "pooled embeddings of 4 sentences: min cosine 0.999999, max abs err 2.1e-06, 4 of 4 the same". */
    public String describe() {
        String what = kind == Kind.POOLED_EMBEDDING ? "pooled embeddings of " + items + " sentence" + (items == 1 ? "" : "s")
                : "similarity of " + items + " image" + (items == 1 ? "" : "s") + " to each text";
        String agreeing = kind == Kind.POOLED_EMBEDDING ? agree + " of " + items + " at cosine >= " + SAME_MEANING
                : "texts ranked alike for " + agree + " of " + items;
        return String.format(Locale.ROOT, "%s: min cosine %.6f, max abs err %.3g, %s", what, minCosine, maxAbsErr, agreeing)
                + (note == null ? "" : " (" + note + ")");
    }
}
