package dev.accelbridge.reports.render;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.store.ResultJson;

import java.util.List;
import java.util.Locale;

import static dev.accelbridge.reports.store.ResultJson.finite;

/**
 * The JSON of a {@link Comparison} that the dashboard ({@code GET /api/compare}) and {@code compare --json} read, as
 * records serialised whole: each row's two sides, its ratio with its interval and the interval's basis, whether the
 * change is significant, the memory change and the caveat. A figure that is not a finite number is null.
 */
@PublicApi
public final class ComparisonJson {
    private ComparisonJson() {
    }

    /**
     * The comparison's form.
     *
     * @param by   what the sides differ by ({@link Comparison.By#id()})
     * @param a    side A's name
     * @param b    side B's name
     * @param rows one per case, pairs first
     */
    public record Form(String by, String a, String b, List<RowForm> rows) {
    }

    /**
     * One case's row.
     *
     * @param ratio      B's p50 over A's (null: not compared)
     * @param ratioCi    its 95 % interval {@code [lo, hi]}, or null
     * @param runNoise   the run-to-run spread the interval allowed for, or null
     * @param ciBasis    what the interval rests on, or null without one
     * @param ratioLabel the ratio as the dashboard prints it ({@code ×1.32 [1.28–1.36] significant}); "" without one
     */
    public record RowForm(String label, Side a, Side b, Double ratio, double[] ratioCi, boolean significant, Double runNoise,
                          int noiseRuns, String ciBasis, String memoryChange, String caveat, String ratioLabel) {
    }

    /** A row's side: the result it holds, or its absence. */
    public sealed interface Side permits Present, Absent {
    }

    /**
     * A side that has the case.
     *
     * @param p50          its p50 in ms (null: it did not run)
     * @param gpuPeakBytes the page's GPU ledger's peak, absent where none was kept
     */
    public record Present(String key, String runId, String status, String actual, String host, String browser, Double p50,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Long gpuPeakBytes) implements Side {
    }

    /** A side that lacks the case ({@code status: ABSENT}). */
    public record Absent(String status) implements Side {
        static final Absent ABSENT = new Absent("ABSENT");
    }

    /** The comparison as the dashboard reads it. */
    public static ObjectNode json(Comparison c) {
        return ResultJson.MAPPER.valueToTree(form(c));
    }

    /** The comparison's form. */
    public static Form form(Comparison c) {
        return new Form(c.by().id(), c.a(), c.b(), c.rows().stream().map(ComparisonJson::row).toList());
    }

    private static RowForm row(Comparison.Row r) {
        Interval ci = r.ratioCi();
        return new RowForm(r.label(), side(r.a()), side(r.b()), finite(r.ratio()), ci == null ? null : new double[]{ci.lo(), ci.hi()},
                r.significant(), finite(r.runNoise()), r.noiseRuns(), ci == null ? null : r.noiseRuns() == 0
                ? "the two runs' samples only (no run-to-run history)" : "the samples and the run-to-run noise of " + r.noiseRuns() + " runs",
                r.memoryChange(), r.caveat(), Double.isFinite(r.ratio()) ? String.format(Locale.ROOT, "×%.2f", r.ratio())
                + (ci == null ? "" : " " + Fmt.interval(ci)) + (r.significant() ? " significant" : "") : "");
    }

    private static Side side(RunResult r) {
        if (r == null) {
            return Absent.ABSENT;
        }
        return new Present(r.id().key(), r.runId(), r.status().name(), r.actual().map(ba -> ba.id()).orElse(null), CaseFilter.hostName(r),
                r.provenance() == null ? r.id().lane().id() : r.provenance().browserLabel(),
                r.timings().map(t -> finite(t.p50Ms())).orElse(null), r.memory().gpu() == null ? null : r.memory().gpu().peakBytes());
    }

}
