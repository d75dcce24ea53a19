package dev.accelbridge.reports.ops;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.OpVariant;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.store.ResultJson;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The op suite's results as a table: one row per operator, one column per backend and lane ({@code webgpu@chromium}),
 * each cell the op's verdict over its variants, with the first variant that did not pass and how to run it again. A pass
 * whose node ran on the CPU inside the session is not a pass of the backend asked for: it is {@link Verdict#CPU}.
 *
 * @param columns the backends and lanes, sorted
 * @param rows    one per operator, sorted by name
 * @param totals  per column, how many ops have each verdict
 */
@PublicApi
public record OpTable(List<String> columns, List<Row> rows, Map<String, Map<Verdict, Integer>> totals) {
    /** An op's verdict on one backend and lane, worst variant first. */
    public enum Verdict {
        /** Every variant passed on the backend asked for. */
        PASSED("passed"),
        /** Every variant passed, but some node ran on the CPU inside the session. */
        CPU("placed on CPU"),
        /** Some variant's output was wrong. */
        WRONG("wrong"),
        /** Some variant failed (load or run). */
        FAILED("failed"),
        /** Some variant was refused before it ran (type, op or backend not supported). */
        UNSUPPORTED("unsupported");

        private final String label;

        Verdict(String label) {
            this.label = label;
        }

        /** The word the table prints. */
        public String label() {
            return label;
        }
    }

    /** One operator's cells, by column; {@code opType} carries a contrib operator's domain ({@code com.microsoft.MatMulNBits}). */
    public record Row(String opType, Map<String, Cell> cells) {
    }

    /**
     * One op on one backend and lane.
     *
     * @param verdict  the worst verdict of its variants
     * @param variants how many variants ran
     * @param passed   how many passed on the backend asked for
     * @param counts   variants per verdict
     * @param first    the first variant (by name) with the cell's verdict, when that is not a pass; null otherwise
     */
    public record Cell(Verdict verdict, int variants, int passed, Map<Verdict, Integer> counts, Failure first) {
        /** {@code placed on CPU 1/2}: the verdict and how many variants passed on the backend asked for. */
        public String summary() {
            return verdict.label() + " " + passed + "/" + variants;
        }
    }

    /**
     * A variant that did not pass.
     *
     * @param variant   its attributes and data types
     * @param opset     its opset
     * @param verdict   what happened
     * @param reason    why, as the run recorded it
     * @param maxAbsErr its largest error against the native reference, or null
     * @param repro     its repro folder, or the command that runs it again
     */
    public record Failure(String variant, int opset, Verdict verdict, String reason, Double maxAbsErr, String repro) {
    }

    /** The verdict of one result: its status, and where its nodes ran. */
    public static Verdict verdict(RunResult r) {
        return switch (r.status()) {
            case PASSED -> {
                Placement p = r.analysis().placement();
                yield p != null && !p.onRequested() ? Verdict.CPU : Verdict.PASSED;
            }
            case WRONG_OUTPUT -> Verdict.WRONG;
            case FAILED -> Verdict.FAILED;
            case UNSUPPORTED, UNAVAILABLE, FELL_BACK -> Verdict.UNSUPPORTED;
        };
    }

    /** A column's name: the backend asked for and the lane with its versions, {@code webgpu@chromium@156+ort-web@1.30.0}. */
    public static String column(CaseId id) {
        return id.requested().id() + "@" + id.lane().key();
    }

    /** A column without the lane's versions, {@code webgpu@chromium}: two stores of other versions compare in it. */
    public static String laneColumn(CaseId id) {
        return id.requested().id() + "@" + id.lane().id();
    }

    /**
     * The table of {@code results}: the op suite's only, the newest result of each case (a store keeps every run's), those
     * {@code keep} accepts, one column per backend and lane with its versions ({@link #column}).
     */
    public static OpTable of(List<RunResult> results, java.util.function.Predicate<CaseId> keep) {
        return of(results, keep, OpTable::column);
    }

    /** The same with the columns {@code columnOf} names ({@link #laneColumn} to compare stores of other versions). */
    public static OpTable of(List<RunResult> results, java.util.function.Predicate<CaseId> keep,
                             java.util.function.Function<CaseId, String> columnOf) {
        Map<CaseId, RunResult> newest = new LinkedHashMap<>();
        for (RunResult r : results) {
            if (OpVariant.of(r.id()).isEmpty() || !keep.test(r.id())) {
                continue;
            }
            newest.merge(r.id(), r, (a, b) -> started(b).isAfter(started(a)) ? b : a);
        }
        TreeSet<String> columns = new TreeSet<>();
        Map<String, Map<String, List<RunResult>>> byOp = new TreeMap<>();
        List<RunResult> ordered = new ArrayList<>(newest.values());
        ordered.sort(Comparator.comparing((RunResult r) -> r.id().model()));
        for (RunResult r : ordered) {
            String col = columnOf.apply(r.id());
            columns.add(col);
            byOp.computeIfAbsent(OpVariant.of(r.id()).orElseThrow().qualifiedType(), k -> new TreeMap<>())
                    .computeIfAbsent(col, k -> new ArrayList<>()).add(r);
        }
        List<Row> rows = new ArrayList<>();
        Map<String, Map<Verdict, Integer>> totals = new LinkedHashMap<>();
        columns.forEach(c -> totals.put(c, new java.util.EnumMap<>(Verdict.class)));
        byOp.forEach((op, cols) -> {
            Map<String, Cell> cells = new LinkedHashMap<>();
            cols.forEach((col, rs) -> {
                Cell cell = cell(rs);
                cells.put(col, cell);
                totals.get(col).merge(cell.verdict(), 1, Integer::sum);
            });
            rows.add(new Row(op, cells));
        });
        return new OpTable(List.copyOf(columns), rows, totals);
    }

    private static Instant started(RunResult r) {
        return r.startedAt() == null ? Instant.EPOCH : r.startedAt();
    }

    private static Cell cell(List<RunResult> rs) {
        Map<Verdict, Integer> counts = new java.util.EnumMap<>(Verdict.class);
        Verdict worst = Verdict.PASSED;
        for (RunResult r : rs) {
            Verdict v = verdict(r);
            counts.merge(v, 1, Integer::sum);
            if (v.ordinal() > worst.ordinal()) {
                worst = v;
            }
        }
        Failure first = null;
        for (RunResult r : rs) {
            Verdict v = verdict(r);
            if (v == worst && v != Verdict.PASSED && first == null) { // the first variant with the cell's verdict
                OpVariant op = OpVariant.of(r.id()).orElseThrow();
                Double err = r.parity().map(q -> q.maxAbsErr()).filter(Double::isFinite).orElse(null);
                String reason = v == Verdict.CPU ? r.analysis().placement().basis() : r.reason();
                String repro = r.analysis().bisection() != null && r.analysis().bisection().reproDir() != null
                        ? r.analysis().bisection().reproDir() : repro(r.id());
                first = new Failure(op.variant(), op.opset(), v, reason, err, repro);
            }
        }
        return new Cell(worst, rs.size(), counts.getOrDefault(Verdict.PASSED, 0), counts, first);
    }

    /**
     * How to see a case again: its bisection's repro folder where it has one (a wrong output), else the sweep of its
     * backend and lane, which runs its single-op model among the others (the model file is in the model cache under
     * the same name).
     */
    static String repro(CaseId id) {
        String lane = id.lane().runOptions();
        return "accelbridge run --suites ops --backends " + id.requested().id() + (lane.isEmpty() ? "" : " " + lane)
                + "  (case " + id.model() + ")";
    }

    /** The table as JSON (what {@code accelbridge ops --json}, {@code matrix.json} and {@code /api/ops} carry). */
    public String toJson() {
        try {
            return ResultJson.MAPPER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The table as text: a line per op with each column's verdict and counts, then the totals and each first failure. */
    public String render() {
        StringBuilder b = new StringBuilder();
        int w = Math.max(8, rows.stream().mapToInt(r -> r.opType().length()).max().orElse(8));
        b.append(String.format(Locale.ROOT, "%-" + w + "s", "op"));
        for (String c : columns) {
            b.append("  ").append(String.format(Locale.ROOT, "%-24s", c));
        }
        b.append('\n');
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "%-" + w + "s", r.opType()));
            for (String c : columns) {
                Cell cell = r.cells().get(c);
                String s = cell == null ? "-" : cell.summary();
                b.append("  ").append(String.format(Locale.ROOT, "%-24s", s));
            }
            b.append('\n');
        }
        b.append('\n');
        for (String c : columns) {
            b.append(c).append(": ").append(rows.stream().filter(r -> r.cells().containsKey(c)).count()).append(" ops");
            totals.get(c).forEach((v, n) -> b.append(", ").append(n).append(' ').append(v.label()));
            b.append('\n');
        }
        for (Row r : rows) {
            r.cells().forEach((c, cell) -> {
                if (cell.first() != null) {
                    Failure f = cell.first();
                    b.append(String.format(Locale.ROOT, "%n%s on %s: %s [%s, opset %d]%s%n  %s%n  repro: %s%n", r.opType(), c,
                            f.verdict().label(), f.variant(), f.opset(),
                            f.maxAbsErr() == null ? "" : String.format(Locale.ROOT, ", max abs err %.3g", f.maxAbsErr()),
                            f.reason() == null ? "" : f.reason().lines().findFirst().orElse(""), f.repro()));
                }
            });
        }
        return b.toString();
    }

    /**
     * What changed from {@code before} to this table, op by op in the columns both have (and columns only one has):
     * {@code Op on column: before → after}. Two stores (browsers, machines, versions) compare this way.
     */
    public List<String> changesFrom(OpTable before) {
        List<String> out = new ArrayList<>();
        TreeSet<String> ops = new TreeSet<>();
        rows.forEach(r -> ops.add(r.opType()));
        before.rows().forEach(r -> ops.add(r.opType()));
        TreeSet<String> cols = new TreeSet<>(columns);
        cols.addAll(before.columns());
        for (String op : ops) {
            for (String c : cols) {
                Cell a = before.cell(op, c);
                Cell z = cell(op, c);
                String was = a == null ? "absent" : a.summary();
                String now = z == null ? "absent" : z.summary();
                if (!was.equals(now)) {
                    out.add(op + " on " + c + ": " + was + " → " + now);
                }
            }
        }
        return out;
    }

    /** The cell of {@code op} in {@code column}, or null. */
    public Cell cell(String op, String column) {
        return rows.stream().filter(r -> r.opType().equals(op)).findFirst().map(r -> r.cells().get(column)).orElse(null);
    }
}
