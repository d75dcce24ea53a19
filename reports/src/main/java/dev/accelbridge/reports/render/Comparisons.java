package dev.accelbridge.reports.render;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.reports.StoreException;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.store.MatrixStore;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link Comparison} read from a store, the one way {@code accelbridge compare} and the dashboard's
 * {@code GET /api/compare} pick its two sides: two runs; or two hosts, two lanes or two versions (of a browser, of
 * onnxruntime-web, of ONNX Runtime) within one run (or within the newest result of every cell).
 */
@PublicApi
public final class Comparisons {
    private Comparisons() {
    }

    /**
     * The two sides of {@code a} and {@code b} compared by {@code by}.
     *
     * @param run       for host and lane: the run both sides come from; empty: the newest result of every cell
     * @param threshold the smallest change called significant ({@link dev.accelbridge.core.SampleStats#significant})
     * @throws StoreException when a run named is not in the store
     */
    public static Comparison of(MatrixStore store, Comparison.By by, String a, String b, Optional<String> run, double threshold) {
        List<RunResult> sideA;
        List<RunResult> sideB;
        if (by == Comparison.By.RUN) {
            sideA = store.results(requireRun(store, a));
            sideB = store.results(requireRun(store, b));
        } else {
            List<RunResult> pool = run.isPresent() ? store.results(requireRun(store, run.get()))
                    : MatrixBuilder.build(store, Optional.empty(), RegressionDetector.defaults()).cells().stream()
                    .map(Cell::result).toList();
            String field = by == Comparison.By.HOST ? "host" : by.dimension().name();
            sideA = CaseFilter.parse(Map.of(field, List.of(a))).apply(pool);
            sideB = CaseFilter.parse(Map.of(field, List.of(b))).apply(pool);
            for (String side : List.of(a, b)) {
                if ((side.equals(a) ? sideA : sideB).isEmpty()) {
                    // found when tried: a version no lane has made every cell "absent" instead of naming the version
                    List<String> held = pool.stream().map(r -> by == Comparison.By.HOST ? (r.provenance() == null ? null : r.provenance().host())
                            : by.dimension().text(r.id())).filter(java.util.Objects::nonNull).distinct().sorted().limit(20).toList();
                    throw new StoreException("No " + (run.isPresent() ? "result of run " + run.get() : "cell of the store") + " has " + field
                            + " " + Untrusted.quote(side) + " (" + (held.isEmpty() ? "none has any"
                            : "it has " + String.join(", ", held)) + ")", "compare two values the store holds");
                }
            }
        }
        return Comparison.of(by, a, b, sideA, sideB, threshold, (x, y) -> noise(store, by, x, y));
    }

    /** How many earlier runs of a cell its run-to-run noise is read from (the regression detector's window). */
    static final int WINDOW = RegressionDetector.defaults().window();

    /**
     * The run-to-run noise of log(B / A). Two runs of one cell: that cell's run-level p50s up to (not including) the later
     * run, at most {@link #WINDOW}, and √2 × their log standard deviation (both are single runs). Two cells (hosts, lanes):
     * each cell's p50s up to its own run, and the root of the sum of their squares.
     */
    static double[] noise(MatrixStore store, Comparison.By by, RunResult a, RunResult b) {
        if (by == Comparison.By.RUN) {
            RunResult later = a.startedAt() != null && b.startedAt() != null && a.startedAt().isAfter(b.startedAt()) ? a : b;
            double[] p = p50sBefore(store, later, false);
            return new double[]{Math.sqrt(2) * SampleStats.runNoise(p), p.length};
        }
        double[] pa = p50sBefore(store, a, true);
        double[] pb = p50sBefore(store, b, true);
        double sa = SampleStats.runNoise(pa);
        double sb = SampleStats.runNoise(pb);
        return new double[]{Math.sqrt(sa * sa + sb * sb), Math.min(pa.length, pb.length)};
    }

    /** The run-level p50s of {@code r}'s cell on its host, oldest first, before {@code r}'s run (or up to it). */
    private static double[] p50sBefore(MatrixStore store, RunResult r, boolean inclusive) {
        List<Double> out = new java.util.ArrayList<>();
        for (RunResult h : store.history(r.cell())) {
            boolean before = r.startedAt() == null || h.startedAt() == null || h.startedAt().isBefore(r.startedAt());
            boolean same = h.runId().equals(r.runId());
            if ((before && !same || inclusive && same) && h.status().executed()) {
                h.timings().ifPresent(t -> out.add(t.p50Ms()));
            }
        }
        List<Double> last = out.subList(Math.max(0, out.size() - WINDOW), out.size());
        return last.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static String requireRun(MatrixStore store, String run) {
        if (store.run(run).isEmpty()) {
            throw new StoreException("No run " + run + " in the matrix store " + store.path(),
                    "pick a run id from 'accelbridge report' (or GET /api/runs)");
        }
        return run;
    }
}
