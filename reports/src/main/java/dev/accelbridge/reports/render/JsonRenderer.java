package dev.accelbridge.reports.render;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.store.ResultJson;

/**
 * {@code matrix.json}: {@code {format, scope, generatedAt, hosts, cells: [...], regressions, improvements}}; each
 * cell holds its key, host, status, reason, score, grade, timings, parity, fallbackPath, provenance, the native CPU
 * reference and ratio, the fallback cost, the change against the previous run, and its p50 history.
 */
public final class JsonRenderer {
    private JsonRenderer() {
    }

    /** The document. */
    public static ObjectNode render(Matrix m) {
        ObjectNode doc = ResultJson.MAPPER.createObjectNode();
        doc.put("format", "accelbridge-matrix-report");
        doc.put("scope", m.scope());
        doc.put("generatedAt", m.generatedAt().toString());
        ObjectNode hosts = doc.putObject("hosts");
        m.hosts().forEach((fp, h) -> hosts.set(fp, ResultJson.host(h)));
        ArrayNode cells = doc.putArray("cells");
        for (Cell c : m.cells()) {
            cells.add(cell(c));
        }
        doc.put("regressions", m.regressions().size());
        doc.put("improvements", m.improvements().size());
        return doc;
    }

    /** One cell. */
    public static ObjectNode cell(Cell c) {
        RunResult r = c.result();
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.put("runId", r.runId());
        o.put("caseKey", c.key().toString());
        o.put("suite", r.suite().id());
        o.put("model", r.model());
        o.put("inputSet", r.inputSet());
        o.put("requested", r.requested().id());
        o.put("actual", r.actual() == null ? null : r.actual().id());
        o.put("browser", c.key().browser());
        o.put("host", c.host());
        o.put("hostFingerprint", r.provenance() == null ? null : r.provenance().hostFingerprint());
        o.put("status", r.status().name());
        o.put("reason", r.reason());
        o.set("score", ResultJson.num(Math.round(c.score().value() * 10) / 10.0));
        o.put("grade", c.score().grade().label());
        if (c.score().note() != null) {
            o.put("scoreNote", c.score().note());
        }
        o.set("timings", r.timings() == null ? null : ResultJson.timings(r.timings(), false));
        o.set("parity", r.parity() == null ? null : ResultJson.parity(r.parity()));
        o.set("fallbackPath", ResultJson.fallbackPath(r.fallbackPath()));
        o.set("provenance", r.provenance() == null ? null : ResultJson.provenance(r.provenance()));
        o.set("nativeCpuP50Ms", ResultJson.num(c.cpuP50Ms()));
        o.set("vsNative", ResultJson.num(c.vsNative()));
        if (Double.isFinite(c.requestedP50Ms())) {
            ObjectNode cost = o.putObject("fallbackCost");
            cost.put("requested", r.requested().id());
            cost.set("requestedP50Ms", ResultJson.num(c.requestedP50Ms()));
            cost.put("actual", r.actual() == null ? null : r.actual().id());
            cost.set("actualP50Ms", ResultJson.num(c.p50()));
        }
        Change ch = c.change();
        if (ch != null) {
            ObjectNode x = o.putObject("change");
            x.put("kind", ch.kind().name());
            x.put("againstRun", ch.baselineRunId());
            x.set("baselineP50Ms", ResultJson.num(ch.baselineP50()));
            x.set("currentP50Ms", ResultJson.num(ch.currentP50()));
            x.set("ratio", ResultJson.num(ch.ratio()));
            x.set("pValue", ResultJson.num(ch.pValue()));
            x.set("ciLow", ResultJson.num(ch.ciLow()));
            x.set("ciHigh", ResultJson.num(ch.ciHigh()));
        }
        ArrayNode h = o.putArray("history");
        for (HistoryPoint p : c.history()) {
            ObjectNode po = h.addObject();
            po.put("runId", p.runId());
            po.put("startedAt", p.startedAt() == null ? null : p.startedAt().toString());
            po.set("p50Ms", ResultJson.num(p.p50Ms()));
            po.put("status", p.status().name());
        }
        o.set("warnings", ResultJson.strings(r.warnings()));
        return o;
    }
}
