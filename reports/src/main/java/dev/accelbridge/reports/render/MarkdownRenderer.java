package dev.accelbridge.reports.render;

import dev.accelbridge.core.Status;

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
final class MarkdownRenderer {
    private MarkdownRenderer() {
    }

    /** The document. */
    public static String render(Matrix m) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Accelbridge compatibility matrix\n\n");
        sb.append("Scope: ").append(m.scope()).append(" · generated ").append(m.generatedAt()).append(" · ")
                .append(m.cells().size()).append(" cells · ").append(m.hosts().size()).append(" host(s)\n\n");
        Overview.sections(m).forEach(s -> write(sb, s));

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

        write(sb, Sections.browserVsNative(m));
        write(sb, GenerationSection.of(m));
        write(sb, ReadoutSection.of(m));
        write(sb, Sections.fallbacks(m));
        write(sb, Sections.changes(m));
        write(sb, Sections.positions(m));
        write(sb, EngineFindings.of(m));
        write(sb, Sections.versions(m));
        write(sb, Sections.recommendations(m));
        write(sb, Sections.batchScaling(m));
        write(sb, Sections.conformance(m));
        drillDown(sb, m);
        write(sb, Findings.diagnostics(m));
        write(sb, Sections.notRun(m));
        write(sb, Sections.provenance(m));
        sb.append("Score: see docs/scoring.md (High ≥ 75, Medium ≥ 50, Low > 0, None = 0).\n");
        return sb.toString();
    }

    /** A section as Markdown: its heading, intro, then its table or list (or its "none" line; nothing at all without one). */
    static void write(StringBuilder sb, Section s) {
        if (s.hidden()) {
            return;
        }
        sb.append("## ").append(esc(s.title())).append("\n\n");
        if (s.intro() != null) {
            sb.append(esc(s.intro())).append("\n\n");
        }
        if (s.empty()) {
            sb.append(esc(s.none())).append("\n\n");
            return;
        }
        if (s.table() != null && !s.table().rows().isEmpty()) {
            sb.append('|');
            s.table().header().forEach(x -> sb.append(' ').append(esc(x)).append(" |"));
            sb.append("\n|").append("---|".repeat(s.table().header().size())).append('\n');
            for (Section.Row row : s.table().rows()) {
                sb.append('|');
                row.cells().forEach(x -> sb.append(' ').append(esc(x.text())).append(" |"));
                sb.append('\n');
            }
        }
        for (Section.Item item : s.items()) {
            sb.append("- ").append(item.lead() == null ? "" : "**" + esc(item.lead()) + "**").append(esc(item.text())).append('\n');
            item.steps().forEach(step -> sb.append("  - ").append(esc(step.text())).append('\n'));
        }
        sb.append('\n');
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
