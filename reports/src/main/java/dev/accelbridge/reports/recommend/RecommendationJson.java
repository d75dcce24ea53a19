package dev.accelbridge.reports.recommend;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.reports.store.ResultJson;

import java.util.List;
import java.util.Locale;

/**
 * The JSON of {@code accelbridge recommend --json}: an array with one entry per family (or model), host, precision and
 * deployment target: {@code family, model, host, hostFingerprint, precision, target, best, runnerUp, note}, where {@code best} and
 * {@code runnerUp} are {@code {backend, browser, p50Ms, speedupVsCpu, vsNativeCpu (the speed-up in words), speedupVsWasm, rssPeakBytes,
 * models}} or null.
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
            o.put("target", r.target());
            o.set("best", option(r.best()));
            o.set("runnerUp", option(r.runnerUp()));
            o.put("note", r.note());
        }
        return a;
    }

    /** Dtype recommendations as a JSON array, one object each; a figure not measured is null. */
    public static ArrayNode dtypeArray(List<DtypeRecommendation> recs) {
        ArrayNode a = ResultJson.MAPPER.createArrayNode();
        for (DtypeRecommendation r : recs) {
            ObjectNode o = a.addObject();
            o.put("host", r.host()).put("hostFingerprint", r.hostFingerprint()).put("family", r.family()).put("model", r.model())
                    .put("target", r.target()).put("backend", r.backend()).put("options", r.options()).put("scenario", r.scenario())
                    .put("minCloseness", r.minCloseness());
            o.set("best", choice(r.best()));
            o.set("fp32", choice(r.fp32()));
            ArrayNode sk = o.putArray("skipped");
            r.skipped().forEach(s -> sk.addObject().put("precision", s.precision().id()).put("why", s.why()));
            o.put("text", r.describe());
        }
        return a;
    }

    private static ObjectNode choice(DtypeRecommendation.Choice c) {
        if (c == null) {
            return null;
        }
        ObjectNode n = ResultJson.MAPPER.createObjectNode();
        n.put("precision", c.precision().id()).put("closenessOf", c.closenessOf());
        n.set("closeness", finite(c.closeness()));
        n.set("p50Ms", finite(c.p50Ms()));
        n.set("speedupVsFp32", finite(c.speedupVsFp32()));
        n.set("speedupInterval", c.speedupInterval() == null ? null
                : ResultJson.MAPPER.createArrayNode().add(c.speedupInterval().lo()).add(c.speedupInterval().hi()));
        n.put("reference", c.reference());
        n.set("computedInFloat32", c.computed() == null ? null : ResultJson.MAPPER.getNodeFactory().booleanNode(c.computed().inFloat32()));
        return n;
    }

    private static com.fasterxml.jackson.databind.JsonNode finite(double v) {
        return Double.isFinite(v) ? ResultJson.MAPPER.getNodeFactory().numberNode(v) : ResultJson.MAPPER.getNodeFactory().nullNode();
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
        n.set("speedupVsCpuCi", o.speedupVsCpuCi() == null ? null
                : ResultJson.MAPPER.getNodeFactory().arrayNode().add(o.speedupVsCpuCi().lo()).add(o.speedupVsCpuCi().hi()));
        n.put("vsNativeCpu", than(o.speedupVsCpu(), "native CPU") + interval(o));
        n.set("offlineItemsPerSec", ResultJson.num(o.offlineItemsPerSec()));
        n.put("offlineBatch", o.offlineBatch());
        n.set("speedupVsWasm", Double.isNaN(o.speedupVsWasm()) ? null : ResultJson.num(o.speedupVsWasm()));
        n.set("rssPeakBytes", o.rssPeakBytes() < 0 ? null : ResultJson.MAPPER.getNodeFactory().numberNode(o.rssPeakBytes()));
        n.put("models", o.models());
        return n;
    }

    /**
     * "webgpu [chromium] p50 1.200 ms, 2.78× slower than native cpu, 1.30× faster than wasm" for text output: a speed
     * below 1 is said as slower, never as a "0.36×" speed-up.
     */
    public static String describe(Recommendation.Option o) {
        if (o == null) {
            return "–";
        }
        boolean wasm = o.backend().equals(BackendId.WASM.id());
        return o.backend() + " [" + (o.browser() == null ? "native" : o.browser()) + "] "
                + String.format(Locale.ROOT, "p50 %.3f ms, %s", o.p50Ms(), than(o.speedupVsCpu(), "native cpu")) + interval(o)
                + (Double.isNaN(o.speedupVsWasm()) || wasm ? "" : ", " + than(o.speedupVsWasm(), "wasm"))
                + (Double.isFinite(o.offlineItemsPerSec()) ? String.format(Locale.ROOT, "; offline %s items/s at batch %d",
                offline(o.offlineItemsPerSec()), o.offlineBatch()) : "");
    }

    /** " [2.61–2.95]": the interval of the factor {@link #than} says, or "" without one. */
    static String interval(Recommendation.Option o) {
        var ci = o.speedupVsCpuCi();
        if (ci == null || !(o.speedupVsCpu() > 0)) {
            return "";
        }
        var f = o.speedupVsCpu() >= 1 ? ci : ci.inverse();
        return String.format(Locale.ROOT, " [%.2f–%.2f]", f.lo(), f.hi());
    }

    private static String offline(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    /** "1.30× faster than wasm", "2.78× slower than native cpu", "as fast as native cpu" from a speed-up. */
    public static String than(double speedup, String what) {
        if (!Double.isFinite(speedup) || speedup <= 0) {
            return "not compared with " + what;
        }
        if (Math.abs(speedup - 1) < 0.005) {
            return "as fast as " + what;
        }
        return speedup > 1 ? String.format(Locale.ROOT, "%.2f× faster than %s", speedup, what)
                : String.format(Locale.ROOT, "%.2f× slower than %s", 1 / speedup, what);
    }
}
