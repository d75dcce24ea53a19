package dev.accelbridge.reports.score;

import dev.accelbridge.core.Acceleration;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SpeedStanding;
import dev.accelbridge.core.Status;

/**
 * The score (0–100) and grade of one cell. Status stays the compatibility verdict; speed is the ratio to the native
 * CPU reference of the same case on the same host; what really executed ({@link Acceleration}) decides whether the
 * speed may count. Pure. The rules, also in {@code docs/scoring.md}:
 *
 * <pre>
 * raw = B + P + S
 *   B (status)  PASSED 50 · FELL_BACK 25 · WRONG_OUTPUT 0 · FAILED, UNSUPPORTED, UNAVAILABLE: score 0, grade NONE
 *   P (parity)  25 × (1 − clamp(e, 0, 1)), e = max(maxAbsErr, 1 − cosine) / tolerance; 25 without parity
 *   S (speed)   clamp(12.5 + 6.25 × log2(r), 0, 25), r = native CPU p50 / cell p50; 12.5 when r is unknown;
 *               0 on a software adapter or an unverified WebNN device (their speed says nothing about a GPU/NPU)
 *
 * grade (first rule that holds)
 *   NONE    did not execute
 *   LOW     WRONG_OUTPUT, or r &lt; 0.1 (more than 10× slower than native CPU)
 *   MEDIUM  FELL_BACK, software adapter, unverified WebNN device, or r &lt; 0.5 (2–10× slower)
 *   HIGH    otherwise: correct on the requested backend, hardware or CPU, at most 2× slower than native CPU
 * value = raw clamped into the grade's band: HIGH [80, 100] · MEDIUM [50, 80) · LOW (0, 45] · NONE 0
 * </pre>
 */
public final class Scorer {
    private Scorer() {
    }

    /**
     * Scores {@code r}.
     *
     * @param cpuP50Ms the native CPU p50 of the same case on the same host, or NaN when there is none
     */
    public static Score score(RunResult r, double cpuP50Ms) {
        Acceleration acc = Acceleration.of(r);
        if (!r.status().executed()) {
            return new Score(0, Grade.NONE, 0, 0, 0, Double.NaN, acc, r.status().name().toLowerCase(java.util.Locale.ROOT));
        }
        double ratio = ratio(r, cpuP50Ms);
        double base = r.status() == Status.PASSED ? 50 : r.status() == Status.FELL_BACK ? 25 : 0;
        double p = r.status() == Status.WRONG_OUTPUT ? 0 : parityTerm(r.parity().orElse(null));
        SpeedStanding standing = SpeedStanding.of(r);
        boolean speedCounts = standing.counts();
        StringBuilder note = new StringBuilder();
        double s;
        if (!speedCounts) {
            s = 0;
            note.append(standing.why()).append(": speed not counted");
        } else if (Double.isFinite(ratio) && ratio > 0) {
            s = clamp(12.5 + 6.25 * (Math.log(ratio) / Math.log(2)), 0, 25);
        } else {
            s = 12.5;
            note.append("no native CPU reference on this host: speed term neutral");
        }
        if (r.status() == Status.FELL_BACK) {
            append(note, "fell back to " + r.actual().map(String::valueOf).orElse("null"));
        }
        Grade g;
        if (r.status() == Status.WRONG_OUTPUT) {
            g = Grade.LOW;
            append(note, "wrong output");
        } else if (speedCounts && ratio < 0.1) {
            g = Grade.LOW;
            append(note, String.format(java.util.Locale.ROOT, "%.1f× slower than native cpu", 1 / ratio));
        } else if (r.status() == Status.FELL_BACK || !speedCounts || ratio < 0.5) {
            g = Grade.MEDIUM;
        } else {
            g = Grade.HIGH;
        }
        double v = band(base + p + s, g);
        return new Score(v, g, base, p, s, ratio, acc, note.length() == 0 ? null : note.toString());
    }

    private static void append(StringBuilder b, String s) {
        b.append(b.length() == 0 ? "" : "; ").append(s);
    }

    private static double band(double raw, Grade g) {
        return switch (g) {
            case HIGH -> clamp(raw, 80, 100);
            case MEDIUM -> clamp(raw, 50, 79.9);
            case LOW -> clamp(raw, 0.1, 45);
            case NONE -> 0;
        };
    }

    /** The parity term, 0–25: what is left of the tolerance budget the worst element used. */
    public static double parityTerm(Parity q) {
        if (q == null) {
            return 25;
        }
        double used = q.budget();
        if (Double.isNaN(used)) {
            return q.within() ? 25 : 0;
        }
        return 25 * (1 - clamp(used, 0, 1));
    }

    private static double ratio(RunResult r, double cpuP50Ms) {
        double p50 = r.timings().map(t -> t.p50Ms()).orElse(Double.NaN);
        return p50 > 0 && cpuP50Ms > 0 ? cpuP50Ms / p50 : Double.NaN;
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
