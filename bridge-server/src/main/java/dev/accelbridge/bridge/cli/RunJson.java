package dev.accelbridge.bridge.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.render.JsonRenderer;
import dev.accelbridge.reports.score.Scorer;
import dev.accelbridge.reports.store.ResultJson;

import java.util.List;

/**
 * {@code accelbridge run --json}: one object per case, the one JSON form of a result ({@link ResultJson#result})
 * with the fields every derived form adds ({@link JsonRenderer#derived}: score, grade, speed against native CPU).
 * Missing figures are {@code null}, never a placeholder number.
 */
final class RunJson {
    private RunJson() {
    }

    static String array(List<RunResult> results) {
        ArrayNode arr = ResultJson.MAPPER.createArrayNode();
        for (RunResult r : results) {
            double cpu = cpuP50(results, r);
            ObjectNode o = ResultJson.result(r, false);
            JsonRenderer.derived(o, Scorer.score(r, cpu), cpu);
            arr.add(o);
        }
        return arr.toString();
    }

    /** The native CPU p50 of the same case (model, inputs, precision, batch) on the same host in this run. */
    private static double cpuP50(List<RunResult> results, RunResult r) {
        return results.stream()
                .filter(x -> x.actual() == BackendId.CPU && x.requested() == BackendId.CPU && x.lane().isNative()
                        && x.timings() != null && x.id().inputKey().equals(r.id().inputKey())
                        && java.util.Objects.equals(x.hostFingerprint(), r.hostFingerprint()))
                .mapToDouble(x -> x.timings().p50Ms()).findFirst().orElse(Double.NaN);
    }
}
