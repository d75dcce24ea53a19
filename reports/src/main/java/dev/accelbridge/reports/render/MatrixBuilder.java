package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.SpeedStanding;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.core.VersionOrder;
import dev.accelbridge.reports.StoreException;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.score.Scorer;
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
@PublicApi
public final class MatrixBuilder {
    private MatrixBuilder() {
    }

    /**
     * @param runId    the run to show; empty for the newest result of every cell
     * @param detector how runs are compared
     * @throws StoreException when {@code runId} is not in the store
     */
    public static Matrix build(MatrixStore store, Optional<String> runId, RegressionDetector detector) {
        return build(store, store.allResults(), runId, detector);
    }

    /** Same, from {@code all}: every result of the store as {@link MatrixStore#allResults} gives them (read once by a caller that needs them too). */
    public static Matrix build(MatrixStore store, List<RunResult> all, Optional<String> runId, RegressionDetector detector) {
        Map<CaseId.CellId, List<RunResult>> byCell = new LinkedHashMap<>();
        for (RunResult r : all) {
            byCell.computeIfAbsent(r.cell(), k -> new ArrayList<>()).add(r);
        }
        Comparator<RunResult> byTime = Comparator.comparing(RunResult::startedAt, Comparator.nullsFirst(Comparator.naturalOrder()));
        byCell.values().forEach(l -> l.sort(byTime));
        Shown shown = shown(store, all, byCell, runId);
        References refs = references(shown.results());
        Map<String, RunResult> working = working(all, byTime);
        List<Cell> cells = new ArrayList<>(shown.results().size());
        for (RunResult r : shown.results()) {
            cells.add(cell(r, byCell, refs, working, detector));
        }
        cells.sort(Comparator.comparing((Cell c) -> c.result().suite().ordinal()).thenComparing(c -> c.result().model())
                .thenComparing(c -> c.result().requested().ordinal()).thenComparing(Cell::column).thenComparing(Cell::host));
        return new Matrix(shown.scope(), Instant.now(), cells, store.hosts(), store.modelOps(), store.modelCosts());
    }

    /** The results a matrix shows and the scope that names them. */
    private record Shown(List<RunResult> results, String scope) {
    }

    /** One run's results (refused when the store lacks the run), else the newest result of every cell. */
    private static Shown shown(MatrixStore store, List<RunResult> all, Map<CaseId.CellId, List<RunResult>> byCell,
                               Optional<String> runId) {
        if (runId.isPresent()) {
            if (store.run(runId.get()).isEmpty()) {
                throw new StoreException("No run " + runId.get() + " in the matrix store " + store.path(),
                        "leave --run out for the newest result of every cell, or give a run id the store has");
            }
            // in the order written, as the store gives a run's
            return new Shown(all.stream().filter(r -> runId.get().equals(r.runId())).toList(), runId.get());
        }
        List<RunResult> shown = new ArrayList<>();
        byCell.values().forEach(l -> shown.add(l.get(l.size() - 1)));
        return new Shown(shown, "latest per cell");
    }

    /** The native CPU reference of each {@link #refKey}: its p50, its samples and its threads (where known). */
    private record References(Map<String, Double> cpu, Map<String, double[]> samples, Map<String, Integer> threads) {
    }

    /** The native CPU reference per host/suite/model/input within the shown scope. */
    private static References references(List<RunResult> shown) {
        Map<String, RunResult> refs = new HashMap<>();
        for (RunResult r : shown) {
            if (r.id().isNativeCpu() && r.ranOnNativeCpu() && r.status().executed()
                    && r.timings().isPresent()) {
                refs.merge(refKey(r), r, MatrixBuilder::reference);
            }
        }
        Map<String, Double> cpu = new HashMap<>();
        Map<String, double[]> cpuSamples = new HashMap<>();
        Map<String, Integer> cpuThreads = new HashMap<>();
        refs.forEach((k, r) -> {
            // each reference was taken for its timings (above): read by its kind, never unwrapped
            if (r.outcome() instanceof Outcome.Ran ran) {
                cpu.put(k, ran.timings().p50Ms());
                cpuSamples.put(k, ran.timings().samplesMs());
            }
            if (r.provenance() != null && r.provenance().threads() != null) {
                cpuThreads.put(k, r.provenance().threads());
            }
        });
        return new References(cpu, cpuSamples, cpuThreads);
    }

    /**
     * The newest result per host/suite/model/browser/actual backend where that backend worked, across the whole store
     * (not the shown scope): a fallback's cost is the requested backend's p50 wherever it last worked.
     */
    private static Map<String, RunResult> working(List<RunResult> all, Comparator<RunResult> byTime) {
        Map<String, RunResult> working = new HashMap<>();
        for (RunResult r : all) {
            if ((r.status() == Status.PASSED || r.status() == Status.FELL_BACK) && r.outcome() instanceof Outcome.Ran ran
                    && Double.isFinite(ran.timings().p50Ms()) && r.provenance() != null) {
                working.merge(workKey(r.provenance().hostFingerprint(), r, ran.backend()), r,
                        (x, y) -> byTime.compare(y, x) >= 0 ? y : x);
            }
        }
        return working;
    }

    /** One shown result as a cell: its score against its reference, its fallback's cost, its history and change. */
    private static Cell cell(RunResult r, Map<CaseId.CellId, List<RunResult>> byCell, References refs,
                             Map<String, RunResult> working, RegressionDetector detector) {
        double cpuP50 = refs.cpu().getOrDefault(refKey(r), Double.NaN);
        List<RunResult> hist = byCell.getOrDefault(r.cell(), List.of(r));
        List<HistoryPoint> points = hist.stream().map(h -> new HistoryPoint(h.runId(), h.startedAt(),
                h.timings().map(tm -> tm.p50Ms()).orElse(Double.NaN), h.status())).toList();
        Change change = change(hist, r, detector);
        double requestedP50 = Double.NaN;
        if (r.status() == Status.FELL_BACK && r.provenance() != null) {
            // same rule as MatrixStore.latestWorkingTimings, answered from the results already loaded
            RunResult w = working.get(workKey(r.provenance().hostFingerprint(), r, r.requested()));
            requestedP50 = w == null ? Double.NaN : w.timings().map(Timings::p50Ms).orElse(Double.NaN);
        }
        // the ratio's bootstrap interval, from both sides' samples (none for the reference itself)
        double[] ref = refs.samples().get(refKey(r));
        double[] own = r.timings().map(Timings::samplesMs).orElse(null);
        Interval ci = ref == null || own == null || ref == own ? null : SampleStats.ratioCi(ref, own);
        return new Cell(r, Scorer.score(r, cpuP50), cpuP50, requestedP50, change, points, refs.threads().get(refKey(r)), ci);
    }

    /**
     * The current result against the cell's earlier runs: the p50 of every earlier run of the cell that executed on
     * the same actual backend, compared run-level by the detector. Null when the current result has no p50.
     */
    static Change change(List<RunResult> hist, RunResult current, RegressionDetector detector) {
        // a figure that does not stand as a speed (a software adapter's, a floored one) is never called slower or faster
        if (!SpeedStanding.of(current).counts() || !(current.outcome() instanceof Outcome.Ran now) || !Double.isFinite(now.timings().p50Ms())) {
            return null;
        }
        List<RunResult> earlier = new ArrayList<>();
        List<Double> p50s = new ArrayList<>();
        for (RunResult p : hist) {
            if (java.util.Objects.equals(p.runId(), current.runId())) {
                break;
            }
            if (p.status().executed() && p.outcome() instanceof Outcome.Ran then && then.backend() == now.backend()
                    && Double.isFinite(then.timings().p50Ms())) {
                earlier.add(p);
                p50s.add(then.timings().p50Ms());
            }
        }
        Change c = detector.assess(p50s.stream().mapToDouble(Double::doubleValue).toArray(), now.timings().p50Ms());
        return earlier.isEmpty() ? c : c.against(earlier.get(earlier.size() - 1).runId());
    }

    /** The same case identity less the requested backend, on a host, ran on {@code backend}. */
    private static String workKey(String host, RunResult r, BackendId backend) {
        return host + "|" + r.id().inputKey() + "|" + r.lane().key() + "|" + backend;
    }

    /**
     * Of two native CPU results of one case, the one ratios are taken against: the newer runtime (a run under several
     * {@code --ort} versions has one per version; axes compared in their order), then the later result.
     */
    static RunResult reference(RunResult a, RunResult b) {
        for (VersionAxis axis : LaneSide.NATIVE.axes()) {
            int v = Comparator.nullsFirst(VersionOrder::compare).compare(a.lane().version(axis), b.lane().version(axis));
            if (v != 0) {
                return v > 0 ? a : b;
            }
        }
        return a.startedAt() != null && b.startedAt() != null && a.startedAt().isAfter(b.startedAt()) ? a : b;
    }

    /** The native CPU reference of a case: same host, same model, inputs, precision and batch. */
    private static String refKey(RunResult r) {
        return r.hostFingerprint() + "|" + r.id().inputKey();
    }
}
