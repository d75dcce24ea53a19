package dev.accelbridge.reports.render;

import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.OpProfile;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Recreate;
import dev.accelbridge.core.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A case's drill-down as tables and bars, once, for every renderer: its bisection (the first diverging node and the
 * error along the path to the output), its op profile (time per op type, slowest nodes, placement and copies), its
 * cold start and its re-creation leak check. Markdown prints the tables; HTML prints them and draws the bars.
 */
final class DrillDowns {
    private DrillDowns() {
    }

    /** A titled table. */
    record Table(String title, List<String> header, List<List<String>> rows, String note) {
    }

    /** One bar: a label, its value and its length relative to the largest (0..1). */
    record Bar(String label, String value, double fraction) {
    }

    /**
     * One case's drill-down.
     *
     * @param label      {@code model · backend [lane] · host}
     * @param anchor     an id for links
     * @param summary    one line
     * @param tables     its tables
     * @param opBars     time per op type, for a chart
     * @param errorBars  the error along the bisection's path (log-scaled), for a chart
     */
    record View(String label, String anchor, String summary, List<Table> tables, List<Bar> opBars, List<Bar> errorBars) {
    }

    /** Every cell with a drill-down, in the matrix's order. */
    static List<View> of(Matrix m) {
        List<View> out = new ArrayList<>();
        for (Cell c : m.cells()) {
            if (has(c)) {
                out.add(view(c));
            }
        }
        return out;
    }

    /** Whether the cell has a drill-down of its own (a cold start alone is in every executed case, shown with the others). */
    static boolean has(Cell c) {
        Analysis a = c.result().analysis();
        return a.bisection() != null || a.profile() != null || a.recreate() != null;
    }

    /** The id of the cell's drill-down in report.html, the target of the matrix's links. */
    static String anchor(Cell c) {
        return "case-" + Integer.toHexString(label(c).hashCode());
    }

    private static String label(Cell c) {
        return c.row() + " · " + c.column() + " · " + c.host();
    }

    /** The first line a failure message gives about where a wrong output starts, or null. */
    static String firstDivergence(RunResult r) {
        Bisection b = r.analysis().bisection();
        if (b == null || (b.outcome() != Bisection.Outcome.FOUND && b.outcome() != Bisection.Outcome.ROUNDING)) {
            return null;
        }
        return b.describe() + (b.reproDir() == null ? "" : "; repro: " + b.reproDir());
    }

    /**
     * Each drill-down in a fixed order (bisection, op profile, cold start, re-creation): the tables appear in that order
     * and the summary joins the parts' lines in it; the cold start adds a table but no summary line.
     */
    private static View view(Cell c) {
        Analysis a = c.result().analysis();
        List<Table> tables = new ArrayList<>();
        List<String> summary = new ArrayList<>();
        List<Bar> opBars = new ArrayList<>();
        List<Bar> errorBars = new ArrayList<>();
        Bisection b = a.bisection();
        if (b != null) {
            summary.add(b.describe());
            tables.add(bisectionTable(b));
            if (!b.path().isEmpty()) {
                tables.add(errorPathTable(b));
                errorBars.addAll(errorBars(b));
            }
        }
        OpProfile p = a.profile();
        if (p != null) {
            summary.add(p.describe());
            addProfile(p, c.p50(), tables, opBars);
        }
        ColdStart cs = a.coldStart();
        if (cs != null) {
            tables.add(coldStartTable(cs, c.result().provenance()));
        }
        Recreate r = a.recreate();
        if (r != null) {
            summary.add(r.describe());
            tables.add(recreateTable(r));
        }
        return new View(label(c), anchor(c), String.join("; ", summary), tables, opBars, errorBars);
    }

    /** The bisection's verdict: where it diverged (only when it found a node) and what it compared. */
    private static Table bisectionTable(Bisection b) {
        List<List<String>> rows = new ArrayList<>();
        if (b.outcome() == Bisection.Outcome.FOUND || b.outcome() == Bisection.Outcome.ROUNDING) {
            rows.add(List.of(b.outcome() == Bisection.Outcome.FOUND ? "first diverging node" : "one-step rounding at",
                    b.node() + " (" + b.opType() + ")"));
            rows.add(List.of("attributes", b.attributes().isEmpty() ? "none" : String.join(", ",
                    b.attributes().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList())));
            rows.add(List.of("inputs", String.join("; ", b.inputShapes())));
            rows.add(List.of("outputs", String.join("; ", b.outputShapes())));
            rows.add(List.of("max abs error", Fmt.sci(b.maxAbsErr()) + " (tolerance " + Fmt.sci(b.tolerance()) + ", against "
                    + b.against() + ")"));
            rows.add(List.of("repro", b.reproDir() == null ? "not written" : b.reproDir()));
        }
        rows.add(List.of("tensors compared", Integer.toString(b.compared())));
        if (b.note() != null) {
            rows.add(List.of("note", b.note()));
        }
        return new Table("Bisection on " + b.backend(), List.of("", ""), rows, null);
    }

    /** The error at each step of the bisection's path to the output, as a table. */
    private static Table errorPathTable(Bisection b) {
        List<List<String>> p = new ArrayList<>();
        for (Bisection.Step s : b.path()) {
            p.add(List.of(s.node(), s.opType(), Fmt.sci(s.maxAbsErr())));
        }
        return new Table("Error along the path to the output", List.of("node", "op", "max abs error"), p, null);
    }

    /**
     * The path's errors as bars on a log scale between the smallest and largest positive finite error (errors span
     * orders of magnitude); a zero or non-finite error gets an empty bar, and a positive one at least a tenth.
     */
    private static List<Bar> errorBars(Bisection b) {
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (Bisection.Step s : b.path()) {
            if (s.maxAbsErr() > 0 && Double.isFinite(s.maxAbsErr())) {
                lo = Math.min(lo, s.maxAbsErr());
                hi = Math.max(hi, s.maxAbsErr());
            }
        }
        double span = hi > lo ? Math.log10(hi / lo) : 1;
        List<Bar> bars = new ArrayList<>();
        for (Bisection.Step s : b.path()) {
            double f = s.maxAbsErr() > 0 && Double.isFinite(s.maxAbsErr()) ? 0.1 + 0.9 * Math.log10(s.maxAbsErr() / lo) / span : 0;
            bars.add(new Bar(s.node() + " (" + s.opType() + ")", Fmt.sci(s.maxAbsErr()), Math.max(0, Math.min(1, f))));
        }
        return bars;
    }

    /**
     * The op profile's three tables (time per op type, slowest nodes, placement) and its op-type bars, each relative to
     * the first op type (the profile lists them largest first).
     *
     * @param timed the cell's timed p50, against which the profiled runs' own p50 shows profiling's overhead
     */
    private static void addProfile(OpProfile p, double timed, List<Table> tables, List<Bar> opBars) {
        List<List<String>> ops = new ArrayList<>();
        double max = p.ops().isEmpty() ? 1 : p.ops().get(0).ms();
        for (OpProfile.OpTime o : p.ops()) {
            ops.add(List.of(o.opType(), Integer.toString(o.nodes()), Fmt.ms(o.ms()), Fmt.pct(o.share())));
            opBars.add(new Bar(o.opType(), Fmt.ms(o.ms()) + " ms (" + Fmt.pct(o.share()) + ")", max > 0 ? o.ms() / max : 0));
        }
        String overhead = Double.isNaN(p.profiledP50Ms()) ? "" : String.format(Locale.ROOT,
                " The profiled runs' own p50 was %s ms against the timed p50 of %s ms (profiling's overhead, x%.2f); op times "
                        + "sum to %s ms per iteration.", Fmt.ms(p.profiledP50Ms()), Fmt.ms(timed), p.profiledP50Ms() / timed,
                Fmt.ms(p.totalMs()));
        tables.add(new Table("Time per op type (" + p.source() + ", " + p.iterations() + " iterations)",
                List.of("op type", "nodes", "ms / iteration", "share"), ops, overhead.trim() + (p.note() == null ? "" : " " + p.note())));
        List<List<String>> top = new ArrayList<>();
        for (OpProfile.NodeTime n : p.topNodes()) {
            top.add(List.of(n.node(), n.opType(), n.provider() == null ? "" : n.provider(), Fmt.ms(n.ms()), Fmt.pct(n.share())));
        }
        tables.add(new Table("Slowest nodes", List.of("node", "op", "provider", "ms / iteration", "share"), top, null));
        List<List<String>> place = new ArrayList<>();
        place.add(List.of("requested provider", p.requestedProvider() == null ? "" : p.requestedProvider()));
        place.add(List.of("nodes on another provider", p.nodesOffProvider().isEmpty() ? "none"
                : p.nodesOffProvider().size() + ": " + String.join(", ", p.nodesOffProvider())));
        place.add(List.of("Memcpy / transfer nodes", Integer.toString(p.memcpy())));
        tables.add(new Table("Placement", List.of("", ""), place, null));
    }

    /**
     * The cold start's one row. A fresh page's figures are what a user meets on first use only where V8 tiered up as a
     * user's browser does, in the background; under {@code --wasm-sync-tier-up} (every Chromium Accelbridge launches to
     * warm up) they include optimising at once, which no user's browser does (session creation 3.4-5.0 s instead of 0.2 s).
     */
    private static Table coldStartTable(ColdStart cs, Provenance p) {
        boolean sync = p != null && p.syncTierUp();
        return new Table("Cold start", List.of("fetch ms", "create ms", "first run ms", "warm p50 ms", "first-run overhead ms",
                "first in a fresh page"), List.of(List.of(Fmt.ms(cs.fetchMs()), Fmt.ms(cs.createMs()), Fmt.ms(cs.firstRunMs()),
                Fmt.ms(cs.warmP50Ms()), Fmt.ms(cs.firstRunOverheadMs()), cs.freshPage() == null ? "" : !cs.freshPage() ? "no"
                : sync ? "yes, but V8 ran with --wasm-sync-tier-up: not what a browser tiering in the background meets on first use"
                : "yes: what a user meets on first use")), null);
    }

    /** The re-creation leak check: one row per completed cycle (its creation, its run, the memory after its release). */
    private static Table recreateTable(Recreate r) {
        List<List<String>> rows = new ArrayList<>();
        for (Recreate.Cycle cy : r.samples()) {
            rows.add(List.of(Integer.toString(cy.cycle()), Fmt.ms(cy.createMs()), Fmt.ms(cy.runMs()), mib(cy.rssBytes()), mib(cy.heapBytes()),
                    mib(cy.gpuBytes()), mib(cy.wasmBytes())));
        }
        return new Table("Re-creation leak check", List.of("cycle", "create ms", "run ms", "RSS MiB", "JS heap MiB", "GPU live MiB",
                "wasm heap MiB"), rows,
                r.describe() + ". " + (r.note() == null ? "" : r.note()));
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
    }
}
