package dev.accelbridge.core;

import java.util.List;

/**
 * How far a backend's outputs are from the reference (native CPU, or the expected outputs shipped with a
 * model), over all outputs together. The three figures never contradict each other: when any element is
 * non-finite on one side only (a NaN or an infinity where the other side has a number), the outputs differ by an
 * unbounded amount, so {@code maxAbsErr} and {@code maxRelErr} are infinite, {@code cosine} is NaN (undefined) and
 * {@code within} is false. A NaN on both sides at the same position counts as equal.
 *
 * @param maxAbsErr max |actual - reference|
 * @param maxRelErr max |actual - reference| / |reference| over elements with |reference| &gt; 1e-3
 *                  (0 when every reference element is smaller; infinite with {@code maxAbsErr})
 * @param cosine    cosine similarity of the flattened outputs (1 when both are all zero; NaN when non-finite)
 * @param tolerance the tolerance applied
 * @param within    true when the outputs pass: all finite where the reference is, {@code maxAbsErr <= tolerance *
 *                  max(1, max|reference|)} and {@code cosine >= 1 - tolerance}
 * @param against   what the reference was: {@code native-cpu} or {@code expected-outputs}
 * @param nonFinite elements that are non-finite on one side only
 */
public record Parity(double maxAbsErr, double maxRelErr, double cosine, double tolerance, boolean within, String against,
                     long nonFinite) {

    /** A parity without non-finite elements (as stored before the count existed). */
    public Parity(double maxAbsErr, double maxRelErr, double cosine, double tolerance, boolean within, String against) {
        this(maxAbsErr, maxRelErr, cosine, tolerance, within, against, 0);
    }

    /**
     * Compares outputs pairwise by name (falling back to position when names differ, as a browser may report
     * them in its own order).
     *
     * @throws AccelbridgeException when counts or element counts differ (a shape mismatch is itself a failure)
     */
    public static Parity compare(List<NamedTensor> reference, List<NamedTensor> actual, double tolerance, String against) {
        if (reference.size() != actual.size()) {
            throw new AccelbridgeException("Output count differs: reference has " + reference.size() + ", backend gave "
                    + actual.size(), null);
        }
        double maxAbs = 0;
        double maxRel = 0;
        double maxRef = 0;
        double dot = 0;
        double na = 0;
        double nb = 0;
        long nonFinite = 0;
        for (int k = 0; k < reference.size(); k++) {
            NamedTensor r = reference.get(k);
            NamedTensor a = actual.stream().filter(t -> t.name().equals(r.name())).findFirst().orElse(actual.get(k));
            double[] rv = r.toDoubles();
            double[] av = a.toDoubles();
            if (rv.length != av.length) {
                throw new AccelbridgeException("Output '" + r.name() + "' has " + av.length + " elements, reference has "
                        + rv.length, null);
            }
            for (int i = 0; i < rv.length; i++) {
                double x = rv[i];
                double y = av[i];
                boolean fx = Double.isFinite(x);
                boolean fy = Double.isFinite(y);
                if (!fx || !fy) {
                    // same NaN or same infinity on both sides is agreement; anything else is unbounded error
                    boolean same = (Double.isNaN(x) && Double.isNaN(y)) || (!fx && !fy && x == y);
                    if (!same) {
                        nonFinite++;
                    }
                    continue;
                }
                double d = Math.abs(x - y);
                maxAbs = Math.max(maxAbs, d);
                maxRef = Math.max(maxRef, Math.abs(x));
                if (Math.abs(x) > 1e-3) {
                    maxRel = Math.max(maxRel, d / Math.abs(x));
                }
                dot += x * y;
                na += x * x;
                nb += y * y;
            }
        }
        if (nonFinite > 0) {
            return new Parity(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN, tolerance, false, against,
                    nonFinite);
        }
        double cos = (na == 0 && nb == 0) ? 1.0 : (na == 0 || nb == 0) ? 0.0 : dot / Math.sqrt(na * nb);
        boolean ok = maxAbs <= tolerance * Math.max(1.0, maxRef) && cos >= 1.0 - tolerance;
        return new Parity(maxAbs, maxRel, cos, tolerance, ok, against, 0);
    }

    /** One line for a reason: "max abs err 1.2e-3, max rel err ..., cosine ... (tolerance 1e-3, against native-cpu)". */
    public String describe() {
        String head = nonFinite > 0
                ? nonFinite + " output element(s) non-finite where the reference is finite (or the reverse)"
                : String.format(java.util.Locale.ROOT, "max abs err %.3g, max rel err %.3g, cosine %.6f", maxAbsErr,
                maxRelErr, cosine);
        return head + String.format(java.util.Locale.ROOT, " (tolerance %.1g, against %s)", tolerance, against);
    }
}
