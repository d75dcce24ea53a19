/** The compatibility score of a matrix cell (0–100) and its grade; the formula is in {@link dev.accelbridge.reports.score.Scorer}. */
package dev.accelbridge.reports.score;
