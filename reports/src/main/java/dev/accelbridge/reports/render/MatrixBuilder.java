package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.StoreException;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.score.Scorer;
import dev.accelbridge.reports.store.CellKey;
import dev.accelbridge.reports.store.MatrixStore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Assembles the {@link Matrix} from the store: which results are shown (one run, or the newest result of every
 * cell across the store, so merged hosts appear side by side), their scores against the native CPU reference of the
 * same host, fallback costs, history and the comparison with each cell's previous run.
 */
public final class MatrixBuilder {
    private MatrixBuilder() {
    }

    /**
     * @param runId    the run to show; empty for the newest result of every cell
     * @param detector how runs are compared
     * @throws StoreException when {@code runId} is not in the store
     */
    public static Matrix build(MatrixStore store, Optional<String> runId, RegressionDetector detector) {
        List<RunResult> all = store.allResults();
        Map<CellKey, List<RunResult>> byCell = new LinkedHashMap<>();
        for (RunResult r : all) {
            byCell.computeIfAbsent(CellKey.of(r), k -> new ArrayList<>()).add(r);
        }
        Comparator<RunResult> byTime = Comparator.comparing(RunResult::startedAt, Comparator.nullsFirst(Comparator.naturalOrder()));
        byCell.values().forEach(l -> l.sort(byTime));
        List<RunResult> shown;
        String scope;
        if (runId.isPresent()) {
            if (store.run(runId.get()).isEmpty()) {
                throw new StoreException("No run " + runId.get() + " in the matrix store " + store.path(),
                        "leave --run out for the newest result of every cell, or give a run id the store has");
            }
            shown = store.results(runId.get());
            scope = runId.get();
        } else {
            shown = new ArrayList<>();
            byCell.values().forEach(l -> shown.add(l.get(l.size() - 1)));
            scope = "latest per cell";
        }
        // native CPU reference per host/suite/model/input within the shown scope
        Map<String, Double> cpu = new HashMap<>();
        for (RunResult r : shown) {
            if (r.requested() == BackendId.CPU && r.actual() == BackendId.CPU && r.status().executed() && r.timings() != null) {
                cpu.put(refKey(r), r.timings().p50Ms());
            }
        }
        // newest result per host/suite/model/browser/actual backend where that backend worked (for fallback costs)
        Map<String, RunResult> working = new HashMap<>();
        for (RunResult r : all) {
            if ((r.status() == Status.PASSED || r.status() == Status.FELL_BACK) && r.actual() != null && r.timings() != null
                    && Double.isFinite(r.timings().p50Ms()) && r.provenance() != null) {
                working.merge(workKey(r.provenance().hostFingerprint(), r, r.actual()), r,
                        (x, y) -> byTime.compare(y, x) >= 0 ? y : x);
            }
        }
        List<Cell> cells = new ArrayList<>(shown.size());
        for (RunResult r : shown) {
            double cpuP50 = cpu.getOrDefault(refKey(r), Double.NaN);
            List<RunResult> hist = byCell.getOrDefault(CellKey.of(r), List.of(r));
            List<HistoryPoint> points = hist.stream().map(h -> new HistoryPoint(h.runId(), h.startedAt(),
                    h.timings() == null ? Double.NaN : h.timings().p50Ms(), h.status())).toList();
            Change change = previous(hist, r).map(p -> detector.compare(p.timings().samplesMs(), r.timings().samplesMs())
                    .against(p.runId())).orElse(null);
            double requestedP50 = Double.NaN;
            if (r.status() == Status.FELL_BACK && r.provenance() != null) {
                // same rule as MatrixStore.latestWorkingTimings, answered from the results already loaded
                RunResult w = working.get(workKey(r.provenance().hostFingerprint(), r, r.requested()));
                requestedP50 = w == null ? Double.NaN : w.timings().p50Ms();
            }
            cells.add(new Cell(r, Scorer.score(r, cpuP50), cpuP50, requestedP50, change, points));
        }
        cells.sort(Comparator.comparing((Cell c) -> c.result().suite().ordinal()).thenComparing(c -> c.result().model())
                .thenComparing(c -> c.result().requested().ordinal()).thenComparing(Cell::column).thenComparing(Cell::host));
        return new Matrix(scope, Instant.now(), cells, store.hosts());
    }

    /** The newest earlier result of the cell that executed on the same actual backend with samples. */
    private static Optional<RunResult> previous(List<RunResult> hist, RunResult current) {
        if (current.timings() == null || current.timings().samplesMs().length == 0 || !current.status().executed()) {
            return Optional.empty();
        }
        int i = hist.size();
        for (int k = 0; k < hist.size(); k++) {
            if (java.util.Objects.equals(hist.get(k).runId(), current.runId())) {
                i = k;
                break;
            }
        }
        for (int k = i - 1; k >= 0; k--) {
            RunResult p = hist.get(k);
            if (p.runId() != null && p.runId().equals(current.runId())) {
                continue;
            }
            if (p.status().executed() && p.actual() == current.actual() && p.timings() != null && p.timings().samplesMs().length > 0) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static String workKey(String host, RunResult r, BackendId backend) {
        return host + "|" + r.suite() + "|" + r.model() + "|" + (r.provenance() == null ? null : r.provenance().browser()) + "|" + backend;
    }

    private static String refKey(RunResult r) {
        return (r.provenance() == null ? "" : r.provenance().hostFingerprint()) + "|" + r.suite() + "|" + r.model() + "|" + r.inputSet();
    }
}
