package dev.accelbridge.tools.cli;

import dev.accelbridge.core.Acceleration;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;
import dev.accelbridge.reports.render.Text;
import dev.accelbridge.reports.score.PositionSpread;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The table printed at the end of a run: one row per case that fits {@link Terminal#WIDTH} columns (names and notes cut
 * with "…", their full text in the report and {@code --json}); a generation's figures on a line of their own under its
 * row; the status coloured only where colour is asked for.
 */
final class ResultTable {
    private static final String[] HEADER = {"case", "backend", "lane", "status", "p50 ms", "max abs err", "note"};
    /** The most each column but the note takes before it is cut. */
    private static final int[] CAP = {44, 18, 28, 12, 10, 11};
    private static final int GAP = 2;

    private ResultTable() {
    }

    /** The table, plain. */
    static String render(List<RunResult> results) {
        return render(results, Terminal.WIDTH, false);
    }

    /**
     * The table at most {@code width} columns wide.
     *
     * @param colour whether the status is coloured (ANSI; a terminal a person reads)
     */
    static String render(List<RunResult> results, int width, boolean colour) {
        List<String[]> rows = new ArrayList<>();
        List<String> under = new ArrayList<>();
        // the same work measured apart in this run: each copy's row says so, with the spread
        java.util.Map<RunResult, PositionSpread> apart = new java.util.IdentityHashMap<>();
        PositionSpread.of(results).forEach(p -> p.copies().forEach(c -> apart.put(c, p)));
        for (RunResult r : results) {
            String backend = r.requested().id() + r.actual().filter(b -> r.ranElsewhere()).map(b -> " → " + b.id()).orElse("");
            rows.add(new String[] {r.id().row() + r.id().dimensionsTag(), backend, r.lane().key(), r.status().name(),
                    r.timings().map(t -> fmt(t.p50Ms())).orElse("-"),
                    r.parity().map(q -> String.format(Locale.ROOT, "%.2e", q.maxAbsErr())).orElse("-"), note(r, apart.get(r))});
            under.add(r.timings().map(tm -> tm.figures()).orElse(null) instanceof Decoding g ? g.summary() : null);
        }
        int[] w = new int[HEADER.length - 1];
        for (int i = 0; i < w.length; i++) {
            w[i] = HEADER[i].length();
            for (String[] row : rows) {
                w[i] = Math.max(w[i], Math.min(CAP[i], Text.terminal(row[i]).length()));
            }
        }
        int fixed = 0;
        for (int x : w) {
            fixed += x + GAP;
        }
        int noteWidth = Math.max(12, width - fixed);
        StringBuilder sb = new StringBuilder();
        line(sb, HEADER, w, noteWidth, false);
        sb.append("-".repeat(Math.min(width, fixed + noteWidth))).append('\n');
        boolean cut = false;
        for (int k = 0; k < rows.size(); k++) {
            cut |= line(sb, rows.get(k), w, noteWidth, colour);
            if (under.get(k) != null) {
                sb.append("    ").append(cut(Text.terminal(under.get(k)), width - 4)).append('\n');
            }
        }
        if (cut) {
            sb.append("(a name or note cut with … to fit ").append(width).append(" columns: its full text is in the report and --json)\n");
        }
        return sb.toString();
    }

    /** One row; true when a cell was cut. */
    private static boolean line(StringBuilder sb, String[] row, int[] w, int noteWidth, boolean colour) {
        boolean cut = false;
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < row.length; i++) {
            String text = Text.terminal(row[i]); // a name cannot move the cursor or recolour
            int max = i < w.length ? w[i] : noteWidth;
            String shown = cut(text, max);
            cut |= !shown.equals(text);
            boolean right = i == 4 || i == 5;
            String padded = i == row.length - 1 ? shown : right ? " ".repeat(max - shown.length()) + shown
                    : shown + " ".repeat(max - shown.length());
            line.append(colour && i == 3 ? paint(padded, text) : padded);
            if (i < row.length - 1) {
                line.append(" ".repeat(GAP));
            }
        }
        sb.append(line.toString().stripTrailing()).append('\n');
        return cut;
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, Math.max(0, max - 1)) + "…";
    }

    /** A status in its colour: green passed, yellow fell back, red wrong or failed, dim not run. */
    private static String paint(String padded, String status) {
        String code = switch (status) {
            case "PASSED" -> "32";
            case "FELL_BACK" -> "33";
            case "WRONG_OUTPUT", "FAILED" -> "31;1";
            default -> "2";
        };
        return "\u001b[" + code + "m" + padded + "\u001b[0m";
    }

    private static String note(RunResult r, PositionSpread apart) {
        List<String> n = new ArrayList<>();
        var acc = Acceleration.of(r);
        if (r.status().executed() && (acc == Acceleration.SOFTWARE_ADAPTER || acc == Acceleration.UNVERIFIED_DEVICE
                || acc == Acceleration.BROWSER_CPU)) {
            n.add(acc.label());
        }
        // first, so a cut note still says whose figures these are
        r.figuresOf().ifPresent(f -> n.add("figures of this lane's " + f.requested().id() + " case"));
        r.timings().map(t -> t.quality()).ifPresent(q -> n.addAll(q.caveatList()));
        if (apart != null) {
            n.add(String.format(Locale.ROOT, "position-dependent: %s–%s ms over %d copies of this work", fmt(apart.lowMs()),
                    fmt(apart.highMs()), apart.copies().size()));
        }
        if (r.reason() != null && (r.status() != Status.PASSED || r.timings().map(tm -> tm.figures()).orElse(null) instanceof Decoding)) {
            n.add(r.reason());
        }
        return String.join("; ", n);
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return Timings.formatMs(v);
    }
}
