package dev.accelbridge.reports.recommend;

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

    private static ObjectNode option(Recommendation.Option o) {
        if (o == null) {
            return null;
        }
        ObjectNode n = ResultJson.MAPPER.createObjectNode();
        n.put("backend", o.backend());
        n.put("browser", o.browser());
        n.set("p50Ms", ResultJson.num(o.p50Ms()));
        n.set("speedupVsCpu", ResultJson.num(o.speedupVsCpu()));
        n.put("vsNativeCpu", than(o.speedupVsCpu(), "native CPU"));
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
        boolean wasm = o.backend().equals(dev.accelbridge.core.BackendId.WASM.id());
        return o.backend() + " [" + (o.browser() == null ? "native" : o.browser()) + "] "
                + String.format(Locale.ROOT, "p50 %.3f ms, %s", o.p50Ms(), than(o.speedupVsCpu(), "native cpu"))
                + (Double.isNaN(o.speedupVsWasm()) || wasm ? "" : ", " + than(o.speedupVsWasm(), "wasm"));
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
