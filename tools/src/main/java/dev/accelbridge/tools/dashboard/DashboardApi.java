package dev.accelbridge.tools.dashboard;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.StoreException;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.ops.OpTable;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.recommend.RecommendationJson;
import dev.accelbridge.reports.recommend.Recommender;
import dev.accelbridge.reports.render.Cell;
import dev.accelbridge.reports.render.ComparisonJson;
import dev.accelbridge.reports.render.Comparison;
import dev.accelbridge.reports.render.Comparisons;
import dev.accelbridge.reports.render.JsonRenderer;
import dev.accelbridge.reports.render.Matrix;
import dev.accelbridge.reports.render.MatrixBuilder;
import dev.accelbridge.reports.render.Overview;
import dev.accelbridge.reports.render.Views;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.reports.store.RunInfo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the dashboard's JSON API answers, read from the matrix store; no HTTP here ({@link DashboardRoutes} maps
 * requests onto it). A run id the store does not have is a {@link StoreException} (answered 404).
 */
public final class DashboardApi {
    private final MatrixStore store;
    private final RegressionDetector detector;

    /**
     * @param store    the store shown (shared with runs in this process; its operations are serialized)
     * @param detector how history is compared
     */
    public DashboardApi(MatrixStore store, RegressionDetector detector) {
        this.store = store;
        this.detector = detector;
    }

    /** The store shown. */
    public MatrixStore store() {
        return store;
    }

    /** {@code GET /api/runs}: every run, newest first, with its progress and the host it ran on. */
    public ArrayNode runs() {
        Map<String, HostInfo> hosts = store.hosts();
        List<String> live = store.liveRuns().stream().map(RunInfo::runId).toList();
        List<RunInfo> runs = new ArrayList<>(store.runs());
        runs.sort(Comparator.comparing(RunInfo::startedAt).reversed());
        ArrayNode out = ResultJson.MAPPER.createArrayNode();
        for (RunInfo r : runs) {
            out.add(run(r, hosts, live.contains(r.runId())));
        }
        return out;
    }

    /** One run as {@link #runs()} lists it. */
    static ObjectNode run(RunInfo r, Map<String, HostInfo> hosts, boolean live) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        HostInfo h = hosts.get(r.hostFingerprint());
        o.put("runId", r.runId()).put("startedAt", r.startedAt().toString())
                .put("finishedAt", r.finishedAt() == null ? null : r.finishedAt().toString())
                .put("status", live ? "running" : r.status().name().toLowerCase(java.util.Locale.ROOT))
                .put("host", h == null ? null : h.hostname()).put("hostFingerprint", r.hostFingerprint())
                .put("toolkitVersion", r.toolkitVersion()).put("results", r.results()).put("total", r.plannedCases());
        ObjectNode lanes = o.putObject("lanes");
        r.plannedLanes().forEach(lanes::put);
        o.set("plan", r.storedPlan());
        o.set("args", ResultJson.strings(r.args()));
        o.put("origin", r.origin()).put("label", r.label());
        return o;
    }

    /**
     * {@code GET /api/cases}: a run's cases (or, without a run, the newest result of every cell) that pass the filter,
     * in the one JSON form of a result.
     */
    public ArrayNode cases(Optional<String> run, CaseFilter filter) {
        return JsonRenderer.results(filter.apply(scope(run)));
    }

    /** {@code GET /api/matrix}: the cells the views draw ({@link Views#matrix}) and the filters' options. */
    public ObjectNode matrix(Optional<String> run, CaseFilter filter) {
        Matrix m = MatrixBuilder.build(store, run, detector);
        ObjectNode o = Views.matrix(m, filter);
        o.put("runId", run.orElse(null));
        // the first screen, made by the reports' code for the same cells (escaped HTML; the page inserts it as is)
        o.put("overview", Overview.html(m.filtered(filter::test)));
        return o;
    }

    /**
     * {@code GET /api/case}: one case of a run in full (samples, fallback hops, provenance, diagnostics, analysis),
     * its cell as the matrix scores it, and the cell's history with regressions marked.
     *
     * @throws StoreException when the run or the case is not in the store
     */
    public ObjectNode caseDetail(String run, String key) {
        RunResult r = store.results(requireRun(run)).stream().filter(x -> x.id().key().equals(key)).findFirst()
                .orElseThrow(() -> new StoreException("Run " + run + " has no case " + key, "pick a case from GET /api/cases?run=" + run));
        Matrix m = MatrixBuilder.build(store, Optional.of(run), detector);
        Cell cell = m.cells().stream().filter(c -> c.result().id().equals(r.id())
                && java.util.Objects.equals(c.result().hostFingerprint(), r.hostFingerprint())).findFirst().orElseThrow();
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        ObjectNode result = ResultJson.result(r, true);
        JsonRenderer.derived(result, cell.score(), cell.cpuP50Ms());
        o.set("result", result);
        o.set("cell", Views.cell(cell, false));
        o.set("history", Views.history(store.history(r.cell()), detector));
        return o;
    }

    /**
     * {@code GET /api/compare}: two runs, two hosts or two lanes side by side with ratios.
     *
     * @param by   run, host or lane
     * @param a    side A (a run id, host name or fingerprint, or browser id)
     * @param b    side B
     * @param run  for host and browser: the run to read both sides from (empty: the newest result of every cell)
     */
    public ObjectNode compare(Comparison.By by, String a, String b, Optional<String> run) {
        return ComparisonJson.json(Comparisons.of(store, by, a, b, run, detector.threshold()));
    }

    /** {@code GET /api/ops}: the op suite's table over the store (the newest result of every case), as {@code accelbridge ops --json}. */
    public com.fasterxml.jackson.databind.JsonNode ops() {
        return ResultJson.MAPPER.valueToTree(OpTable.of(store.allResults(), col -> true));
    }

    /** {@code GET /api/recommendations}: the fastest passing backend per family and host, with its speedup over CPU. */
    public ArrayNode recommendations(Optional<String> run, boolean perModel) {
        return RecommendationJson.array(Recommender.recommend(scope(run), perModel));
    }

    /** The results a view starts from: one run's, or the newest of every cell. */
    List<RunResult> scope(Optional<String> run) {
        if (run.isPresent()) {
            return store.results(requireRun(run.get()));
        }
        return MatrixBuilder.build(store, Optional.empty(), detector).cells().stream().map(Cell::result).toList();
    }

    private String requireRun(String run) {
        if (store.run(run).isEmpty()) {
            throw new StoreException("No run " + run + " in the matrix store " + store.path(), "pick a run id from GET /api/runs");
        }
        return run;
    }
}
