package dev.accelbridge.core;

import java.util.List;

/**
 * How far a backend's outputs are from the reference (native CPU, or the expected outputs shipped with a
 * model), over all outputs together.
 *
 * @param maxAbsErr max |actual - reference|
 * @param maxRelErr max |actual - reference| / max(|reference|, 1e-6) over elements with |reference| &gt; 1e-3
 * @param cosine    cosine similarity of the flattened outputs (1 when both are all zero)
 * @param tolerance the tolerance applied
 * @param within    true when the outputs pass: {@code maxAbsErr <= tolerance * max(1, max|reference|)} and
 *                  {@code cosine >= 1 - tolerance}
 * @param against   what the reference was: {@code native-cpu} or {@code expected-outputs}
 */
public record Parity(double maxAbsErr, double maxRelErr, double cosine, double tolerance, boolean within, String against) {

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
        boolean nonFinite = false;
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
                if (!Double.isFinite(y)) {
                    nonFinite = true;
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
        double cos = (na == 0 && nb == 0) ? 1.0 : (na == 0 || nb == 0) ? 0.0 : dot / Math.sqrt(na * nb);
        if (nonFinite) {
            maxAbs = Double.POSITIVE_INFINITY;
        }
        boolean ok = !nonFinite && maxAbs <= tolerance * Math.max(1.0, maxRef) && cos >= 1.0 - tolerance;
        return new Parity(maxAbs, maxRel, cos, tolerance, ok, against);
    }
}
