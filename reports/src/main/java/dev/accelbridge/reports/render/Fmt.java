package dev.accelbridge.reports.render;

import dev.accelbridge.core.Acceleration;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Timings;

import java.util.Locale;

/** Number formatting shared by the text renderers. */
final class Fmt {
    private Fmt() {
    }

    /** "×0.413 [0.391, 0.440]": a ratio {@code r[0]} with its interval {@code r[1], r[2]} (none when they are NaN). */
    static String times(double[] r) {
        return String.format(Locale.ROOT, "×%.3g", r[0]) + (Double.isNaN(r[1]) ? "" : String.format(Locale.ROOT, " [%.3g, %.3g]", r[1], r[2]));
    }

    static String ms(double v) {
        if (!Double.isFinite(v)) {
            return RowFigures.ABSENT;
        }
        return Timings.formatMs(v);
    }

    /** A rate: "1,234" or "12.3" (one decimal below 100). */
    static String rate(double v) {
        return Double.isNaN(v) ? RowFigures.ABSENT : v >= 100 ? String.format(java.util.Locale.ROOT, "%,.0f", v)
                : String.format(java.util.Locale.ROOT, "%.1f", v);
    }

    static String x(double ratio) {
        return Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.2f×", ratio) : RowFigures.ABSENT;
    }

    static String sci(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2e", v) : Double.isNaN(v) ? RowFigures.ABSENT : Double.toString(v);
    }

    static String score(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    static String pct(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f %%", v * 100) : RowFigures.ABSENT;
    }

    /** "3.2× slower" / "1.5× faster" than native CPU, or "–". */
    static String speed(Cell c) {
        double r = c.score().speedRatio();
        if (!Double.isFinite(r) || r <= 0) {
            return RowFigures.ABSENT;
        }
        if (c.result().id().isNativeCpu()) {
            return "the reference";
        }
        // the interval of vsNative (cell / native) is that of the slowdown; its inverse that of the speed-up
        Interval ci = c.vsNativeCi();
        String in = ci == null ? "" : r >= 1 ? " " + interval(ci.inverse()) : " " + interval(ci);
        return (r >= 1 ? String.format(Locale.ROOT, "%.2f× faster", r) : String.format(Locale.ROOT, "%.2f× slower", 1 / r)) + in;
    }

    /** "[2.91–3.40]": a 95 % interval, two decimals. */
    static String interval(Interval ci) {
        return ci == null ? "" : String.format(Locale.ROOT, "[%.2f–%.2f]", ci.lo(), ci.hi());
    }

    /** "12.3 [11.9–12.8]": a p50 with its 95 % interval, when it has one. */
    static String msCi(double p50, Interval ci) {
        return ci == null ? ms(p50) : ms(p50) + " [" + ms(ci.lo()) + "–" + ms(ci.hi()) + "]";
    }

    /**
     * What limits the trust in a cell's figures, in words: a latency floor, no steady state, a busy machine; "" when
     * nothing does. One wording for every report and the dashboard.
     */
    static String trust(java.util.Optional<Timings> t) {
        return t.map(x -> x.quality().caveats()).orElse("");
    }

    /** " [software adapter]" / " [device unverified]" when what executed is not what the backend's name suggests. */
    static String caveat(Cell c) {
        var a = c.score().acceleration();
        String flaky = c.result().flaky() ? " [flaky: " + c.result().attempts().count() + " attempts]" : "";
        return (c.result().status().executed() && (a == Acceleration.SOFTWARE_ADAPTER
                || a == Acceleration.UNVERIFIED_DEVICE || a == Acceleration.BROWSER_CPU)
                ? " [" + a.label() + "]" : "") + flaky
                + trust(c.result().timings());
    }

    /** "2 / 2": the intra-op threads of this cell and of its native CPU reference. */
    static String threads(Cell c) {
        Integer t = c.result().provenance() == null ? null : c.result().provenance().threads();
        return (t == null ? "?" : t.toString()) + " / " + (c.nativeThreads() == null ? "?" : c.nativeThreads().toString());
    }
}
