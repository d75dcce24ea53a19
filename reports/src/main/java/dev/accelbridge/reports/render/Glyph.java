package dev.accelbridge.reports.render;

import dev.accelbridge.core.Status;

/**
 * A status as one mark, for a matrix cell that must stay one figure wide: the same marks in report.html, the dashboard
 * (through {@link Views}) and the first screen's counts.
 */
final class Glyph {
    /** What each mark means, in status order, for a legend. */
    static final String LEGEND = "✓ passed · ↪ fell back · ✗ wrong output · ! failed · ⊘ unsupported · – unavailable";

    private Glyph() {
    }

    static String of(Status s) {
        return switch (s) {
            case PASSED -> "✓";
            case FELL_BACK -> "↪";
            case WRONG_OUTPUT -> "✗";
            case FAILED -> "!";
            case UNSUPPORTED -> "⊘";
            case UNAVAILABLE -> "–";
        };
    }

    /** A p50 in few characters: "0.58", "17.4", "173", "11.7k" (ms). */
    static String figure(double ms) {
        if (!Double.isFinite(ms)) {
            return "";
        }
        return ms < 10 ? String.format(java.util.Locale.ROOT, "%.2f", ms) : ms < 100 ? String.format(java.util.Locale.ROOT, "%.1f", ms)
                : ms < 10_000 ? String.format(java.util.Locale.ROOT, "%.0f", ms) : String.format(java.util.Locale.ROOT, "%.1fk", ms / 1000);
    }
}
