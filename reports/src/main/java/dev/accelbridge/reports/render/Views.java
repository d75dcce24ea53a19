package dev.accelbridge.reports.render;

import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.VersionOrder;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.history.ChangeKind;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.store.ResultJson;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The data the charts draw, defined once for the static report ({@code report.html} inlines it) and the dashboard
 * ({@code GET /api/matrix} serves it): one object per cell with its labels, status, score, the ratio to the native CPU
 * reference and its history, so both draw the same views with the same script ({@code views.js}).
 */
@PublicApi
public final class Views {
    private Views() {
    }

    /** The matrix's cells that pass {@code filter}, and the values each filter field takes among all cells. */
    public static ObjectNode matrix(Matrix m, CaseFilter filter) {
        ObjectNode d = ResultJson.MAPPER.createObjectNode();
        d.put("scope", m.scope()).put("generatedAt", m.generatedAt().toString());
        boolean multiHost = m.cells().stream().map(Cell::host).distinct().count() > 1;
        ArrayNode cells = d.putArray("cells");
        for (Cell c : m.cells()) {
            if (filter.test(c.result())) {
                cells.add(cell(c, multiHost));
            }
        }
        d.set("facets", facets(m.cells().stream().map(Cell::result).toList()));
        return d;
    }

    /**
     * One cell as the charts and the dashboard's tables read it. The steps put the fields in the order the object has
     * always had (its JSON is served and inlined as is): the case and its outcome, the grid's labels, the figures, the
     * change and the history.
     */
    public static ObjectNode cell(Cell c, boolean multiHost) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        putCase(o, c, multiHost);
        putGrid(o, c, multiHost);
        putFigures(o, c);
        o.put("regression", c.change() != null && c.change().kind() == ChangeKind.REGRESSION);
        o.put("change", c.change() == null || c.change().kind() == null ? null : c.change().kind().name());
        o.put("changePercent", c.change() == null ? null : c.change().percent());
        ArrayNode hist = o.putArray("history");
        c.history().forEach(p -> {
            if (Double.isFinite(p.p50Ms()) && p.startedAt() != null) {
                ArrayNode pt = hist.addArray();
                pt.add(p.startedAt().toString());
                pt.add(p.p50Ms());
                pt.add(p.runId());
            }
        });
        return o;
    }

    /** The case (its key, run, row and column, its dimensions, its host) and its outcome. */
    private static void putCase(ObjectNode o, Cell c, boolean multiHost) {
        RunResult r = c.result();
        var id = r.id();
        o.put("key", id.key()).put("runId", r.runId());
        o.put("row", multiHost ? c.row() + " @ " + c.host() : c.row());
        o.put("col", c.column());
        o.put("ran", c.ranOn());
        o.put("ranked", c.ranked());
        ResultJson.putCase(o, id);
        o.put("host", c.host());
        o.put("status", r.status().name());
        o.put("actual", r.actual() == null ? null : r.actual().id());
        o.put("score", Math.round(c.score().value() * 10) / 10.0);
        o.put("grade", c.score().grade().name());
        o.put("isBrowser", id.lane().side().comparedWithNative());
        o.put("caveat", Fmt.caveat(c).trim());
    }

    /** The matrix grid's levels and its cell: one mark and one figure, the rest on hover and in the drill-down. */
    private static void putGrid(ObjectNode o, Cell c, boolean multiHost) {
        RunResult r = c.result();
        var id = r.id();
        o.put("group", id.family().id());
        String model = c.row().substring(id.family().id().length() + 1);
        o.put("model", multiHost ? model + " @ " + c.host() : model);
        o.put("backend", id.requested().id());
        o.put("browser", browserShort(c));
        o.put("browserFull", c.browserLabel());
        o.put("versions", c.versionsLabel().replaceFirst("^ · ", ""));
        o.put("glyph", Glyph.of(r.status()));
        o.put("figure", r.status().executed() ? Glyph.figure(c.p50()) : "");
        o.put("software", c.softwareAdapter());
        o.put("reason", r.reason());
        o.put("anchor", DrillDowns.has(c) ? DrillDowns.anchor(c) : null);
    }

    /** The figures, null where there is none: a generation's decoding first, then the p50 and its ratio to native CPU. */
    private static void putFigures(ObjectNode o, Cell c) {
        RunResult r = c.result();
        var dec = r.timings() != null && r.timings().figures() instanceof Decoding g ? g : null;
        if (dec != null) {
            o.set("ttft", figure(dec.ttftP50Ms()));
            o.set("ttftCi", interval(dec.ttftCi()));
            o.set("tokensPerSec", figure(dec.tokensPerSec()));
            o.set("tokensPerSecCi", interval(dec.tokensPerSecCi()));
        }
        o.put("speed", Fmt.speed(c));
        o.set("p50", figure(c.p50()));
        o.set("cpuP50", figure(c.cpuP50Ms()));
        o.set("vsNative", figure(c.vsNative()));
        o.set("vsNativeCi", interval(c.vsNativeCi()));
        var q = r.timings() == null ? null : r.timings().quality();
        o.set("p50CiMs", interval(q == null ? null : q.p50Ci()));
        o.put("floored", c.floored());
        o.put("trust", Fmt.trust(r.timings()).trim());
        boolean reference = r.id().isNativeCpu();
        o.put("vsNativeLabel", reference ? "the native CPU reference" : ratioLabel(c.vsNative(), c.vsNativeCi()));
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
        ArrayNode out = ResultJson.MAPPER.createArrayNode();
        for (int i = 0; i < oldestFirst.size(); i++) {
            RunResult r = oldestFirst.get(i);
            Change ch = MatrixBuilder.change(oldestFirst.subList(0, i + 1), r, detector);
            ObjectNode p = out.addObject();
            p.put("runId", r.runId()).put("startedAt", r.startedAt() == null ? null : r.startedAt().toString())
                    .put("status", r.status().name()).put("actual", r.actual() == null ? null : r.actual().id());
            p.set("p50", figure(r.timings() == null ? Double.NaN : r.timings().p50Ms()));
            p.put("change", ch == null || ch.kind() == null ? null : ch.kind().name());
            p.put("changePercent", ch == null ? null : ch.percent());
        }
        return out;
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

    /** A figure for the views: the number, or null when there is none (never a placeholder). */
    static com.fasterxml.jackson.databind.JsonNode figure(double v) {
        return Double.isFinite(v) ? ResultJson.MAPPER.getNodeFactory().numberNode(v) : ResultJson.MAPPER.getNodeFactory().nullNode();
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
    static com.fasterxml.jackson.databind.JsonNode interval(Interval ci) {
        if (ci == null) {
            return ResultJson.MAPPER.getNodeFactory().nullNode();
        }
        return ResultJson.MAPPER.getNodeFactory().arrayNode().add(ci.lo()).add(ci.hi());
    }
}
