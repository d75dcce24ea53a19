package dev.accelbridge.reports.render;

import dev.accelbridge.core.Readout;
import dev.accelbridge.core.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's section on what users read off a model's outputs ({@link Readout}): a sentence embedder's pooled,
 * normalised embeddings and a two-tower model's ranking of texts per image, against the native CPU reference, beside the
 * raw outputs' verdict.
 */
final class ReadoutSection {
    private ReadoutSection() {
    }

    static Section of(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (Cell c : m.cells()) {
            RunResult r = c.result();
            Readout o = r.analysis() == null ? null : r.analysis().readout();
            if (o == null) {
                continue;
            }
            rows.add(Section.Row.of(o.allAgree() ? null : "warn", c.host(), c.row(), c.ranOn(),
                    o.kind() == Readout.Kind.POOLED_EMBEDDING ? "pooled embeddings" : "texts ranked per image", Integer.toString(o.items()),
                    String.format(Locale.ROOT, "%.6f", o.minCosine()), String.format(Locale.ROOT, "%.3g", o.maxAbsErr()),
                    o.agree() + "/" + o.items() + (o.note() == null ? "" : " (" + o.note() + ")"), r.status().name()));
        }
        return Section.table("readouts", "What users read (pooled embeddings, similarity rankings) against native CPU",
                rows.isEmpty() ? null : "Sentence embedders: mean pooling over the attention mask, L2-normalised, per sentence; agree = "
                        + "cosine >= " + Readout.SAME_MEANING + ". Two-tower models: the order of the texts for each image from "
                        + "logits_per_image; min cosine over the image and text embeddings.",
                new Section.Table(List.of("host", "model", "backend", "read", "items", "min cosine", "max abs err", "agree", "status"), rows),
                null);
    }
}
