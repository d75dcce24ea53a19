package dev.accelbridge.reports.render;

import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.VersionOrder;
import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.history.ChangeKind;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.store.FormOf;
import dev.accelbridge.reports.store.ResultJson;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Function;

import static dev.accelbridge.reports.store.ResultJson.finite;

/**
 * The data the charts draw, defined once for the static report ({@code report.html} inlines it) and the dashboard
 * ({@code GET /api/matrix} serves it): one object per cell with its labels, status, score, the ratio to the native CPU
 * reference and its history, so both draw the same views with the same script ({@code views.js}).
 */
@PublicApi
public final class Views {
    private Views() {
    }

    /**
     * What the charts and the dashboard read: the scope, when it was made, the cells that pass the filter (each a
     * {@link CellView} with its case's dimensions after {@code ranked}) and the values each filter field takes among all cells.
     */
    public record MatrixView(String scope, String generatedAt, @FormOf(CellView.class) List<ObjectNode> cells, ObjectNode facets) {
    }

    /**
     * One cell as the charts and the dashboard's tables read it, in the order the object has always had (its JSON is
     * served and inlined as is): the case and its outcome, the grid's labels, the figures (null where there is none,
     * never a placeholder), the change and the history. The case's dimensions are written after {@code ranked}
     * ({@link ResultJson#withCase}).
     *
     * @param ran      the backend that produced the figures in its lane ({@link Cell#ranOn()})
     * @param model    the grid's label of the model ({@code "convnet @ alpha"} across hosts); it is written where the case's
     *                 dimension of the same name stands, in its place
     * @param decoding a generation's decoding figures, written in place; absent for any other case
     * @param history  one point per earlier run with a figure: {@code [startedAt, p50, runId]}
     */
    public record CellView(String key, String runId, String row, String col, String ran, boolean ranked, String host,
                           String status, String actual, double score, String grade,
                           @JsonProperty("isBrowser") boolean isBrowser, String caveat,
                           String group, String model, String backend, String browser, String browserFull, String versions,
                           String glyph, String figure, boolean software, String reason, String anchor,
                           @JsonUnwrapped DecodingView decoding, String speed, Double p50, Double cpuP50, Double vsNative,
                           double[] vsNativeCi, double[] p50CiMs, boolean floored, String trust, String vsNativeLabel,
                           boolean regression, String change, String changePercent, List<Point> history) {
    }

    /** A generation's decoding figures in a cell: time to first token, tokens per second, each with its interval. */
    public record DecodingView(Double ttft, double[] ttftCi, Double tokensPerSec, double[] tokensPerSecCi) {
    }

    /** A point of a cell's history, written as an array. */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    @JsonPropertyOrder({"startedAt", "p50Ms", "runId"})
    public record Point(String startedAt, double p50Ms, String runId) {
    }

    /**
     * One run of a cell's history as the dashboard's case view reads it, compared with the runs before it.
     *
     * @param p50           null where it has no figure
     * @param changePercent the change's {@link Change#percent()}, or null
     */
    public record HistoryEntry(String runId, String startedAt, String status, String actual, Double p50, String change,
                               String changePercent) {
    }

    /** The matrix's cells that pass {@code filter}, and the values each filter field takes among all cells. */
    public static ObjectNode matrix(Matrix m, CaseFilter filter) {
        boolean multiHost = m.cells().stream().map(Cell::host).distinct().count() > 1;
        List<ObjectNode> cells = m.cells().stream().filter(c -> filter.test(c.result())).map(c -> cell(c, multiHost)).toList();
        return ResultJson.MAPPER.valueToTree(new MatrixView(m.scope(), m.generatedAt().toString(), cells,
                facets(m.cells().stream().map(Cell::result).toList())));
    }

    /** One cell as the charts and the dashboard's tables read it ({@link CellView}). */
    public static ObjectNode cell(Cell c, boolean multiHost) {
        return ResultJson.withCase(ResultJson.MAPPER.valueToTree(view(c, multiHost)), "ranked", c.result().id());
    }

    /** One cell's view. */
    public static CellView view(Cell c, boolean multiHost) {
        RunResult r = c.result();
        var id = r.id();
        String model = c.row().substring(id.family().id().length() + 1);
        var dec = r.timings().map(tm -> tm.figures()).orElse(null) instanceof Decoding g ? g : null;
        var q = r.timings().map(tm -> tm.quality()).orElse(null);
        Change ch = c.change();
        List<Point> history = c.history().stream().filter(p -> Double.isFinite(p.p50Ms()) && p.startedAt() != null)
                .map(p -> new Point(p.startedAt().toString(), p.p50Ms(), p.runId())).toList();
        return new CellView(id.key(), r.runId(), multiHost ? c.row() + " @ " + c.host() : c.row(), c.column(), c.ranOn(), c.ranked(),
                c.host(), r.status().name(), r.actual().map(ba -> ba.id()).orElse(null), Math.round(c.score().value() * 10) / 10.0,
                c.score().grade().name(), id.lane().side().comparedWithNative(), Fmt.caveat(c).trim(),
                id.family().id(), multiHost ? model + " @ " + c.host() : model, id.requested().id(), browserShort(c), c.browserLabel(),
                c.versionsLabel().replaceFirst("^ · ", ""), Glyph.of(r.status()), r.status().executed() ? Glyph.figure(c.p50()) : "",
                c.softwareAdapter(), r.reason(), DrillDowns.has(c) ? DrillDowns.anchor(c) : null,
                dec == null ? null : new DecodingView(finite(dec.ttftP50Ms()), interval(dec.ttftCi()), finite(dec.tokensPerSec()),
                        interval(dec.tokensPerSecCi())),
                Fmt.speed(c), finite(c.p50()), finite(c.cpuP50Ms()), finite(c.vsNative()), interval(c.vsNativeCi()),
                interval(q == null ? null : q.p50Ci()), c.floored(), Fmt.trust(r.timings()).trim(),
                id.isNativeCpu() ? "the native CPU reference" : ratioLabel(c.vsNative(), c.vsNativeCi()),
                ch != null && ch.kind() == ChangeKind.REGRESSION, ch == null || ch.kind() == null ? null : ch.kind().name(),
                ch == null ? null : ch.percent(), history);
    }

    /** "chromium 156", "firefox 153", "native": the browser and its major, short enough for a column's head. */
    private static String browserShort(Cell c) {
        var p = c.result().provenance();
        if (p == null || p.browser() == null) {
            return c.result().id().lane().id();
        }
        String major = BrowserKind.fromName(p.browser()).release(p.browserVersion());
        return p.browserVersion() == null ? p.browser() : p.browser() + " " + (major == null ? p.browserVersion() : major);
    }

    /**
     * A cell's history, one point per run, each compared with the runs before it as the matrix compares the newest one
     * (so a regression is marked where it happened).
     */
    public static ArrayNode history(List<RunResult> oldestFirst, RegressionDetector detector) {
        List<HistoryEntry> out = new ArrayList<>();
        for (int i = 0; i < oldestFirst.size(); i++) {
            RunResult r = oldestFirst.get(i);
            Change ch = MatrixBuilder.change(oldestFirst.subList(0, i + 1), r, detector);
            out.add(new HistoryEntry(r.runId(), r.startedAt() == null ? null : r.startedAt().toString(), r.status().name(),
                    r.actual().map(ba -> ba.id()).orElse(null), finite(r.timings().map(tm -> tm.p50Ms()).orElse(Double.NaN)),
                    ch == null || ch.kind() == null ? null : ch.kind().name(), ch == null ? null : ch.percent()));
        }
        return ResultJson.MAPPER.valueToTree(out);
    }

    /** The values each filter field takes among {@code results}, sorted: the options of the page's filters. */
    public static ObjectNode facets(Collection<RunResult> results) {
        ObjectNode f = ResultJson.MAPPER.createObjectNode();
        for (Dimension<?> d : Dimensions.facets()) {
            facet(f, d.name(), results, r -> d.text(r.id()));
        }
        facet(f, "host", results, CaseFilter::hostName);
        facet(f, "status", results, r -> r.status().name());
        return f;
    }

    /** A facet's values, in version order (so batch 4 comes before 16, onnxruntime-web 1.9.0 before 1.22.0); none for an unknown value. */
    private static void facet(ObjectNode f, String name, Collection<RunResult> results, Function<RunResult, String> value) {
        TreeSet<String> vs = new TreeSet<>(VersionOrder.ASCENDING);
        results.forEach(r -> {
            String v = value.apply(r);
            if (v != null) {
                vs.add(v);
            }
        });
        ArrayNode a = f.putArray(name);
        new ArrayList<>(vs).forEach(a::add);
    }


    /** "3.2× slower than native CPU" / "1.8× faster than native CPU"; "" when there is no ratio. */
    public static String ratioLabel(double vsNative) {
        return ratioLabel(vsNative, null);
    }

    /** The same with the ratio's 95 % interval: "3.20× slower than native CPU [3.05–3.41]". */
    public static String ratioLabel(double vsNative, Interval ci) {
        if (!Double.isFinite(vsNative) || vsNative <= 0) {
            return "";
        }
        return vsNative >= 1 ? String.format(Locale.ROOT, "%.2f× slower than native CPU", vsNative) + (ci == null ? "" : " " + Fmt.interval(ci))
                : String.format(Locale.ROOT, "%.2f× faster than native CPU", 1 / vsNative) + (ci == null ? "" : " " + Fmt.interval(ci.inverse()));
    }

    /** An interval for the views: {@code [lo, hi]}, or null. */
    static double[] interval(Interval ci) {
        return ci == null ? null : new double[]{ci.lo(), ci.hi()};
    }
}
