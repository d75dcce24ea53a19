package dev.accelbridge.reports.score;

import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;

/**
 * The compatibility score of one cell, 0–100, from its status, its parity with the reference and its speed
 * relative to the native CPU run of the same model on the same host. Pure. (Also in {@code docs/scoring.md}.)
 *
 * <pre>
 * PASSED        score = 60 + P + S
 * FELL_BACK     score = 0.6 × (60 + P + S)      computed on the backend that actually ran; at most 60
 * WRONG_OUTPUT  score = 10 × clamp(cosine, 0, 1) at most 10 (0 when no parity is known)
 * FAILED, UNSUPPORTED, UNAVAILABLE   score = 0
 *
 * P (parity, 0–20) = 20 × (1 − clamp(e, 0, 1)),   e = max(maxAbsErr, 1 − cosine) / tolerance
 *     e is the share of the tolerance budget used; P = 20 when there is no parity (the reference itself)
 * S (speed, 0–20)  = clamp(10 + 5 × log2(r), 0, 20),  r = cpuP50 / cellP50
 *     same speed as native CPU → 10; 4× faster → 20; 4× slower or worse → 0;
 *     S = 10 (neutral) when there is no CPU reference on this host, noted in {@link Score#note()}
 *
 * grade: High ≥ 75, Medium ≥ 50, Low &gt; 0, None = 0
 * </pre>
 * So a correct run on the requested backend is High unless it is very slow and imprecise (minimum 60: Medium);
 * a fallback is at best Medium; a wrong output is Low; what did not run is None.
 */
public final class Scorer {
    /** Base of a passed cell. */
    public static final double PASSED_BASE = 60;
    /** Factor applied to a FELL_BACK cell's PASSED-style score. */
    public static final double FELL_BACK_FACTOR = 0.6;

    private Scorer() {
    }

    /**
     * Scores {@code r}.
     *
     * @param cpuP50Ms the native CPU p50 of the same model/input on the same host, or NaN when there is none
     */
    public static Score score(RunResult r, double cpuP50Ms) {
        return switch (r.status()) {
            case PASSED -> passedLike(r, cpuP50Ms, 1.0, null);
            case FELL_BACK -> passedLike(r, cpuP50Ms, FELL_BACK_FACTOR, "fell back to " + r.actual() + ": × " + FELL_BACK_FACTOR);
            case WRONG_OUTPUT -> {
                double cos = r.parity() == null ? 0 : r.parity().cosine();
                double v = Double.isFinite(cos) ? 10 * clamp(cos, 0, 1) : 0;
                yield new Score(v, Grade.of(v), v, 0, 0, ratio(r, cpuP50Ms), "wrong output");
            }
            case FAILED, UNSUPPORTED, UNAVAILABLE -> new Score(0, Grade.NONE, 0, 0, 0, Double.NaN, r.status().name().toLowerCase());
        };
    }

    private static Score passedLike(RunResult r, double cpuP50Ms, double factor, String note) {
        double p = parityTerm(r.parity());
        double ratio = ratio(r, cpuP50Ms);
        double s;
        String n = note;
        if (Double.isFinite(ratio) && ratio > 0) {
            s = clamp(10 + 5 * (Math.log(ratio) / Math.log(2)), 0, 20);
        } else {
            s = 10;
            n = (n == null ? "" : n + "; ") + "no native CPU reference on this host: speed term neutral";
        }
        double v = factor * (PASSED_BASE + p + s);
        return new Score(v, Grade.of(v), factor * PASSED_BASE, p, s, ratio, n);
    }

    /** The parity term, 0–20. */
    public static double parityTerm(Parity q) {
        if (q == null) {
            return 20;
        }
        if (!(q.tolerance() > 0)) {
            return q.within() ? 20 : 0;
        }
        double used = Math.max(q.maxAbsErr(), 1 - q.cosine()) / q.tolerance();
        if (Double.isNaN(used)) {
            return 0;
        }
        return 20 * (1 - clamp(used, 0, 1));
    }

    private static double ratio(RunResult r, double cpuP50Ms) {
        if (r.timings() == null || !(r.timings().p50Ms() > 0) || !(cpuP50Ms > 0)) {
            return Double.NaN;
        }
        return cpuP50Ms / r.timings().p50Ms();
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
