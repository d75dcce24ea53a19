package dev.accelbridge.reports.score;

/**
 * A cell's score and how it was made.
 *
 * @param value       0–100
 * @param grade       from {@link Grade#of}
 * @param base        the status term
 * @param parityTerm  0–20 (0 when not applicable)
 * @param speedTerm   0–20 (0 when not applicable)
 * @param speedRatio  native CPU p50 / this cell's p50 (&gt; 1: faster than CPU); NaN when no reference
 * @param note        what was missing or capped, or null
 */
public record Score(double value, Grade grade, double base, double parityTerm, double speedTerm, double speedRatio, String note) {
}
