package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Acceleration;
import dev.accelbridge.core.Attempts;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Diagnostic;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of the core records (RunResult, Provenance, Timings, Parity, FallbackHop, HostInfo), shared by the
 * store's JSON columns, the export/merge format and {@code matrix.json}. Field names are camelCase and match the
 * CLI's {@code run --json} ({@code loadMs}, {@code p50Ms}, ...). Non-finite numbers (an infinite max error from a
 * NaN output) are written as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"} so the file stays
 * standard JSON.
 */
public final class ResultJson {
    /** Shared mapper. */
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private ResultJson() {
    }

    /** A double as a JSON node: a number when finite, else its name as a string. */
    public static JsonNode num(double v) {
        return Double.isFinite(v) ? MAPPER.getNodeFactory().numberNode(v) : MAPPER.getNodeFactory().textNode(Double.toString(v));
    }

    /** Reads what {@link #num} wrote; missing or null → NaN. */
    public static double num(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return Double.NaN;
        }
        return n.isTextual() ? Double.parseDouble(n.asText()) : n.asDouble();
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** Provenance → JSON. */
    public static ObjectNode provenance(Provenance p) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("host", p.host());
        o.put("hostFingerprint", p.hostFingerprint());
        o.put("os", p.os());
        o.put("browser", p.browser());
        o.put("browserVersion", p.browserVersion());
        o.put("driver", p.driver());
        o.put("adapter", p.adapter());
        if (p.softwareAdapter() == null) {
            o.putNull("softwareAdapter");
        } else {
            o.put("softwareAdapter", p.softwareAdapter());
        }
        ArrayNode eps = o.putArray("executionProviders");
        p.executionProviders().forEach(eps::add);
        ObjectNode rv = o.putObject("runtimeVersions");
        new java.util.TreeMap<>(p.runtimeVersions()).forEach(rv::put);
        if (p.threads() == null) {
            o.putNull("threads");
        } else {
            o.put("threads", p.threads());
        }
        return o;
    }

    /** JSON → Provenance; null for a JSON null. */
    public static Provenance provenance(JsonNode o) {
        if (o == null || o.isNull()) {
            return null;
        }
        List<String> eps = new ArrayList<>();
        o.path("executionProviders").forEach(e -> eps.add(e.asText()));
        Map<String, String> rv = new LinkedHashMap<>();
        o.path("runtimeVersions").fields().forEachRemaining(e -> rv.put(e.getKey(), e.getValue().asText()));
        JsonNode sw = o.get("softwareAdapter");
        return new Provenance(text(o, "host"), text(o, "hostFingerprint"), text(o, "os"), text(o, "browser"),
                text(o, "browserVersion"), text(o, "driver"), text(o, "adapter"),
                sw == null || sw.isNull() ? null : sw.asBoolean(), eps, rv,
                o.hasNonNull("threads") ? o.get("threads").asInt() : null);
    }

    /** Fallback path → JSON array of {backend, taken, reason}. */
    public static ArrayNode fallbackPath(List<FallbackHop> hops) {
        ArrayNode a = MAPPER.createArrayNode();
        for (FallbackHop h : hops) {
            ObjectNode o = a.addObject();
            o.put("backend", h.backend().id());
            o.put("taken", h.taken());
            o.put("reason", h.reason());
        }
        return a;
    }

    /** JSON → fallback path. */
    public static List<FallbackHop> fallbackPath(JsonNode a) {
        List<FallbackHop> out = new ArrayList<>();
        if (a != null) {
            a.forEach(o -> out.add(new FallbackHop(BackendId.parse(o.get("backend").asText()), o.path("taken").asBoolean(),
                    text(o, "reason"))));
        }
        return out;
    }

    /** Strings → JSON array. */
    public static ArrayNode strings(List<String> l) {
        ArrayNode a = MAPPER.createArrayNode();
        l.forEach(a::add);
        return a;
    }

    /** JSON array → strings. */
    public static List<String> strings(JsonNode a) {
        List<String> out = new ArrayList<>();
        if (a != null) {
            a.forEach(s -> out.add(s.asText()));
        }
        return out;
    }

    /**
     * THE JSON form of a result, defined here once: {@code run --json}, {@code matrix.json}, the export file and the
     * dashboard's API all write this object (the derived forms add fields, e.g. the score). Flat where scripts read
     * it (the fields of the CLI's contract: {@code suite, model, requested, actual, status, loadMs, firstMs, p50Ms,
     * p90Ms, p99Ms, iterations, host, browser, driver, adapter, softwareAdapter, maxAbsErr, maxRelErr, cosine,
     * evidence, fallbackPath}), with the case identity, the diagnostics and the full provenance beside them.
     * Missing figures are {@code null}, never a placeholder.
     *
     * @param withSamples include every timed sample ({@code samplesMs}), as the export does
     */
    public static ObjectNode result(RunResult r, boolean withSamples) {
        ObjectNode o = MAPPER.createObjectNode();
        CaseId id = r.id();
        o.put("runId", r.runId());
        o.put("startedAt", r.startedAt() == null ? null : r.startedAt().toString());
        o.put("caseKey", id.key());
        putCase(o, id);
        o.put("actual", r.actual() == null ? null : r.actual().id());
        o.put("status", r.status().name());
        o.put("reason", r.reason());
        o.put("evidence", r.reason());
        o.put("flaky", r.flaky());
        o.put("attempts", r.attempts().count());
        o.set("earlierAttempts", strings(r.attempts().earlier()));
        Provenance p = r.provenance();
        o.put("host", p == null ? null : p.host());
        o.put("hostFingerprint", p == null ? null : p.hostFingerprint());
        o.put("browser", p == null || p.browser() == null ? null : p.browserLabel());
        o.put("driver", p == null ? null : p.driver());
        o.put("adapter", p == null ? null : p.adapter());
        if (p == null || p.softwareAdapter() == null) {
            o.putNull("softwareAdapter");
        } else {
            o.put("softwareAdapter", p.softwareAdapter());
        }
        o.put("acceleration", Acceleration.of(r.actual(), p).label());
        if (p == null || p.threads() == null) {
            o.putNull("threads");
        } else {
            o.put("threads", p.threads());
        }
        Timings t = r.timings();
        for (String f : List.of("loadMs", "firstMs", "p50Ms", "p90Ms", "p99Ms", "meanMs", "stddevMs", "throughputPerSec")) {
            o.set(f, null);
        }
        if (t == null) {
            o.putNull("iterations");
            o.putNull("warmups");
        } else {
            o.setAll(FigureJson.timings(t, withSamples));
        }
        Parity q = r.parity();
        o.set("maxAbsErr", q == null ? null : num(q.maxAbsErr()));
        o.set("maxRelErr", q == null ? null : num(q.maxRelErr()));
        o.set("cosine", q == null ? null : num(q.cosine()));
        o.set("tolerance", q == null ? null : num(q.tolerance()));
        if (q == null) {
            o.putNull("within");
        } else {
            o.put("within", q.within());
        }
        o.put("parityAgainst", q == null ? null : q.against());
        o.put("nonFinite", q == null ? 0 : q.nonFinite());
        o.set("rtol", q == null ? null : num(q.rtol()));
        o.set("toleranceBudget", q == null ? null : num(q.budget()));
        o.put("toleranceBasis", q == null ? null : q.basis());
        o.set("variantParity", r.variantParity() == null ? null : FigureJson.parity(r.variantParity()));
        AnalysisJson.put(o, r.analysis());
        // per-item throughput: what a batch sweep compares (calls per second × items per call)
        o.set("itemsPerSec", t == null ? null : num(t.throughputPerSec() * id.batchSize()));
        ObjectNode m = o.putObject("memory");
        m.put("rssBefore", r.memory().rssBefore());
        m.put("rssAfter", r.memory().rssAfter());
        m.put("rssPeak", r.memory().rssPeak());
        o.set("rssPeakBytes", r.memory().rssPeak() < 0 ? null : MAPPER.getNodeFactory().numberNode(r.memory().rssPeak()));
        o.set("fallbackPath", fallbackPath(r.fallbackPath()));
        o.set("warnings", strings(r.warnings()));
        ArrayNode diags = o.putArray("diagnostics");
        for (Diagnostic d : r.diagnostics()) {
            ObjectNode x = diags.addObject();
            x.put("severity", d.severity().id());
            x.put("code", d.code());
            x.put("message", d.message());
            x.put("action", d.action());
        }
        o.set("provenance", p == null ? null : provenance(p));
        return o;
    }

    /**
     * JSON → result, checked: a malformed record is refused with a message naming the field, so a merge can name
     * the file and the record and import nothing of it.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static RunResult result(JsonNode o) {
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException("is not a JSON object");
        }
        String runId = required(o, "runId");
        CaseId id = caseOf(o);
        Status status = field(o, "status", s -> Status.valueOf(s));
        String actual = text(o, "actual");
        String started = text(o, "startedAt");
        JsonNode m = o.path("memory");
        MemoryUsage mem = m.isMissingNode() || m.isNull() ? MemoryUsage.UNKNOWN
                : new MemoryUsage(m.path("rssBefore").asLong(-1), m.path("rssAfter").asLong(-1), m.path("rssPeak").asLong(-1));
        Timings t = o.hasNonNull("iterations") ? FigureJson.timings(o) : null;
        Parity q = null;
        if (o.hasNonNull("within")) {
            double tol = num(o.get("tolerance"));
            double maxAbs = num(o.get("maxAbsErr"));
            q = new Parity(maxAbs, num(o.get("maxRelErr")), num(o.get("cosine")), tol, o.path("within").asBoolean(),
                    text(o, "parityAgainst"), o.path("nonFinite").asLong(0), o.hasNonNull("rtol") ? num(o.get("rtol")) : 0,
                    o.hasNonNull("toleranceBudget") ? num(o.get("toleranceBudget")) : tol > 0 ? maxAbs / tol : Double.NaN,
                    text(o, "toleranceBasis"));
        }
        try {
            return new RunResult(runId, started == null ? null : Instant.parse(started), id,
                    actual == null ? null : field(o, "actual", BackendId::parse), status, text(o, "reason"),
                    provenance(o.get("provenance")), t, mem, q, fallbackPath(o.get("fallbackPath")), strings(o.get("warnings")),
                    FigureJson.parity(o.get("variantParity")), AnalysisJson.read(o),
                    new Attempts(Math.max(1, o.path("attempts").asInt(1)), strings(o.get("earlierAttempts"))));
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("startedAt '" + started + "' is not an ISO-8601 instant");
        }
    }

    /** Writes the case's identity: one field per {@link Dimensions#ALL}, under the dimension's name. */
    public static void putCase(ObjectNode o, CaseId id) {
        for (Dimension<?> d : Dimensions.ALL) {
            Object v = d.value(id);
            if (v instanceof Integer n) {
                o.put(d.name(), n);
            } else {
                o.put(d.name(), (String) v);
            }
        }
    }

    /**
     * Reads the case's identity that {@link #putCase} wrote; a dimension a record predates takes its older value.
     *
     * @throws IllegalArgumentException naming the field that is missing or not understood
     */
    public static CaseId caseOf(JsonNode o) {
        try {
            return Dimensions.read(d -> text(o, d.name()));
        } catch (dev.accelbridge.core.AccelbridgeException e) {
            throw new IllegalArgumentException(e.oneLine(), e);
        }
    }

    private static String required(JsonNode o, String f) {
        String v = text(o, f);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("has no " + f);
        }
        return v;
    }

    private static <T> T field(JsonNode o, String f, java.util.function.Function<String, T> parse) {
        String v = required(o, f);
        try {
            return parse.apply(v);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(f + " '" + v + "' is not valid (" + (e instanceof dev.accelbridge.core.AccelbridgeException a
                    ? a.oneLine() : "expected one of the values Accelbridge writes") + ")");
        }
    }

    /** HostInfo → JSON (the {@code detect} output kept in the hosts table). */
    public static ObjectNode host(HostInfo h) {
        return MAPPER.valueToTree(h);
    }

    /** JSON → HostInfo. */
    public static HostInfo host(JsonNode o) {
        try {
            return MAPPER.treeToValue(o, HostInfo.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not a host description: " + e.getOriginalMessage(), e);
        }
    }

    /** Map → JSON text. */
    public static String mapJson(Map<String, String> m) {
        ObjectNode o = MAPPER.createObjectNode();
        new java.util.TreeMap<>(m).forEach(o::put);
        return o.toString();
    }

    /** JSON text → map. */
    public static Map<String, String> mapFromJson(String s) {
        Map<String, String> out = new LinkedHashMap<>();
        if (s == null || s.isBlank()) {
            return out;
        }
        try {
            MAPPER.readTree(s).fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON object: " + s, e);
        }
        return out;
    }

    /** Parses JSON text, wrapping the checked exception. */
    public static JsonNode parse(String s) {
        try {
            return MAPPER.readTree(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
