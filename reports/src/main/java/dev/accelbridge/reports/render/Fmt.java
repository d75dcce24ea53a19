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

    /** A rate: "1,234" or "12.3" (one decimal below 100). */
    static String rate(double v) {
        return Double.isNaN(v) ? "-" : v >= 100 ? String.format(java.util.Locale.ROOT, "%,.0f", v)
                : String.format(java.util.Locale.ROOT, "%.1f", v);
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

    static String pct(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f %%", v * 100) : "–";
    }

    /** "3.2× slower" / "1.5× faster" than native CPU, or "–". */
    static String speed(Cell c) {
        double r = c.score().speedRatio();
        if (!Double.isFinite(r) || r <= 0) {
            return "–";
        }
        if (c.result().requested() == dev.accelbridge.core.BackendId.CPU && c.result().lane().isNative()) {
            return "the reference";
        }
        return r >= 1 ? String.format(Locale.ROOT, "%.2f× faster", r) : String.format(Locale.ROOT, "%.2f× slower", 1 / r);
    }

    /** " [software adapter]" / " [device unverified]" when what executed is not what the backend's name suggests. */
    static String caveat(Cell c) {
        var a = c.score().acceleration();
        String flaky = c.result().flaky() ? " [flaky: " + c.result().attempts().count() + " attempts]" : "";
        return (c.result().status().executed() && (a == dev.accelbridge.core.Acceleration.SOFTWARE_ADAPTER
                || a == dev.accelbridge.core.Acceleration.UNVERIFIED_DEVICE) ? " [" + a.label() + "]" : "") + flaky;
    }

    /** "2 / 2": the intra-op threads of this cell and of its native CPU reference. */
    static String threads(Cell c) {
        Integer t = c.result().provenance() == null ? null : c.result().provenance().threads();
        return (t == null ? "?" : t.toString()) + " / " + (c.nativeThreads() == null ? "?" : c.nativeThreads().toString());
    }
}
