package dev.accelbridge.reports.render;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.history.ChangeKind;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code report.html}: one self-contained file (no CDN; works offline). Apache ECharts, installed from npm at build
 * time (reports/package.json + lockfile) and packaged in this jar, is inlined into the page with {@code views.js}, the
 * views the dashboard draws too (the matrix's grid, browser vs native CPU, generation, p50 history per cell). The parts
 * come in {@link Part}'s order; the sections and the table of all cells are rendered on the server, so they read even
 * with scripts off. One job, the page, as {@link MarkdownRenderer} is report.md's: its skeleton, parts, table and
 * drill-downs write into one builder through one escaping, so it stays whole near the size limit.
 */
final class HtmlRenderer {
    private HtmlRenderer() {
    }

    /** The page. */
    public static String render(Matrix m) {
        StringBuilder sb = new StringBuilder(ChartAssets.echarts().length() + 200_000);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>Accelbridge compatibility matrix</title>\n<style>\n").append(CSS).append("</style>\n")
                .append("<script>\n/* Apache ECharts (Apache License 2.0), inlined so this report works offline */\n")
                .append(ChartAssets.echarts()).append("\n</script>\n<script>\n").append(ChartAssets.views())
                .append("\n</script>\n</head>\n<body>\n");
        sb.append("<h1>Accelbridge compatibility matrix</h1>\n<p class=\"meta\">Scope: ").append(h(m.scope())).append(" · generated ")
                .append(h(m.generatedAt().toString())).append(" · ").append(m.cells().size()).append(" cells · ")
                .append(m.hosts().size()).append(" host(s) · <span").append(m.regressions().isEmpty() ? "" : " class=\"reg\"").append('>')
                .append(m.regressions().size()).append(" regression(s)</span> · ").append(m.improvements().size()).append(" improvement(s)</p>\n");
        // every part in the one order (Part); all but the overview and the matrix folded to one line until opened
        for (Part p : Part.values()) {
            switch (p.html()) {
                case WRITTEN -> p.sections(m).forEach(s -> folded(sb, s));
                case DRAWN -> drawn(sb, p, m);
                case LEFT_OUT -> {
                }
            }
        }
        sb.append("<p class=\"meta\">Status is the compatibility verdict; speed is the ratio to the native CPU reference of the "
                + "same case on the same host; a software adapter or an unverified WebNN device is marked in the cell and never "
                + "graded like hardware acceleration. Score 0–100, grade High / Medium / Low / None: docs/scoring.md.</p>\n");
        // no '<' in the element at all: "</script>" would end it, and "<!--" followed by "<script" would hold it open past
        // its own end (the parser's escaped script state); in JSON a '<' only stands in a string, where \u003c is the same
        sb.append("<script type=\"application/json\" id=\"matrix-data\">").append(data(m).toString().replace("<", "\\u003c"))
                .append("</script>\n<script>\n").append(JS).append("</script>\n</body>\n</html>\n");
        return sb.toString();
    }

    /** A part HTML draws its own way: charts draw when their section opens. */
    private static void drawn(StringBuilder sb, Part p, Matrix m) {
        switch (p) {
            case OVERVIEW -> sb.append(Overview.html(m));
            case MATRIX -> sb.append("<h2 id=\"matrix\">Matrix</h2>\n<p class=\"meta\">").append(h(Glyph.LEGEND))
                    .append("; the figure is the p50 in ms. Hover a cell for its notes, click it for its drill-down; click a family or "
                            + "a backend to fold it. A dashed cell ran on a software adapter, an italic figure sits on a latency floor.</p>\n"
                            + "<div id=\"grid\"></div>\n<div id=\"cell-detail\" class=\"detail\" hidden></div>\n");
            case BROWSER_VS_NATIVE -> sb.append("<details class=\"sec\" id=\"sec-ratio\"><summary><h2>Browser vs native CPU</h2></summary>\n"
                    + "<p class=\"meta\">p50 ratio, 1× = native CPU, above 1 = slower; cells on hardware (or the CPU itself for wasm and "
                    + "WebNN cpu). Not ranked: ").append(unranked(m)).append(".</p>\n<div id=\"ratio\" class=\"chart\"></div>\n</details>\n");
            case GENERATION_CHARTS -> {
                Section gen = GenerationSection.of(m);
                if (!gen.hidden() && !gen.empty()) {
                    sb.append("<details class=\"sec\" id=\"sec-gen-charts\"><summary><h2>Generation: time to first token and tokens "
                            + "per second</h2></summary>\n<div id=\"ttft\" class=\"chart\"></div>\n<div id=\"tps\" class=\"chart\"></div>\n"
                            + "</details>\n");
                }
            }
            case HISTORY -> sb.append("<details class=\"sec\" id=\"sec-history\"><summary><h2>Latency history per cell (p50, ms)</h2>"
                    + "</summary>\n<div id=\"history\" class=\"chart\"></div>\n</details>\n");
            case DRILL_DOWN -> drillDown(sb, m);
            case CELLS -> {
                sb.append("<details class=\"sec\" id=\"sec-cells\"><summary><h2>All cells (").append(m.cells().size())
                        .append(")</h2></summary>\n");
                table(sb, m);
                sb.append("</details>\n");
            }
            default -> throw new IllegalStateException(p + " has no drawing in HTML");
        }
    }

    /** The executed browser cells the ranking leaves out, counted by why: "3 fell back, 2 on a latency floor". */
    private static String unranked(Matrix m) {
        long fell = m.cells().stream().filter(c -> c.result().status() == Status.FELL_BACK && c.key().lane().side().comparedWithNative()).count();
        long floored = m.cells().stream().filter(c -> c.floored() && c.key().lane().side().comparedWithNative()).count();
        long software = m.cells().stream().filter(c -> c.softwareAdapter() && c.result().status() != Status.FELL_BACK).count();
        return fell + " cell(s) that fell back (their figure is another backend's), " + floored
                + " on a latency floor (their figure is the floor's, not the model's), " + software
                + " on a software adapter (WebGPU run by the CPU: a verdict, not a GPU's speed)";
    }

    /** The data the charts draw: {@link Views#matrix}, the same the dashboard serves. */
    static ObjectNode data(Matrix m) {
        return Views.matrix(m, CaseFilter.ALL);
    }

    /** Each case's drill-down: its op profile and bisection path as bars, and the tables {@link DrillDowns} makes. */
    private static void drillDown(StringBuilder sb, Matrix m) {
        List<DrillDowns.View> views = DrillDowns.of(m);
        if (views.isEmpty()) {
            return;
        }
        sb.append("<details class=\"sec\" id=\"drill-down\"><summary><h2>Drill-down (why wrong, where the time goes): ")
                .append(views.size()).append(" case(s)</h2></summary>\n");
        for (DrillDowns.View v : views) {
            sb.append("<details class=\"case\" id=\"").append(v.anchor()).append("\"><summary><b>").append(h(v.label()))
                    .append("</b> — ").append(h(v.summary())).append("</summary>\n");
            bars(sb, "Time per op type (ms per iteration)", v.opBars(), "op");
            bars(sb, "Error along the bisection's path, first diverging node first (log scale)", v.errorBars(), "err");
            for (DrillDowns.Table t : v.tables()) {
                sb.append("<h3>").append(h(t.title())).append("</h3>\n<table>");
                if (t.header().stream().anyMatch(x -> !x.isEmpty())) {
                    sb.append("<tr>");
                    t.header().forEach(x -> sb.append("<th>").append(h(x)).append("</th>"));
                    sb.append("</tr>");
                }
                for (List<String> row : t.rows()) {
                    sb.append("<tr>");
                    row.forEach(x -> sb.append("<td>").append(h(x)).append("</td>"));
                    sb.append("</tr>");
                }
                sb.append("</table>\n");
                if (t.note() != null && !t.note().isBlank()) {
                    sb.append("<p class=\"meta\">").append(h(t.note())).append("</p>\n");
                }
            }
            sb.append("</details>\n");
        }
        sb.append("</details>\n");
    }

    private static void bars(StringBuilder sb, String title, List<DrillDowns.Bar> bars, String cls) {
        if (bars.isEmpty()) {
            return;
        }
        sb.append("<h3>").append(h(title)).append("</h3>\n<div class=\"bars ").append(cls).append("\">");
        for (DrillDowns.Bar b : bars) {
            sb.append("<div class=\"bar\"><span class=\"lbl\">").append(h(b.label())).append("</span><span class=\"fill\" style=\"width:")
                    .append(String.format(java.util.Locale.ROOT, "%.1f", 100 * b.fraction())).append("%\"></span><span class=\"val\">")
                    .append(h(b.value())).append("</span></div>");
        }
        sb.append("</div>\n");
    }

    /** A section folded to its heading until opened (the report's height with everything folded stays a few screens). */
    private static void folded(StringBuilder sb, Section s) {
        if (s.hidden()) {
            return;
        }
        sb.append("<details class=\"sec\" id=\"sec-").append(h(s.id())).append("\"><summary><h2>").append(h(s.title()))
                .append(s.empty() ? " — none" : "").append("</h2></summary>\n");
        body(sb, s);
        sb.append("</details>\n");
    }

    /** A section as HTML: its heading, intro, then its table or list (or its "none" line; nothing at all without one). */
    static void write(StringBuilder sb, Section s) {
        if (s.hidden()) {
            return;
        }
        sb.append("<h2>").append(h(s.title())).append("</h2>\n");
        body(sb, s);
    }

    /** A section's intro, then its table or list (or its "none" line): all of it under the heading. */
    private static void body(StringBuilder sb, Section s) {
        if (s.intro() != null) {
            sb.append("<p>").append(h(s.intro())).append("</p>\n");
        }
        if (s.empty()) {
            sb.append("<p>").append(h(s.none())).append("</p>\n");
            return;
        }
        if (s.table() != null && !s.table().rows().isEmpty()) {
            sb.append("<table id=\"").append(h(s.id())).append("\"><tr>");
            s.table().header().forEach(x -> sb.append("<th>").append(h(x)).append("</th>"));
            sb.append("</tr>\n");
            for (Section.Row row : s.table().rows()) {
                sb.append("<tr").append(cls(row.cls())).append('>');
                row.cells().forEach(x -> sb.append("<td").append(cls(x.cls())).append('>').append(h(x.text())).append("</td>"));
                sb.append("</tr>\n");
            }
            sb.append("</table>\n");
        }
        for (Section.Item item : s.items()) {
            String line = (item.lead() == null ? "" : "<b>" + h(item.lead()) + "</b>") + h(item.text());
            if (item.folded() && !item.steps().isEmpty()) {
                sb.append("<details class=\"finding\"><summary>").append(line).append("</summary><ul class=\"cells\">");
                item.steps().forEach(step -> sb.append("<li>").append(h(step.text())).append("</li>"));
                sb.append("</ul></details>\n");
                continue;
            }
            sb.append("<p>").append(line).append("</p>\n");
            if (!item.steps().isEmpty()) {
                sb.append("<ol class=\"hops\">");
                item.steps().forEach(step -> sb.append("<li").append(cls(step.marked() ? "taken" : null)).append('>')
                        .append(h(step.text())).append("</li>"));
                sb.append("</ol>\n");
            }
        }
    }

    private static String cls(String c) {
        return c == null ? "" : " class=\"" + h(c) + "\"";
    }

    private static void table(StringBuilder sb, Matrix m) {
        sb.append("<table id=\"cells\"><tr><th>model</th><th>backend [browser]</th><th>host</th><th>status</th>"
                + "<th>score</th><th>actual</th><th>load ms</th><th>first ms</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th>"
                + "<th>speed vs native CPU</th><th>max abs err</th><th>cosine</th><th>reason</th><th>provenance</th></tr>\n");
        for (Cell c : m.cells()) {
            RunResult r = c.result();
            RowFigures f = RowFigures.of(r);
            boolean reg = c.change() != null && c.change().kind() == ChangeKind.REGRESSION;
            sb.append("<tr class=\"").append(r.status().name().toLowerCase()).append(reg ? " regression" : "").append("\"><td>")
                    .append(h(c.row())).append("</td><td>").append(h(c.column())).append("</td><td>").append(h(c.host()))
                    .append("</td><td>").append(r.status()).append(reg ? " ⚠ regression " + h(c.change().percent()) : "")
                    .append(h(Fmt.caveat(c))).append("</td><td>").append(Fmt.score(c.score().value())).append(" ").append(c.score().grade().label())
                    .append("</td><td>").append(f.ranOn()).append("</td><td>").append(f.loadMs()).append("</td><td>")
                    .append(f.firstMs()).append("</td><td>").append(f.p50Ms()).append("</td><td>").append(f.p90Ms()).append("</td><td>")
                    .append(f.p99Ms()).append("</td><td>").append(h(Fmt.speed(c) + " (threads " + Fmt.threads(c) + ")"))
                    .append("</td><td>").append(f.maxAbsErr()).append("</td><td>").append(f.cosine())
                    .append("</td><td>").append(h(r.reason())).append("</td><td>").append(provenance(r.provenance()))
                    .append("</td></tr>\n");
        }
        sb.append("</table>\n");
    }

    private static String provenance(Provenance p) {
        if (p == null) {
            return RowFigures.ABSENT;
        }
        StringBuilder s = new StringBuilder(h(p.browserLabel())).append(" via ").append(h(p.driver()));
        if (p.adapter() != null) {
            s.append("<br>adapter ").append(h(p.adapter()));
        }
        if (Boolean.TRUE.equals(p.softwareAdapter())) {
            s.append(" <span class=\"sw\">software adapter (WebGPU on the CPU)</span>");
        }
        Map<String, String> v = new LinkedHashMap<>(new java.util.TreeMap<>(p.runtimeVersions()));
        if (!v.isEmpty()) {
            s.append("<br>").append(h(v.toString()));
        }
        return s.toString();
    }

    /** HTML-escapes text. */
    static String h(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                // control characters (NUL, ESC, ...) carry nothing a reader needs and some parsers refuse them
                default -> b.append(Character.isISOControl(ch) && ch != '\n' && ch != '\t' ? ' ' : ch);
            }
        }
        return b.toString();
    }

    private static final String CSS = """
            body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 1800px; }
            h1 { font-size: 1.5em; margin: 0 0 .2em; } h2 { font-size: 1.15em; margin: 1.1em 0 .4em; } h3 { font-size: 1em; }
            .meta { color: #555; margin: .3em 0; } .reg { color: #b00020; font-weight: 600; }
            .chart { width: 100%; min-height: 60px; border: 1px solid #ddd; }
            table { border-collapse: collapse; font-size: 12px; }
            th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
            th { background: #f3f3f3; }
            td.ok { color: #1b7f1b; } td.warn { color: #8a5300; } td.bad { color: #b00020; font-weight: 600; }
            tr.passed td:nth-child(4) { color: #1b7f1b; } tr.fell_back td:nth-child(4) { color: #b36b00; }
            tr.wrong_output td:nth-child(4), tr.failed td:nth-child(4) { color: #b00020; font-weight: 600; }
            tr.unavailable td:nth-child(4), tr.unsupported td:nth-child(4) { color: #777; }
            tr.regression { background: #ffe3e6; } tr.improvement { background: #e3f6e3; }
            .sw { background: #fff3c4; padding: 0 3px; border-radius: 3px; }
            ol.hops li.taken { font-weight: 600; }
            #overview h2 { font-size: 1.05em; margin: .8em 0 .3em; } #overview p { margin: .2em 0; }
            details.sec { margin: .2em 0; border-top: 1px solid #e4e4e4; } details.sec > summary { cursor: pointer; padding: .2em 0; }
            details.sec > summary h2 { display: inline; font-size: 1.05em; margin: 0; }
            details.finding { margin: .15em 0; } details.finding > summary { cursor: pointer; }
            ul.cells { margin: .2em 0 .4em; font-size: 12px; color: #444; }
            details.case { margin: .4em 0; } details.case > summary { cursor: pointer; }
            .bars { max-width: 900px; } .bar { display: flex; align-items: center; gap: 6px; font-size: 12px; margin: 1px 0; }
            .bar .lbl { width: 260px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
            .bar .fill { display: inline-block; height: 12px; background: #4a78c2; min-width: 1px; }
            .bars.err .fill { background: #c2504a; } .bar .val { color: #555; white-space: nowrap; }
            """ + ChartAssets.gridCss();

    private static final String JS = """
            (function () {
              var data = JSON.parse(document.getElementById('matrix-data').textContent);
              var V = window.AccelbridgeViews;
              function el(id) { return document.getElementById(id); }
              var charts = {};
              function show(c) {
                if (c.anchor && el(c.anchor)) {
                  var d = el(c.anchor); d.open = true; var p = d.parentNode; if (p.tagName === 'DETAILS') { p.open = true; }
                  d.scrollIntoView(); return;
                }
                var box = el('cell-detail');
                box.textContent = c.row + ' · ' + c.col + ' · ' + c.host + '\\n' + c.status + (c.actual && c.actual !== c.backend
                  ? ' (ran on ' + c.actual + ')' : '') + ' · score ' + c.score + (c.caveat ? '\\n' + c.caveat : '')
                  + (c.vsNativeLabel ? '\\n' + c.vsNativeLabel : '') + (c.reason ? '\\n' + c.reason : '');
                box.hidden = false;
              }
              charts.grid = V.grid(el('grid'), data.cells, { onCell: show });
              var lazy = {
                'sec-ratio': function () { charts.ratio = V.ratio(el('ratio'), data.cells, { onCell: show }); },
                'sec-gen-charts': function () { charts.ttft = V.generation(el('ttft'), data.cells, { which: 'ttft', onCell: show });
                  charts.tps = V.generation(el('tps'), data.cells, { which: 'tokensPerSec', onCell: show }); },
                'sec-history': function () { charts.history = V.history(el('history'), data.cells); }
              };
              Object.keys(lazy).forEach(function (id) {
                var d = el(id);
                if (!d) { return; }
                var drawn = false;
                d.addEventListener('toggle', function () { if (d.open && !drawn) { drawn = true; lazy[id](); } });
              });
              // report.html#all opens every section (to print, or to look at everything at once)
              if (location.hash === '#all') { document.querySelectorAll('details').forEach(function (d) { d.open = true; }); }
              window.accelbridgeCharts = charts;
              window.addEventListener('resize', function () { Object.keys(charts).forEach(function (k) { charts[k].resize(); }); });
            })();
            """;
}
