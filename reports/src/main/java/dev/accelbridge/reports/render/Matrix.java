package dev.accelbridge.reports.render;

import dev.accelbridge.core.Diagnostic;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.ChangeKind;
import dev.accelbridge.reports.score.PositionSpread;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What every renderer draws.
 *
 * @param scope       the run id shown, or {@code latest per cell} when the report covers the whole store
 * @param generatedAt when the report was made
 * @param cells       every cell, sorted by suite, model, requested backend, browser, host
 * @param hosts       the hosts of the store, by fingerprint
 * @param modelOps    the op types of each model file, by sha256 (for the conformance view)
 * @param modelCosts  what one inference of each model file costs, by sha256 (for a figure's place under its roof)
 */
@PublicApi
public record Matrix(String scope, Instant generatedAt, List<Cell> cells, Map<String, HostInfo> hosts,
                     Map<String, List<String>> modelOps, Map<String, dev.accelbridge.core.ModelCost> modelCosts) {
    public Matrix {
        cells = List.copyOf(cells);
        hosts = Map.copyOf(hosts);
        modelOps = Map.copyOf(modelOps);
        modelCosts = Map.copyOf(modelCosts);
    }

    /** A matrix whose models' costs are not known. */
    public Matrix(String scope, Instant generatedAt, List<Cell> cells, Map<String, HostInfo> hosts, Map<String, List<String>> modelOps) {
        this(scope, generatedAt, cells, hosts, modelOps, Map.of());
    }

    /**
     * The conformance view: the cells of single-op models (ONNX backend node tests, a user's op-by-op cases) grouped
     * by op type, one row per op, one column per backend and lane, each entry the number of models per status.
     *
     * @param ops     the op types, sorted
     * @param columns the backends (with lane), in matrix order
     * @param counts  op → column → status → count
     */
    public record Conformance(List<String> ops, List<String> columns, Map<String, Map<String, Map<Status, Integer>>> counts) {
        /** "3 PASSED · 1 WRONG_OUTPUT", or "" when the op was not run in that column. */
        public String entry(String op, String column) {
            Map<Status, Integer> m = counts.getOrDefault(op, Map.of()).getOrDefault(column, Map.of());
            return m.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(java.util.stream.Collectors.joining(" · "));
        }
    }

    /** The conformance view, empty when no single-op model is in the matrix. */
    public Conformance conformance() {
        Map<String, Map<String, Map<Status, Integer>>> counts = new java.util.TreeMap<>();
        List<String> columns = new ArrayList<>();
        for (Cell c : cells) {
            // a row without a model file (an app's page that made no session) has no sha256: Map.copyOf refuses a null key
            String sha = c.result().modelSha256();
            List<String> ops = sha == null ? null : modelOps.get(sha);
            if (ops == null || ops.size() != 1) {
                continue;
            }
            if (!columns.contains(c.column())) {
                columns.add(c.column());
            }
            counts.computeIfAbsent(ops.get(0), k -> new java.util.LinkedHashMap<>())
                    .computeIfAbsent(c.column(), k -> new java.util.EnumMap<>(Status.class))
                    .merge(c.result().status(), 1, Integer::sum);
        }
        return new Conformance(List.copyOf(counts.keySet()), columns, counts);
    }

    /**
     * The batch-scaling view: for each model, precision, backend, lane and host run at more than one batch size on the
     * requested backend itself, the p50 per call and the throughput per item at each batch size.
     *
     * @param batches the batch sizes seen, ascending
     * @param rows    one row per model/precision/backend/lane/host with at least two batch sizes measured
     */
    public record BatchScaling(List<Integer> batches, List<ScalingRow> rows) {
    }

    /**
     * One curve of {@link BatchScaling}.
     *
     * @param model  "suite/model" with the precision when not fp32
     * @param column the backend and lane ({@link Cell#column()})
     * @param host   the host
     * @param cells  batch size → the cell measured at it
     */
    public record ScalingRow(String model, String column, String host, Map<Integer, Cell> cells) {
        /** Items per second at {@code batch} (NaN when not measured there). */
        public double itemsPerSec(int batch) {
            Cell c = cells.get(batch);
            return c == null || !(c.p50() > 0) ? Double.NaN : batch * 1000.0 / c.p50();
        }

        /** MLPerf's Offline figure: the batch size with the most items per second measured (0 when none). */
        public int bestBatch() {
            return cells.keySet().stream().filter(k -> !Double.isNaN(itemsPerSec(k)))
                    .max(java.util.Comparator.comparingDouble(this::itemsPerSec)).orElse(0);
        }

        /** Throughput per item at the largest batch over the smallest: above 1, batching pays. */
        public double gain() {
            List<Integer> b = cells.keySet().stream().filter(k -> !Double.isNaN(itemsPerSec(k))).sorted().toList();
            return b.size() < 2 ? Double.NaN : itemsPerSec(b.get(b.size() - 1)) / itemsPerSec(b.get(0));
        }
    }

    /** The batch-scaling view; no rows when nothing ran at two batch sizes. */
    public BatchScaling batchScaling() {
        Map<List<String>, Map<Integer, Cell>> by = new java.util.LinkedHashMap<>();
        java.util.TreeSet<Integer> batches = new java.util.TreeSet<>();
        for (Cell c : cells) {
            if (c.result().timings().isEmpty() || !c.result().ranOn(c.result().requested())) {
                continue; // a fallback's time is another backend's: it would bend this backend's curve
            }
            var id = c.result().id();
            String model = id.rowAtPrecision();
            by.computeIfAbsent(List.of(model, c.column(), c.host()), k -> new java.util.TreeMap<>()).put(id.batchSize(), c);
        }
        List<ScalingRow> rows = new ArrayList<>();
        by.forEach((k, m) -> {
            if (m.size() > 1) {
                rows.add(new ScalingRow(k.get(0), k.get(1), k.get(2), m));
                batches.addAll(m.keySet());
            }
        });
        return new BatchScaling(List.copyOf(batches), rows);
    }

    /** The same matrix with only the cells whose result passes {@code keep} (a dashboard's filters). */
    public Matrix filtered(java.util.function.Predicate<RunResult> keep) {
        return new Matrix(scope, generatedAt, cells.stream().filter(c -> keep.test(c.result())).toList(), hosts, modelOps, modelCosts);
    }

    /** Cells flagged as regressions. */
    public List<Cell> regressions() {
        return cells.stream().filter(c -> c.change() != null && c.change().kind() == ChangeKind.REGRESSION).toList();
    }

    /** One diagnostic of one cell. */
    public record Finding(Cell cell, Diagnostic diagnostic) {
    }

    /** Every cell's diagnostics, most severe first (the same list for every renderer). */
    public List<Finding> findings() {
        List<Finding> out = new ArrayList<>();
        for (Cell c : cells) {
            for (Diagnostic d : c.result().diagnostics()) {
                out.add(new Finding(c, d));
            }
        }
        out.sort(Comparator.comparing((Finding f) -> f.diagnostic().severity()));
        return out;
    }

    /** The same work measured apart in one run by more than its intervals allow ({@link PositionSpread}), largest first. */
    public List<PositionSpread> positionSpreads() {
        return PositionSpread.of(cells.stream().map(Cell::result).toList());
    }

    /** Cells reported as improvements. */
    public List<Cell> improvements() {
        return cells.stream().filter(c -> c.change() != null && c.change().kind() == ChangeKind.IMPROVEMENT).toList();
    }
}
