package dev.accelbridge.reports.recommend;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.reports.store.Figure;
import dev.accelbridge.reports.store.ResultJson;

import java.util.List;
import java.util.Locale;

import static dev.accelbridge.reports.store.ResultJson.finite;

/**
 * The JSON of {@code accelbridge recommend --json}, as records serialised whole: an array with one {@link Entry} per
 * family (or model), host, precision and deployment target, its best option and runner-up {@link OptionForm}s or null;
 * with {@code --dtype}, one {@link DtypeEntry} per model, backend and target.
 */
@PublicApi
public final class RecommendationJson {
    private RecommendationJson() {
    }

    /**
     * One recommendation: per family (or model), host, precision and deployment target, its best option and runner-up
     * (null where none passed everywhere, {@code note} saying why).
     */
    public record Entry(String family, String model, String host, String hostFingerprint, String precision, String target,
                        OptionForm best, OptionForm runnerUp, String note) {
        static Entry of(Recommendation r) {
            return new Entry(r.family(), r.model(), r.host(), r.hostFingerprint(), r.precision().id(), r.target(),
                    OptionForm.of(r.best()), OptionForm.of(r.runnerUp()), r.note());
        }
    }

    /**
     * One backend in one lane, as {@link Recommendation.Option} holds it; a figure not measured is null, an infinite one
     * its name ({@link ResultJson#num}).
     *
     * @param vsNativeCpu the speed-up against native CPU in words, with its interval
     * @param rssPeakBytes the peak resident memory, null when not measured
     */
    public record OptionForm(String backend, String browser, @Figure double p50Ms, @Figure double speedupVsCpu,
                             double[] speedupVsCpuCi, String vsNativeCpu, @Figure double offlineItemsPerSec, int offlineBatch,
                             @Figure Double speedupVsWasm, Long rssPeakBytes, int models) {
        static OptionForm of(Recommendation.Option o) {
            return o == null ? null : new OptionForm(o.backend(), o.browser(), o.p50Ms(), o.speedupVsCpu(),
                    o.speedupVsCpuCi() == null ? null : new double[]{o.speedupVsCpuCi().lo(), o.speedupVsCpuCi().hi()},
                    than(o.speedupVsCpu(), "native CPU") + interval(o), o.offlineItemsPerSec(), o.offlineBatch(),
                    Double.isNaN(o.speedupVsWasm()) ? null : o.speedupVsWasm(), o.rssPeakBytes() < 0 ? null : o.rssPeakBytes(), o.models());
        }
    }

    /** A dtype recommendation: which variant to ship per model, backend and target, against fp32 and what was skipped. */
    public record DtypeEntry(String host, String hostFingerprint, String family, String model, String target, String backend,
                             String options, String scenario, double minCloseness, ChoiceForm best, ChoiceForm fp32,
                             List<SkippedForm> skipped, String text) {
        static DtypeEntry of(DtypeRecommendation r) {
            return new DtypeEntry(r.host(), r.hostFingerprint(), r.family(), r.model(), r.target(), r.backend(), r.options(),
                    r.scenario(), r.minCloseness(), ChoiceForm.of(r.best()), ChoiceForm.of(r.fp32()),
                    r.skipped().stream().map(k -> new SkippedForm(k.precision().id(), k.why())).toList(), r.describe());
        }
    }

    /** A variant chosen or compared; a figure not measured is null. */
    public record ChoiceForm(String precision, String closenessOf, Double closeness, Double p50Ms, Double speedupVsFp32,
                             double[] speedupInterval, boolean reference, Boolean computedInFloat32) {
        static ChoiceForm of(DtypeRecommendation.Choice c) {
            return c == null ? null : new ChoiceForm(c.precision().id(), c.closenessOf(), finite(c.closeness()), finite(c.p50Ms()),
                    finite(c.speedupVsFp32()), c.speedupInterval() == null ? null
                    : new double[]{c.speedupInterval().lo(), c.speedupInterval().hi()}, c.reference(),
                    c.computed() == null ? null : c.computed().inFloat32());
        }
    }

    /** A variant left out, and why. */
    public record SkippedForm(String precision, String why) {
    }

    /** The array of {@code recommend --json}. */
    public static ArrayNode array(List<Recommendation> recs) {
        return ResultJson.MAPPER.valueToTree(recs.stream().map(Entry::of).toList());
    }

    /** Dtype recommendations as a JSON array, one object each; a figure not measured is null. */
    public static ArrayNode dtypeArray(List<DtypeRecommendation> recs) {
        return ResultJson.MAPPER.valueToTree(recs.stream().map(DtypeEntry::of).toList());
    }


    /**
     * "webgpu [chromium] p50 1.200 ms, 2.78× slower than native cpu, 1.30× faster than wasm" for text output: a speed
     * below 1 is said as slower, never as a "0.36×" speed-up.
     */
    public static String describe(Recommendation.Option o) {
        if (o == null) {
            return "–";
        }
        boolean wasm = o.backend().equals(BackendId.WASM.id());
        return o.backend() + " [" + (o.browser() == null ? "native" : o.browser()) + "] "
                + String.format(Locale.ROOT, "p50 %.3f ms, %s", o.p50Ms(), than(o.speedupVsCpu(), "native cpu")) + interval(o)
                + (Double.isNaN(o.speedupVsWasm()) || wasm ? "" : ", " + than(o.speedupVsWasm(), "wasm"))
                + (Double.isFinite(o.offlineItemsPerSec()) ? String.format(Locale.ROOT, "; offline %s items/s at batch %d",
                offline(o.offlineItemsPerSec()), o.offlineBatch()) : "");
    }

    /** " [2.61–2.95]": the interval of the factor {@link #than} says, or "" without one. */
    static String interval(Recommendation.Option o) {
        var ci = o.speedupVsCpuCi();
        if (ci == null || !(o.speedupVsCpu() > 0)) {
            return "";
        }
        var f = o.speedupVsCpu() >= 1 ? ci : ci.inverse();
        return String.format(Locale.ROOT, " [%.2f–%.2f]", f.lo(), f.hi());
    }

    private static String offline(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    /** "1.30× faster than wasm", "2.78× slower than native cpu", "as fast as native cpu" from a speed-up. */
    public static String than(double speedup, String what) {
        if (!Double.isFinite(speedup) || speedup <= 0) {
            return "not compared with " + what;
        }
        if (Math.abs(speedup - 1) < 0.005) {
            return "as fast as " + what;
        }
        return speedup > 1 ? String.format(Locale.ROOT, "%.2f× faster than %s", speedup, what)
                : String.format(Locale.ROOT, "%.2f× slower than %s", 1 / speedup, what);
    }
}
