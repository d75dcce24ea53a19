package dev.accelbridge.reports.score;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Acceleration;

/**
 * A cell's score and how it was made.
 *
 * @param value        0–100, inside its grade's band
 * @param grade        the grade, decided by {@link Scorer}'s rules
 * @param base         the status term
 * @param parityTerm   0–25 (0 when not applicable)
 * @param speedTerm    0–25 (0 when speed says nothing about an accelerator)
 * @param speedRatio   native CPU p50 / this cell's p50 (&gt; 1: faster than native CPU); NaN when no reference
 * @param acceleration what really executed (hardware, CPU, software adapter, unverified WebNN device)
 * @param note         what was missing or capped, or null
 */
@PublicApi
public record Score(double value, Grade grade, double base, double parityTerm, double speedTerm, double speedRatio,
                    Acceleration acceleration, String note) {
}
