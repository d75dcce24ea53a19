package dev.accelbridge.bridge.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.score.Score;
import dev.accelbridge.reports.score.Scorer;
import dev.accelbridge.reports.store.ResultJson;

import java.util.List;

/**
 * The flat JSON form of {@code accelbridge run --json}: one object per case with the fields scripts rely on
 * ({@code suite, model, requested, actual, status, loadMs, firstMs, p50Ms, p90Ms, p99Ms, iterations, host,
 * browser, driver, adapter, softwareAdapter, maxAbsErr, maxRelErr, cosine, evidence, fallbackPath, score}).
 * Missing figures are {@code null}, never a placeholder number.
 */
final class RunJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RunJson() {
    }

    static String array(List<RunResult> results) {
        ArrayNode arr = MAPPER.createArrayNode();
        for (RunResult r : results) {
            arr.add(object(r, cpuP50(results, r)));
        }
        return arr.toString();
    }

    private static double cpuP50(List<RunResult> results, RunResult r) {
        return results.stream()
                .filter(x -> x.actual() == BackendId.CPU && x.requested() == BackendId.CPU && x.timings() != null
                        && x.model().equals(r.model()) && x.suite() == r.suite()
                        && java.util.Objects.equals(x.inputSet(), r.inputSet()))
                .mapToDouble(x -> x.timings().p50Ms()).findFirst().orElse(Double.NaN);
    }

    static ObjectNode object(RunResult r, double cpuP50) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("runId", r.runId());
        o.put("suite", r.suite().id());
        o.put("model", r.model());
        o.put("inputSet", r.inputSet());
        o.put("modelSha256", r.modelSha256());
        o.put("requested", r.requested().id());
        o.put("actual", r.actual() == null ? null : r.actual().id());
        o.put("status", r.status().name());
        var t = r.timings();
        o.set("loadMs", t == null ? null : ResultJson.num(t.loadMs()));
        o.set("firstMs", t == null ? null : ResultJson.num(t.firstMs()));
        o.set("p50Ms", t == null ? null : ResultJson.num(t.p50Ms()));
        o.set("p90Ms", t == null ? null : ResultJson.num(t.p90Ms()));
        o.set("p99Ms", t == null ? null : ResultJson.num(t.p99Ms()));
        o.set("meanMs", t == null ? null : ResultJson.num(t.meanMs()));
        o.set("stddevMs", t == null ? null : ResultJson.num(t.stddevMs()));
        o.set("throughputPerSec", t == null ? null : ResultJson.num(t.throughputPerSec()));
        if (t == null) {
            o.putNull("iterations");
        } else {
            o.put("iterations", t.iterations());
        }
        var p = r.provenance();
        o.put("host", p == null ? null : p.host());
        o.put("browser", p == null || p.browser() == null ? null : p.browserLabel());
        o.put("driver", p == null ? null : p.driver());
        o.put("adapter", p == null ? null : p.adapter());
        if (p == null || p.softwareAdapter() == null) {
            o.putNull("softwareAdapter");
        } else {
            o.put("softwareAdapter", p.softwareAdapter());
        }
        var q = r.parity();
        o.set("maxAbsErr", q == null ? null : ResultJson.num(q.maxAbsErr()));
        o.set("maxRelErr", q == null ? null : ResultJson.num(q.maxRelErr()));
        o.set("cosine", q == null ? null : ResultJson.num(q.cosine()));
        o.put("parityAgainst", q == null ? null : q.against());
        o.put("evidence", r.reason());
        o.set("fallbackPath", ResultJson.fallbackPath(r.fallbackPath()));
        Score s = Scorer.score(r, cpuP50);
        o.set("score", ResultJson.num(s.value()));
        o.put("grade", s.grade().name());
        o.set("rssPeakBytes", r.memory().rssPeak() < 0 ? null : MAPPER.getNodeFactory().numberNode(r.memory().rssPeak()));
        o.set("warnings", ResultJson.strings(r.warnings()));
        o.set("provenance", p == null ? null : ResultJson.provenance(p));
        return o;
    }
}
