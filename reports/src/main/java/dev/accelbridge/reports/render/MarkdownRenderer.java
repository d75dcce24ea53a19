package dev.accelbridge.reports.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code report.md}: the parts of {@link Part} in its order, less the charts it cannot draw: the overview, the matrix
 * table per host (suite/model × backend [browser]) with status and score, then every section as a heading and a table
 * or a list, and each case's drill-down as tables.
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
        for (Part p : Part.values()) {
            switch (p.markdown()) {
                case WRITTEN -> p.sections(m).forEach(s -> write(sb, s));
                case DRAWN -> drawn(sb, p, m);
                case LEFT_OUT -> {
                }
            }
        }
        sb.append("Score: see docs/scoring.md (High ≥ 75, Medium ≥ 50, Low > 0, None = 0).\n");
        return sb.toString();
    }

    /** A part Markdown draws its own way. */
    private static void drawn(StringBuilder sb, Part p, Matrix m) {
        switch (p) {
            case MATRIX -> matrix(sb, m);
            case DRILL_DOWN -> drillDown(sb, m);
            default -> throw new IllegalStateException(p + " has no drawing in Markdown");
        }
    }

    /** The matrix, one table per host: a cell's status, score, caveat and, when it ran, its p50 and speed. */
    private static void matrix(StringBuilder sb, Matrix m) {
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
            sb.append("- ").append(bold(item.lead())).append(esc(item.text())).append('\n');
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

    /**
     * A lead in bold, its spaces outside the stars: CommonMark closes {@code **} only after a non-space, so
     * {@code **browsers: **} would be shown as typed.
     */
    static String bold(String lead) {
        if (lead == null || lead.isBlank()) {
            return lead == null ? "" : lead;
        }
        String trimmed = lead.strip();
        int start = lead.indexOf(trimmed);
        return lead.substring(0, start) + "**" + esc(trimmed) + "**" + lead.substring(start + trimmed.length());
    }

    private static String esc(String s) {
        return Text.markdown(s); // one line, no controls, markup escaped by backslashes
    }
}
