package dev.accelbridge.reports.score;

/** The coarse reading of a score, as the matrix shows it. */
public enum Grade {
    /** Score ≥ 75: runs on the requested backend, correct, not much slower than native CPU. */
    HIGH,
    /** Score ≥ 50: works with caveats (a fallback, or slow). */
    MEDIUM,
    /** Score &gt; 0: ran, but wrong or barely usable. */
    LOW,
    /** Score 0: did not run. */
    NONE;

    /** The grade of a score. */
    public static Grade of(double score) {
        return score >= 75 ? HIGH : score >= 50 ? MEDIUM : score > 0 ? LOW : NONE;
    }

    /** "High", "Medium", "Low", "None". */
    public String label() {
        return name().charAt(0) + name().substring(1).toLowerCase(java.util.Locale.ROOT);
    }
}
