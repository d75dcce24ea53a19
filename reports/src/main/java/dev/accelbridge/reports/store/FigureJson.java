package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Timings;

/**
 * The JSON form of a result's figures: its timings and a parity (the result's own, or a variant's against its native CPU
 * run), written and read back with non-finite numbers as strings ({@link ResultJson#num(double)}).
 */
final class FigureJson {
    private FigureJson() {
    }

    /** Timings → JSON (with or without the raw samples). */
    public static ObjectNode timings(Timings t, boolean withSamples) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.set("loadMs", ResultJson.num(t.loadMs()));
        o.set("firstMs", ResultJson.num(t.firstMs()));
        o.put("warmups", t.warmups());
        o.put("iterations", t.iterations());
        o.set("p50Ms", ResultJson.num(t.p50Ms()));
        o.set("p90Ms", ResultJson.num(t.p90Ms()));
        o.set("p99Ms", ResultJson.num(t.p99Ms()));
        o.set("meanMs", ResultJson.num(t.meanMs()));
        o.set("stddevMs", ResultJson.num(t.stddevMs()));
        o.set("throughputPerSec", ResultJson.num(t.throughputPerSec()));
        if (withSamples) {
            ArrayNode s = o.putArray("samplesMs");
            for (double v : t.samplesMs()) {
                s.add(ResultJson.num(v));
            }
        }
        return o;
    }

    /** JSON → Timings (the stored summary figures are kept as they were, not recomputed). */
    public static Timings timings(JsonNode o) {
        if (o == null || o.isNull()) {
            return null;
        }
        JsonNode s = o.path("samplesMs");
        double[] samples = new double[s.size()];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = ResultJson.num(s.get(i));
        }
        return new Timings(ResultJson.num(o.get("loadMs")), ResultJson.num(o.get("firstMs")), o.path("warmups").asInt(), samples,
                ResultJson.num(o.get("p50Ms")), ResultJson.num(o.get("p90Ms")), ResultJson.num(o.get("p99Ms")), ResultJson.num(o.get("meanMs")), ResultJson.num(o.get("stddevMs")),
                ResultJson.num(o.get("throughputPerSec")));
    }

    /** Parity → JSON. */
    public static ObjectNode parity(Parity p) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.set("maxAbsErr", ResultJson.num(p.maxAbsErr()));
        o.set("maxRelErr", ResultJson.num(p.maxRelErr()));
        o.set("cosine", ResultJson.num(p.cosine()));
        o.set("tolerance", ResultJson.num(p.tolerance()));
        o.put("within", p.within());
        o.put("against", p.against());
        o.put("nonFinite", p.nonFinite());
        o.set("rtol", ResultJson.num(p.rtol()));
        o.set("budget", ResultJson.num(p.budget()));
        o.put("basis", p.basis());
        return o;
    }

    /** JSON → Parity. */
    public static Parity parity(JsonNode o) {
        if (o == null || o.isNull()) {
            return null;
        }
        return new Parity(ResultJson.num(o.get("maxAbsErr")), ResultJson.num(o.get("maxRelErr")), ResultJson.num(o.get("cosine")), ResultJson.num(o.get("tolerance")),
                o.path("within").asBoolean(), ResultJson.text(o, "against"),
                o.path("nonFinite").asLong(0), ResultJson.num(o.get("rtol")), ResultJson.num(o.get("budget")), ResultJson.text(o, "basis"));
    }
}
