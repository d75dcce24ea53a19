package dev.accelbridge.reports.render;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.reports.ops.OpTable;
import dev.accelbridge.reports.score.PositionSpread;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.score.Score;
import dev.accelbridge.reports.score.Scorer;
import dev.accelbridge.reports.store.Figure;
import dev.accelbridge.reports.store.ResultJson;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code matrix.json}: {@code {format, scope, generatedAt, hosts, cells: [...], positionDependent, regressions,
 * improvements}}; each cell holds its key, host, status, reason, score, grade, timings, parity, fallbackPath, provenance,
 * the native CPU reference and ratio, the fallback cost, the change against the previous run, its p50 history, and,
 * where the same work measured apart elsewhere in its run, {@code positionSpread} ({@link
 * dev.accelbridge.reports.score.PositionSpread}).
 */
@PublicApi
public final class JsonRenderer {
    private JsonRenderer() {
    }

    /** What every derived form adds to a result's JSON ({@link #derived}). */
    record DerivedForm(@Figure double score, String grade, String scoreNote, String acceleration, @Figure double nativeCpuP50Ms,
                       @Figure double speedVsNativeCpu, @Figure double vsNative) {
    }

    /** A fallback's cost: the requested backend's p50 when it last worked on this host, against the one it ran on. */
    record CostForm(String requested, @Figure double requestedP50Ms, String actual, @Figure double actualP50Ms) {
    }

    /** The cell's change against earlier runs ({@link Change}). */
    record ChangeForm(String kind, String label, String againstRun, int baselineRuns, @Figure double baselineP50Ms,
                      @Figure double currentP50Ms, @Figure double ratio, @Figure double noise, @Figure double bound) {
    }

    /** One earlier run of the cell. */
    record HistoryForm(String runId, String startedAt, @Figure double p50Ms, String status) {
    }

    /** The same work measured apart elsewhere in the run: its range, this figure's uncertainty. */
    record SpreadForm(@Figure double lowMs, @Figure double highMs, int copies) {
    }

    /**
     * The document, written whole.
     *
     * @param format      always {@code accelbridge-matrix-report}
     * @param hosts       each host's detection, by fingerprint (in fingerprint order)
     * @param cells       each cell's form ({@link #cell}), with its {@code positionSpread} where it has one
     * @param conformance op → column → status → count, in op, matrix column and status order ({@link Matrix.Conformance}):
     *                    keys that are data, kept in the view's order (a map would be written with its keys sorted)
     * @param ops         the op suite's table, absent when the scope has none of its results
     */
    public record MatrixForm(String format, String scope, String generatedAt, Map<String, JsonNode> hosts, List<ObjectNode> cells,
                             ObjectNode conformance,
                             @JsonInclude(JsonInclude.Include.NON_NULL) OpTable ops, int positionDependent, int regressions,
                             int improvements) {
    }

    /** The document. */
    public static ObjectNode render(Matrix m) {
        return ResultJson.MAPPER.valueToTree(form(m));
    }

    /** The document's form. */
    public static MatrixForm form(Matrix m) {
        Map<String, JsonNode> hosts = new java.util.TreeMap<>();
        m.hosts().forEach((fp, h) -> hosts.put(fp, ResultJson.host(h)));
        List<PositionSpread> spreads = m.positionSpreads();
        Map<RunResult, PositionSpread> spreadOf = new java.util.IdentityHashMap<>();
        spreads.forEach(s -> s.copies().forEach(r -> spreadOf.put(r, s)));
        List<ObjectNode> cells = new ArrayList<>();
        for (Cell c : m.cells()) {
            ObjectNode o = cell(c);
            PositionSpread s = spreadOf.get(c.result());
            if (s != null) { // the same work elsewhere in the run measured apart: the range is this figure's uncertainty
                o.set("positionSpread", ResultJson.MAPPER.valueToTree(new SpreadForm(s.lowMs(), s.highMs(), s.copies().size())));
            }
            cells.add(o);
        }
        ObjectNode conformance = ResultJson.MAPPER.createObjectNode();
        Matrix.Conformance conf = m.conformance();
        for (String op : conf.ops()) {
            ObjectNode row = conformance.putObject(op);
            conf.counts().get(op).forEach((col, byStatus) -> {
                ObjectNode e = row.putObject(col);
                byStatus.forEach((st, n) -> e.put(st.name(), n));
            });
        }
        // the op suite's table (op × backend and lane, with each op's first failing variant), when the scope has its results
        OpTable ops = OpTable.of(m.cells().stream().map(Cell::result).toList(), col -> true);
        return new MatrixForm("accelbridge-matrix-report", m.scope(), m.generatedAt().toString(), hosts, cells, conformance,
                ops.rows().isEmpty() ? null : ops, spreads.size(), m.regressions().size(), m.improvements().size());
    }

    /**
     * One cell: the one JSON form of its result ({@link ResultJson#result}) plus what the matrix derives from it
     * (score, grade, the ratio to native CPU, the fallback's cost, the change against earlier runs, the history).
     */
    public static ObjectNode cell(Cell c) {
        RunResult r = c.result();
        ObjectNode o = ResultJson.result(r, false);
        derived(o, c.score(), c.cpuP50Ms());
        if (Double.isFinite(c.requestedP50Ms())) {
            o.set("fallbackCost", ResultJson.MAPPER.valueToTree(new CostForm(r.requested().id(), c.requestedP50Ms(),
                    r.actual().map(ba -> ba.id()).orElse(null), c.p50())));
        }
        Change ch = c.change();
        if (ch != null) {
            o.set("change", ResultJson.MAPPER.valueToTree(new ChangeForm(ch.kind().name(), ch.kind().label(), ch.baselineRunId(),
                    ch.baselineRuns(), ch.baselineP50(), ch.currentP50(), ch.ratio(), ch.noise(), ch.bound())));
        }
        o.set("history", ResultJson.MAPPER.valueToTree(c.history().stream().map(p -> new HistoryForm(p.runId(),
                p.startedAt() == null ? null : p.startedAt().toString(), p.p50Ms(), p.status().name())).toList()));
        return o;
    }

    /**
     * Results in the one JSON form of a result ({@code run --json}, {@code GET /api/cases}): each with the fields every
     * derived form adds, scored against the native CPU p50 of the same case on the same host among {@code results}.
     */
    public static ArrayNode results(List<RunResult> results) {
        Map<String, RunResult> cpu = new HashMap<>();
        for (RunResult x : results) {
            if (x.id().isNativeCpu() && x.ranOnNativeCpu() && x.timings().isPresent()) {
                cpu.merge(x.id().inputKey() + "@" + x.hostFingerprint(), x, MatrixBuilder::reference);
            }
        }
        ArrayNode arr = ResultJson.MAPPER.createArrayNode();
        for (RunResult r : results) {
            RunResult ref = cpu.get(r.id().inputKey() + "@" + r.hostFingerprint());
            double c = ref == null ? Double.NaN : ref.timings().map(t -> t.p50Ms()).orElse(Double.NaN);
            ObjectNode o = ResultJson.result(r, false);
            derived(o, Scorer.score(r, c), c);
            arr.add(o);
        }
        return arr;
    }

    /**
     * The fields every derived form adds to {@link ResultJson#result}: {@code score}, {@code grade} (HIGH, MEDIUM,
     * LOW, NONE), {@code scoreNote}, {@code acceleration}, {@code nativeCpuP50Ms}, {@code speedVsNativeCpu}
     * (native CPU p50 / this p50: &gt; 1 is faster) and {@code vsNative} (this p50 / native CPU p50).
     */
    public static void derived(ObjectNode o, Score s, double cpuP50Ms) {
        o.setAll((ObjectNode) ResultJson.MAPPER.valueToTree(new DerivedForm(Math.round(s.value() * 10) / 10.0, s.grade().name(),
                s.note(), s.acceleration().label(), cpuP50Ms, s.speedRatio(),
                Double.isFinite(s.speedRatio()) && s.speedRatio() > 0 ? 1 / s.speedRatio() : Double.NaN)));
    }
}
