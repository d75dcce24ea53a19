package dev.accelbridge.core;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads what a user consumes off a case's outputs and compares it with the reference's ({@link Readout}). Which reading
 * applies is told by the names exporters give: a {@code last_hidden_state} (or {@code token_embeddings})
 * {@code [batch, sequence, hidden]} beside an {@code attention_mask} input is a sentence embedder's; a
 * {@code logits_per_image} {@code [images, texts]} is a two-tower (CLIP-style) model's. Pure arithmetic, no I/O.
 */
public final class Readouts {
    /** The token-state outputs a sentence embedding is pooled from, first found first. */
    public static final List<String> HIDDEN = List.of("last_hidden_state", "token_embeddings");
    /** The mask input pooling is weighted by. */
    public static final String MASK = "attention_mask";
    /** A two-tower model's image-by-text similarity output. */
    public static final String SIMILARITY = "logits_per_image";
    private static final List<String> TOWERS = List.of("image_embeds", "text_embeds");

    private Readouts() {
    }

    /** The reading that applies to {@code mc}'s model, if any. */
    public static Optional<Readout.Kind> kindOf(ModelCase mc) {
        List<String> outs = mc.model().outputs().stream().map(TensorSpec::name).toList();
        if (outs.contains(SIMILARITY)) {
            return Optional.of(Readout.Kind.SIMILARITY);
        }
        boolean masked = mc.inputs().stream().anyMatch(t -> t.name().equals(MASK));
        return masked && HIDDEN.stream().anyMatch(outs::contains) ? Optional.of(Readout.Kind.POOLED_EMBEDDING) : Optional.empty();
    }

    /**
     * The reading of {@code actual} against {@code reference}; empty when none applies or an output it needs is missing or
     * not of the form it reads (the raw parity has already said so).
     */
    public static Optional<Readout> judge(ModelCase mc, List<NamedTensor> reference, List<NamedTensor> actual) {
        return kindOf(mc).flatMap(k -> k == Readout.Kind.SIMILARITY ? similarity(reference, actual) : pooled(mc, reference, actual));
    }

    private static Optional<NamedTensor> named(List<NamedTensor> ts, String name) {
        return ts.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    private static Optional<Readout> pooled(ModelCase mc, List<NamedTensor> reference, List<NamedTensor> actual) {
        for (String h : HIDDEN) {
            Optional<NamedTensor> r = named(reference, h);
            Optional<NamedTensor> a = named(actual, h);
            Optional<NamedTensor> mask = named(mc.inputs(), MASK);
            if (r.isEmpty() || a.isEmpty() || mask.isEmpty()) {
                continue;
            }
            long[] s = r.get().shape();
            if (s.length != 3 || !Arrays.equals(s, a.get().shape()) || !r.get().dtype().isFloat() || mask.get().shape().length != 2
                    || mask.get().shape()[0] != s[0] || mask.get().shape()[1] != s[1]) {
                return Optional.empty();
            }
            int batch = (int) s[0];
            double[] m = mask.get().toDoubles();
            double[][] pr = meanPool(r.get().toDoubles(), m, s);
            double[][] pa = meanPool(a.get().toDoubles(), m, s);
            double minCos = 1;
            double maxAbs = 0;
            int agree = 0;
            int worst = -1;
            for (int b = 0; b < batch; b++) {
                double c = cosine(pr[b], pa[b]);
                maxAbs = Math.max(maxAbs, maxAbs(pr[b], pa[b]));
                if (c >= Readout.SAME_MEANING) {
                    agree++;
                }
                if (!(c >= minCos)) {
                    minCos = c;
                    worst = b;
                }
            }
            String note = agree == batch ? null : "sentence " + worst + " is the furthest";
            return Optional.of(new Readout(Readout.Kind.POOLED_EMBEDDING, batch, minCos, maxAbs, agree, note));
        }
        return Optional.empty();
    }

    /**
     * Mean pooling over the mask, then L2 normalisation, per item: what sentence-transformers' {@code Pooling} and
     * {@code Normalize} do.
     */
    static double[][] meanPool(double[] hidden, double[] mask, long[] shape) {
        int batch = (int) shape[0];
        int seq = (int) shape[1];
        int width = (int) shape[2];
        double[][] out = new double[batch][width];
        for (int b = 0; b < batch; b++) {
            double n = 0;
            for (int t = 0; t < seq; t++) {
                double w = mask[b * seq + t];
                n += w;
                for (int d = 0; d < width; d++) {
                    out[b][d] += w * hidden[(b * seq + t) * width + d];
                }
            }
            double norm = 0;
            for (int d = 0; d < width; d++) {
                out[b][d] /= Math.max(n, 1e-9);
                norm += out[b][d] * out[b][d];
            }
            norm = Math.max(Math.sqrt(norm), 1e-12);
            for (int d = 0; d < width; d++) {
                out[b][d] /= norm;
            }
        }
        return out;
    }

    private static Optional<Readout> similarity(List<NamedTensor> reference, List<NamedTensor> actual) {
        Optional<NamedTensor> r = named(reference, SIMILARITY);
        Optional<NamedTensor> a = named(actual, SIMILARITY);
        if (r.isEmpty() || a.isEmpty() || r.get().shape().length != 2 || !Arrays.equals(r.get().shape(), a.get().shape())) {
            return Optional.empty();
        }
        int rows = (int) r.get().shape()[0];
        int cols = (int) r.get().shape()[1];
        double[] x = r.get().toDoubles();
        double[] y = a.get().toDoubles();
        double maxAbs = maxAbs(x, y);
        int agree = 0;
        String note = null;
        double minCos = 1;
        for (int i = 0; i < rows; i++) {
            double[] rx = Arrays.copyOfRange(x, i * cols, (i + 1) * cols);
            double[] ry = Arrays.copyOfRange(y, i * cols, (i + 1) * cols);
            int[] want = ranking(rx);
            int[] got = ranking(ry);
            if (Arrays.equals(want, got)) {
                agree++;
            } else if (note == null) {
                int k = 0;
                while (want[k] == got[k]) {
                    k++;
                }
                note = String.format(java.util.Locale.ROOT, "image %d ranks the texts %s, the reference %s: the reference's scores of "
                        + "texts %d and %d are %.4g apart", i, Arrays.toString(got), Arrays.toString(want), want[k], got[k],
                        Math.abs(rx[want[k]] - rx[got[k]]));
            }
            minCos = Math.min(minCos, cosine(rx, ry));
        }
        boolean towers = TOWERS.stream().allMatch(t -> named(reference, t).isPresent() && named(actual, t).isPresent());
        if (towers) {
            minCos = 1;
            for (String t : TOWERS) {
                NamedTensor e = named(reference, t).get();
                NamedTensor f = named(actual, t).get();
                if (e.shape().length != 2 || !Arrays.equals(e.shape(), f.shape())) {
                    return Optional.empty();
                }
                int n = (int) e.shape()[0];
                int d = (int) e.shape()[1];
                double[] u = e.toDoubles();
                double[] v = f.toDoubles();
                for (int i = 0; i < n; i++) {
                    minCos = Math.min(minCos, cosine(Arrays.copyOfRange(u, i * d, (i + 1) * d), Arrays.copyOfRange(v, i * d, (i + 1) * d)));
                }
            }
        }
        return Optional.of(new Readout(Readout.Kind.SIMILARITY, rows, minCos, maxAbs, agree, note));
    }

    /** The columns of {@code row} from the highest score down (the lower index first on a tie). */
    static int[] ranking(double[] row) {
        return java.util.stream.IntStream.range(0, row.length).boxed()
                .sorted((p, q) -> row[p] != row[q] ? Double.compare(row[q], row[p]) : Integer.compare(p, q))
                .mapToInt(Integer::intValue).toArray();
    }

    private static double cosine(double[] a, double[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 && nb == 0 ? 1 : na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    private static double maxAbs(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }
}
