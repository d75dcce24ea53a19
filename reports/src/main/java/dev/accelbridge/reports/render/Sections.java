package dev.accelbridge.reports.render;

import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.VersionOrder;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.history.ChangeKind;
import dev.accelbridge.reports.ops.OpTable;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.recommend.RecommendationJson;
import dev.accelbridge.reports.recommend.Recommender;
import dev.accelbridge.reports.score.PositionSpread;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The report's sections as data ({@link Section}), made once from a {@link Matrix} for both renderers: what a section
 * says is decided here, how it looks in HTML or Markdown there.
 */
final class Sections {
    private Sections() {
    }

    /** Regressions and improvements, each with its baseline, noise and bound. */
    static Section changes(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (Cell c : m.cells()) {
            Change ch = c.change();
            if (ch == null || (ch.kind() != ChangeKind.REGRESSION && ch.kind() != ChangeKind.IMPROVEMENT)) {
                continue;
            }
            rows.add(Section.Row.of(ch.kind() == ChangeKind.REGRESSION ? "regression" : "improvement", ch.kind().name(),
                    c.row() + " " + c.column(), c.host(), Fmt.ms(ch.baselineP50()) + " → " + Fmt.ms(ch.currentP50()), ch.percent(),
                    String.valueOf(ch.baselineRuns()), Fmt.pct(ch.noise()), Fmt.pct(ch.bound()), ch.baselineRunId()));
        }
        return Section.table("changes", "Regressions and improvements", null, new Section.Table(List.of("change", "cell", "host",
                        "p50 before → now (ms)", "Δ", "earlier runs", "run-to-run noise", "bound", "newest earlier run"), rows),
                "None flagged (a change must exceed the threshold and the run-to-run noise of the cell's earlier runs).");
    }

    /**
     * The same work measured more than once in a run (a lane's fallbacks repeat its wasm case) whose p50s disagree beyond
     * their intervals: each copy's figure depends on where it fell, and the range is the honest uncertainty.
     */
    static Section positions(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (PositionSpread s : m.positionSpreads()) {
            RunResult first = s.copies().get(0);
            String copies = s.copies().stream().map(r -> r.requested().id() + " " + RowFigures.of(r).p50Ms())
                    .collect(java.util.stream.Collectors.joining(" · "));
            rows.add(Section.Row.of("warn", first.id().row(), first.actual().map(b -> b.id()).orElse(RowFigures.ABSENT) + " [" + first.lane().id() + "]",
                    CaseFilter.hostName(first), copies, Fmt.ms(s.lowMs()) + "–" + Fmt.ms(s.highMs()),
                    String.format(Locale.ROOT, "×%.2f", s.ratio())));
        }
        return Section.table("positions", "Figures that depend on where they fell in the run", rows.isEmpty() ? null
                        : "The same work ran more than once in one run and its p50s differ by more than 10 % and by more than their "
                        + "intervals: take the range, not one copy's interval, as the figure's uncertainty (docs/scoring.md).",
                new Section.Table(List.of("model", "ran on [lane]", "host", "copies in the order they ran (p50 [95 % interval], ms)",
                        "range (ms)", "slowest / fastest"), rows), null);
    }

    /**
     * Consecutive versions of a browser, onnxruntime-web or ONNX Runtime in the matrix, cell by cell: each case on both
     * versions (matched on every other dimension) with its status on each and the p50 ratio with its interval, the cases
     * whose status changed first. Left out when no version dimension has two values among the cells.
     */
    static Section versions(Matrix m) {
        List<RunResult> results = m.cells().stream().map(Cell::result).toList();
        List<Section.Row> changed = new ArrayList<>();
        List<Section.Row> same = new ArrayList<>();
        for (Comparison.By by : Comparison.By.versions()) {
            List<String> values = results.stream().map(r -> by.dimension().text(r.id())).filter(java.util.Objects::nonNull).distinct()
                    .sorted(VersionOrder.ASCENDING).toList();
            for (int i = 0; i + 1 < values.size(); i++) {
                String a = values.get(i);
                String b = values.get(i + 1);
                Comparison c = Comparison.of(by, a, b, side(results, by, a), side(results, by, b));
                for (Comparison.Row r : c.rows()) {
                    if (r.a() == null || r.b() == null) {
                        continue; // only what both versions ran
                    }
                    Status sa = r.a().status();
                    Status sb = r.b().status();
                    String ratio = Double.isFinite(r.ratio()) ? String.format(Locale.ROOT, "×%.2f", r.ratio())
                            + (r.ratioCi() == null ? "" : " " + Fmt.interval(r.ratioCi())) + (r.significant() ? " significant" : "") : "";
                    String cls = sa != sb ? (sb == Status.PASSED ? "improvement" : "regression")
                            : r.significant() ? (r.ratio() > 1 ? "regression" : "improvement") : null;
                    (sa != sb ? changed : same).add(Section.Row.of(cls, by.dimension().label(), a + " → " + b, r.label(),
                            sa + (sa == sb ? "" : " → " + sb), ratio, sa == sb ? "" : String.valueOf(r.b().reason())));
                }
            }
        }
        changed.addAll(same);
        return Section.table("versions", "Versions compared", "Each case on two consecutive versions of a browser or a runtime, "
                        + "matched on every other dimension: its status on both, and B's p50 over A's with its 95 % interval (above 1: "
                        + "the newer version is slower). Cases whose status changed come first.",
                new Section.Table(List.of("what", "versions", "case", "status", "p50 ratio", "reason (newer)"), changed), null);
    }

    /** The results whose {@code by} dimension is {@code v}: one side of a comparison. */
    static List<RunResult> side(List<RunResult> rs, Comparison.By by, String v) {
        return rs.stream().filter(r -> v.equals(by.dimension().text(r.id()))).toList();
    }

    /** p50 per call and items per second at each batch size, and the per-item gain of the largest batch. */
    static Section batchScaling(Matrix m) {
        Matrix.BatchScaling scaling = m.batchScaling();
        List<String> header = new ArrayList<>(List.of("model", "backend", "host"));
        scaling.batches().forEach(b -> header.add("batch " + b));
        header.add("per-item gain");
        header.add("Offline (best batch)");
        List<Section.Row> rows = new ArrayList<>();
        for (Matrix.ScalingRow r : scaling.rows()) {
            List<String> cells = new ArrayList<>(List.of(r.model(), r.column(), r.host()));
            for (int b : scaling.batches()) {
                Cell c = r.cells().get(b);
                cells.add(c == null ? "" : Fmt.ms(c.p50()) + " ms · " + Fmt.rate(r.itemsPerSec(b)) + "/s");
            }
            cells.add(Double.isNaN(r.gain()) ? "" : String.format(Locale.ROOT, "×%.2f", r.gain()));
            cells.add(r.bestBatch() == 0 ? "" : Fmt.rate(r.itemsPerSec(r.bestBatch())) + " items/s at batch " + r.bestBatch());
            rows.add(Section.Row.of(null, cells.toArray(String[]::new)));
        }
        return Section.table("batch-scaling", "Batch scaling and Offline throughput", "p50 per call and throughput per item at "
                + "each batch size (the latencies are MLPerf's SingleStream figures); the per-item gain is the throughput per item "
                + "at the largest batch over the smallest (above 1: batching pays); Offline is MLPerf's: items per second at the "
                + "best batch size measured.",
                new Section.Table(header, rows), null);
    }

    /**
     * Single-op models grouped by op: each op's verdict per backend. With the op suite's results, its table: per op and
     * column the verdict over the variants (placed on CPU apart from passed), and the first variant with that verdict,
     * its error and its repro.
     */
    static Section conformance(Matrix m) {
        OpTable ops = OpTable.of(m.cells().stream().map(Cell::result).toList(),
                col -> true);
        if (!ops.rows().isEmpty()) {
            return opTable(ops);
        }
        Matrix.Conformance conf = m.conformance();
        List<String> header = new ArrayList<>(List.of("op"));
        header.addAll(conf.columns());
        List<Section.Row> rows = new ArrayList<>();
        for (String op : conf.ops()) {
            List<Section.Entry> cells = new ArrayList<>(List.of(new Section.Entry(op, null)));
            for (String col : conf.columns()) {
                String e = conf.entry(op, col);
                cells.add(new Section.Entry(e, e.contains("WRONG_OUTPUT") || e.contains("FAILED") ? "bad"
                        : e.contains("UNSUPPORTED") ? "warn" : "ok"));
            }
            rows.add(new Section.Row(null, cells));
        }
        return Section.table("conformance", "Conformance by op (single-op models)", null, new Section.Table(header, rows), null);
    }

    private static Section opTable(OpTable t) {
        List<String> header = new ArrayList<>(List.of("op"));
        header.addAll(t.columns());
        List<Section.Row> rows = new ArrayList<>();
        for (OpTable.Row r : t.rows()) {
            List<Section.Entry> cells = new ArrayList<>(List.of(new Section.Entry(r.opType(), null)));
            for (String col : t.columns()) {
                OpTable.Cell c = r.cells().get(col);
                if (c == null) {
                    cells.add(new Section.Entry("–", null));
                    continue;
                }
                String text = c.summary();
                if (c.first() != null) {
                    var f = c.first();
                    text += ": " + f.variant() + (f.maxAbsErr() == null ? "" : String.format(java.util.Locale.ROOT, " (max abs err %.3g)",
                            f.maxAbsErr())) + "; repro: " + f.repro();
                }
                cells.add(new Section.Entry(text, switch (c.verdict()) {
                    case PASSED -> "ok";
                    case CPU, UNSUPPORTED -> "warn";
                    case WRONG, FAILED -> "bad";
                }));
            }
            rows.add(new Section.Row(null, cells));
        }
        StringBuilder intro = new StringBuilder("The op suite (--suites ops): per op the worst verdict over its variants, how many "
                + "passed on the backend asked for, and the first variant with that verdict. Placed on CPU: the session passed "
                + "but onnxruntime-web ran the node on its CPU EP.");
        t.totals().forEach((col, byVerdict) -> {
            intro.append(' ').append(col).append(':');
            byVerdict.forEach((v, n) -> intro.append(' ').append(n).append(' ').append(v.label()).append(','));
            intro.setCharAt(intro.length() - 1, '.');
        });
        return Section.table("conformance", "Conformance by op (the op suite)", intro.toString(), new Section.Table(header, rows), null);
    }

    /** Every cell that fell back: where it ran, what the requested backend cost when it last worked, and every hop. */
    static Section fallbacks(Matrix m) {
        List<Section.Item> items = new ArrayList<>();
        for (Cell c : m.cells()) {
            if (c.result().status() != Status.FELL_BACK) {
                continue;
            }
            String text = " " + c.column() + " on " + c.host() + ": ran on " + c.result().actual().map(String::valueOf).orElse("null") + ", p50 " + Fmt.ms(c.p50()) + " ms"
                    + c.result().figuresOf().map(f -> " (the figures of this lane's " + f.requested().id() + " case: the same work, measured once)")
                    .orElse("")
                    + (Double.isFinite(c.requestedP50Ms()) ? " (" + c.result().requested() + " p50 when it last worked on this host: "
                    + Fmt.ms(c.requestedP50Ms()) + " ms)" : "");
            List<Section.Step> hops = new ArrayList<>();
            for (FallbackHop h : c.result().fallbackPath()) {
                hops.add(new Section.Step((h.taken() ? "→ " : "") + h.backend() + ": " + h.reason(), h.taken()));
            }
            items.add(new Section.Item(c.row(), text, hops));
        }
        return Section.list("fallbacks", "Fallbacks", items, "None.");
    }

    /** Each executed browser cell against the native CPU p50 of the same case and host. */
    static Section browserVsNative(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (Cell c : m.cells()) {
            if (c.result().status().executed() && c.key().lane().side().comparedWithNative()) {
                rows.add(Section.Row.of(null, c.host(), c.row(), c.ranOn() + Fmt.trust(c.result().timings()),
                        Fmt.msCi(c.p50(), p50Ci(c.result())), Fmt.ms(c.cpuP50Ms()), Fmt.speed(c), Fmt.threads(c),
                        c.score().acceleration().label()));
            }
        }
        return Section.table("browser-vs-native", "Browser vs native CPU (p50 [95 % interval])", null, new Section.Table(List.of("host", "model",
                "backend", "p50 ms", "native CPU p50 ms", "speed vs native CPU", "threads (browser / native)", "executed on"), rows), null);
    }

    private static Interval p50Ci(RunResult r) {
        return r.timings().map(tm -> tm.quality().p50Ci()).orElse(null);
    }

    /** The fastest backend that passed on every model of a family, per host and precision, and the runner-up. */
    static Section recommendations(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (var rec : Recommender.recommend(m.cells().stream().map(Cell::result).toList(), false)) {
            rows.add(Section.Row.of(null, rec.host(), rec.family(), rec.precision().id(), rec.target(),
                    rec.best() == null ? rec.note() : RecommendationJson.describe(rec.best()), RecommendationJson.describe(rec.runnerUp())));
        }
        return Section.table("recommendations", "Recommendations (per host and deployment target: the fastest backend that "
                + "passed on every model of the family)", null, new Section.Table(List.of("host", "family", "precision", "target",
                "best", "runner-up"), rows), null);
    }

    /** Why each cell that did not pass did not: the evidence. */
    static Section notRun(Matrix m) {
        List<Section.Item> items = new ArrayList<>();
        for (Cell c : m.cells()) {
            Status s = c.result().status();
            if (s == Status.UNAVAILABLE || s == Status.UNSUPPORTED || s == Status.FAILED || s == Status.WRONG_OUTPUT) {
                items.add(new Section.Item(null, s + " " + c.row() + " " + c.column() + " on " + c.host() + ": " + c.result().reason(),
                        List.of()));
            }
        }
        return Section.list("not-run", "Not run: evidence", items, "None.");
    }

    /** Each distinct browser, driver, adapter and runtime seen, software adapters marked. */
    static Section provenance(Matrix m) {
        Set<String> seen = new LinkedHashSet<>();
        for (Cell c : m.cells()) {
            Provenance p = c.result().provenance();
            if (p != null) {
                seen.add(c.host() + " · " + p.browserLabel() + " via " + p.driver() + (p.adapter() == null ? "" : " · adapter " + p.adapter())
                        + (Boolean.TRUE.equals(p.softwareAdapter()) ? " (software adapter: WebGPU on the CPU)" : "")
                        + (p.runtimeVersions().isEmpty() ? "" : " · " + new java.util.TreeMap<>(p.runtimeVersions())));
            }
        }
        return Section.list("provenance", "Provenance", seen.stream().map(s -> new Section.Item(null, s, List.of())).toList(), null);
    }
}
