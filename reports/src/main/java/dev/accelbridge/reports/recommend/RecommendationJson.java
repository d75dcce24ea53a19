package dev.accelbridge.reports.recommend;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.reports.store.ResultJson;

import java.util.List;
import java.util.Locale;

/**
 * The JSON of {@code accelbridge recommend --json}: an array with one entry per family (or model), host and
 * precision: {@code family, model, host, hostFingerprint, precision, best, runnerUp, note}, where {@code best} and
 * {@code runnerUp} are {@code {backend, browser, p50Ms, speedupVsCpu, speedupVsWasm, rssPeakBytes, models}} or null.
 */
@PublicApi
public final class RecommendationJson {
    private RecommendationJson() {
    }

    /** The array. */
    public static ArrayNode array(List<Recommendation> recs) {
        ArrayNode a = ResultJson.MAPPER.createArrayNode();
        for (Recommendation r : recs) {
            ObjectNode o = a.addObject();
            o.put("family", r.family());
            o.put("model", r.model());
            o.put("host", r.host());
            o.put("hostFingerprint", r.hostFingerprint());
            o.put("precision", r.precision().id());
            o.set("best", option(r.best()));
            o.set("runnerUp", option(r.runnerUp()));
            o.put("note", r.note());
        }
        return a;
    }

    private static ObjectNode option(Recommendation.Option o) {
        if (o == null) {
            return null;
        }
        ObjectNode n = ResultJson.MAPPER.createObjectNode();
        n.put("backend", o.backend());
        n.put("browser", o.browser());
        n.set("p50Ms", ResultJson.num(o.p50Ms()));
        n.set("speedupVsCpu", ResultJson.num(o.speedupVsCpu()));
        n.set("speedupVsWasm", Double.isNaN(o.speedupVsWasm()) ? null : ResultJson.num(o.speedupVsWasm()));
        n.set("rssPeakBytes", o.rssPeakBytes() < 0 ? null : ResultJson.MAPPER.getNodeFactory().numberNode(o.rssPeakBytes()));
        n.put("models", o.models());
        return n;
    }

    /** "wasm [chromium] 1.20 ms, 0.36× native cpu" for text output. */
    public static String describe(Recommendation.Option o) {
        if (o == null) {
            return "–";
        }
        return o.backend() + " [" + (o.browser() == null ? "native" : o.browser()) + "] "
                + String.format(Locale.ROOT, "p50 %.3f ms, %.2f× native cpu", o.p50Ms(), o.speedupVsCpu())
                + (Double.isNaN(o.speedupVsWasm()) ? "" : String.format(Locale.ROOT, ", %.2f× wasm", o.speedupVsWasm()));
    }
}
