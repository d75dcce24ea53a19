package dev.accelbridge.reports.render;

import java.util.Locale;

/** Number formatting shared by the text renderers. */
final class Fmt {
    private Fmt() {
    }

    static String ms(double v) {
        if (!Double.isFinite(v)) {
            return "–";
        }
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : v >= 1 ? String.format(Locale.ROOT, "%.2f", v)
                : String.format(Locale.ROOT, "%.3f", v);
    }

    static String x(double ratio) {
        return Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.2f×", ratio) : "–";
    }

    static String sci(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2e", v) : Double.isNaN(v) ? "–" : Double.toString(v);
    }

    static String score(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
