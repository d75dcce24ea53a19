package dev.accelbridge.reports.render;

import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.Change;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code report.md}: the matrix table (suite/model × backend [browser], per host) with status and score, then
 * browser-vs-native ratios, fallbacks with their cost, regressions and improvements, and the evidence of
 * UNAVAILABLE cells.
 */
public final class MarkdownRenderer {
    private MarkdownRenderer() {
    }

    /** The document. */
    public static String render(Matrix m) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Accelbridge compatibility matrix\n\n");
        sb.append("Scope: ").append(m.scope()).append(" · generated ").append(m.generatedAt()).append(" · ")
                .append(m.cells().size()).append(" cells · ").append(m.hosts().size()).append(" host(s)\n\n");
        Map<Status, Long> counts = m.cells().stream().collect(Collectors.groupingBy(c -> c.result().status(), LinkedHashMap::new,
                Collectors.counting()));
        sb.append(counts.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(" · "))).append("\n\n");

        Map<String, List<Cell>> byHost = new LinkedHashMap<>();
        m.cells().forEach(c -> byHost.computeIfAbsent(c.host(), k -> new ArrayList<>()).add(c));
        for (Map.Entry<String, List<Cell>> e : byHost.entrySet()) {
            sb.append("## Matrix — host ").append(esc(e.getKey())).append("\n\n");
            Set<String> cols = new LinkedHashSet<>();
            Set<String> rows = new LinkedHashSet<>();
            Map<String, Cell> at = new LinkedHashMap<>();
            for (Cell c : e.getValue()) {
                cols.add(c.column());
                rows.add(c.row());
                at.put(c.row() + "\u0000" + c.column(), c);
            }
            sb.append("| model |");
            cols.forEach(c -> sb.append(' ').append(esc(c)).append(" |"));
            sb.append("\n|---|");
            cols.forEach(c -> sb.append("---|"));
            sb.append('\n');
            for (String row : rows) {
                sb.append("| ").append(esc(row)).append(" |");
                for (String col : cols) {
                    Cell c = at.get(row + "\u0000" + col);
                    sb.append(' ').append(c == null ? "" : c.result().status() + " " + Fmt.score(c.score().value()) + " ("
                            + c.score().grade().label() + ")" + Fmt.caveat(c) + (c.result().status().executed() ? " p50 " + Fmt.ms(c.p50())
                            + " ms, " + Fmt.speed(c) : ""))
                            .append(" |");
                }
                sb.append('\n');
            }
            sb.append('\n');
        }

        sb.append("## Browser vs native CPU (p50)\n\n| host | model | backend | p50 ms | native CPU p50 ms | speed vs native CPU | threads (browser / native) | executed on |\n|---|---|---|---|---|---|---|---|\n");
        for (Cell c : m.cells()) {
            if (c.result().status().executed() && !c.key().lane().isNative()) {
                sb.append("| ").append(esc(c.host())).append(" | ").append(esc(c.row())).append(" | ").append(esc(c.column()))
                        .append(" | ").append(Fmt.ms(c.p50())).append(" | ").append(Fmt.ms(c.cpuP50Ms())).append(" | ")
                        .append(Fmt.speed(c)).append(" | ").append(Fmt.threads(c)).append(" | ").append(c.score().acceleration().label()).append(" |\n");
            }
        }
        sb.append('\n');

        List<Cell> fb = m.cells().stream().filter(c -> c.result().status() == Status.FELL_BACK).toList();
        sb.append("## Fallbacks\n\n");
        if (fb.isEmpty()) {
            sb.append("None.\n\n");
        }
        for (Cell c : fb) {
            sb.append("- **").append(esc(c.row())).append("** ").append(esc(c.column())).append(" on ").append(esc(c.host()))
                    .append(": ran on ").append(c.result().actual()).append(" (p50 ").append(Fmt.ms(c.p50())).append(" ms");
            if (Double.isFinite(c.requestedP50Ms())) {
                sb.append("; ").append(c.result().requested()).append(" p50 when it last worked here: ")
                        .append(Fmt.ms(c.requestedP50Ms())).append(" ms");
            }
            sb.append(")\n");
            for (FallbackHop h : c.result().fallbackPath()) {
                sb.append("  - ").append(h.taken() ? "→ " : "").append(h.backend()).append(": ").append(esc(h.reason())).append('\n');
            }
        }
        sb.append('\n');

        sb.append("## Regressions and improvements\n\n");
        List<Cell> changed = new ArrayList<>(m.regressions());
        changed.addAll(m.improvements());
        if (changed.isEmpty()) {
            sb.append("None flagged (a change must exceed the threshold and the run-to-run noise of the cell's earlier runs).\n\n");
        }
        for (Cell c : changed) {
            Change ch = c.change();
            sb.append("- ").append(ch.kind()).append(" ").append(esc(c.row())).append(' ').append(esc(c.column())).append(" on ")
                    .append(esc(c.host())).append(": p50 ").append(Fmt.ms(ch.baselineP50())).append(" → ").append(Fmt.ms(ch.currentP50()))
                    .append(" ms (").append(ch.percent()).append(" against the median of ").append(ch.baselineRuns())
                    .append(" earlier runs; run-to-run noise ").append(Fmt.pct(ch.noise())).append(", bound ").append(Fmt.pct(ch.bound()))
                    .append("; newest earlier run ").append(ch.baselineRunId()).append(")\n");
        }
        sb.append('\n');

        sb.append("## Recommendations (fastest backend that passed on every model of the family, per host)\n\n");
        sb.append("| host | family | precision | best | runner-up |\n|---|---|---|---|---|\n");
        for (var rec : dev.accelbridge.reports.recommend.Recommender.recommend(m.cells().stream().map(Cell::result).toList(), false)) {
            sb.append("| ").append(esc(rec.host())).append(" | ").append(rec.family()).append(" | ").append(rec.precision().id())
                    .append(" | ").append(rec.best() == null ? esc(rec.note()) : esc(dev.accelbridge.reports.recommend.RecommendationJson
                            .describe(rec.best()))).append(" | ").append(esc(dev.accelbridge.reports.recommend.RecommendationJson
                            .describe(rec.runnerUp()))).append(" |\n");
        }
        sb.append('\n');

        Matrix.BatchScaling scaling = m.batchScaling();
        if (!scaling.rows().isEmpty()) {
            sb.append("## Batch scaling (p50 per call · items per second)\n\n| model | backend | host |");
            scaling.batches().forEach(b -> sb.append(" batch ").append(b).append(" |"));
            sb.append(" items/s, largest vs smallest batch |\n|---|---|---|").append("---|".repeat(scaling.batches().size() + 1)).append('\n');
            for (Matrix.ScalingRow r : scaling.rows()) {
                sb.append("| ").append(esc(r.model())).append(" | ").append(esc(r.column())).append(" | ").append(esc(r.host())).append(" |");
                for (int b : scaling.batches()) {
                    Cell c = r.cells().get(b);
                    sb.append(' ').append(c == null ? "" : Fmt.ms(c.p50()) + " ms · " + Fmt.rate(r.itemsPerSec(b)) + "/s").append(" |");
                }
                sb.append(' ').append(Double.isNaN(r.gain()) ? "" : String.format(java.util.Locale.ROOT, "×%.2f", r.gain())).append(" |\n");
            }
            sb.append('\n');
        }

        Matrix.Conformance conf = m.conformance();
        if (!conf.ops().isEmpty()) {
            sb.append("## Conformance by op (single-op models)\n\n| op |");
            conf.columns().forEach(col -> sb.append(' ').append(esc(col)).append(" |"));
            sb.append("\n|---|").append("---|".repeat(conf.columns().size())).append('\n');
            for (String op : conf.ops()) {
                sb.append("| ").append(esc(op)).append(" |");
                conf.columns().forEach(col -> sb.append(' ').append(conf.entry(op, col)).append(" |"));
                sb.append('\n');
            }
            sb.append('\n');
        }

        drillDown(sb, m);
        sb.append("## Diagnostics\n\n");
        List<Matrix.Finding> findings = m.findings();
        if (findings.isEmpty()) {
            sb.append("None.\n\n");
        } else {
            sb.append("| severity | cell | host | what happened | what to do |\n|---|---|---|---|---|\n");
            for (Matrix.Finding f : findings) {
                sb.append("| ").append(f.diagnostic().severity().id()).append(" | ").append(esc(f.cell().row() + " " + f.cell().column()))
                        .append(" | ").append(esc(f.cell().host())).append(" | ").append(esc(f.diagnostic().message())).append(" | ")
                        .append(esc(f.diagnostic().action())).append(" |\n");
            }
            sb.append('\n');
        }

        sb.append("## Not run: evidence\n\n");
        boolean any = false;
        for (Cell c : m.cells()) {
            Status s = c.result().status();
            if (s == Status.UNAVAILABLE || s == Status.UNSUPPORTED || s == Status.FAILED || s == Status.WRONG_OUTPUT) {
                any = true;
                sb.append("- ").append(s).append(' ').append(esc(c.row())).append(' ').append(esc(c.column())).append(" on ")
                        .append(esc(c.host())).append(": ").append(esc(c.result().reason())).append('\n');
            }
        }
        if (!any) {
            sb.append("None.\n");
        }
        sb.append("\n## Provenance\n\n");
        Set<String> seen = new LinkedHashSet<>();
        for (Cell c : m.cells()) {
            Provenance p = c.result().provenance();
            if (p != null) {
                seen.add("- " + esc(c.host()) + " · " + esc(p.browserLabel()) + " via " + p.driver()
                        + (p.adapter() == null ? "" : " · adapter " + esc(p.adapter()))
                        + (Boolean.TRUE.equals(p.softwareAdapter()) ? " **(software adapter: WebGPU on the CPU)**" : "")
                        + (p.runtimeVersions().isEmpty() ? "" : " · " + new java.util.TreeMap<>(p.runtimeVersions())));
            }
        }
        seen.forEach(l -> sb.append(l).append('\n'));
        sb.append("\nScore: see docs/scoring.md (High ≥ 75, Medium ≥ 50, Low > 0, None = 0).\n");
        return sb.toString();
    }

    /** Each case's bisection, op profile and leak check, as the tables {@link DrillDowns} makes. */
    private static void drillDown(StringBuilder sb, Matrix m) {
        List<DrillDowns.View> views = DrillDowns.of(m);
        if (views.isEmpty()) {
            return;
        }
        sb.append("## Drill-down (why wrong, where the time goes)\n\n");
        for (DrillDowns.View v : views) {
            sb.append("### ").append(esc(v.label())).append("\n\n").append(esc(v.summary())).append("\n\n");
            for (DrillDowns.Table t : v.tables()) {
                sb.append("**").append(esc(t.title())).append("**\n\n|");
                t.header().forEach(x -> sb.append(' ').append(esc(x)).append(" |"));
                sb.append("\n|");
                t.header().forEach(x -> sb.append("---|"));
                sb.append('\n');
                for (List<String> row : t.rows()) {
                    sb.append('|');
                    row.forEach(x -> sb.append(' ').append(esc(x)).append(" |"));
                    sb.append('\n');
                }
                if (t.note() != null && !t.note().isBlank()) {
                    sb.append('\n').append(esc(t.note())).append('\n');
                }
                sb.append('\n');
            }
        }
    }

    private static String esc(String s) {
        return Text.markdown(s); // one line, no controls, HTML and pipes escaped
    }
}
