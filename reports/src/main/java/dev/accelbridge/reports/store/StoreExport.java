package dev.accelbridge.reports.store;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.StoreException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves matrix data between hosts as one JSON document, so many machines fill ONE matrix (the host is a dimension
 * of it):
 * <pre>
 * { "format": "accelbridge-matrix", "schemaVersion": 2, "exportedAt": "...",
 *   "hosts":  [ {fingerprint, hostname, detect, firstSeen, lastSeen} ],
 *   "runs":   [ {runId, startedAt, finishedAt, status, hostFingerprint, toolkitVersion, runtimeVersions, plan} ],
 *   "probes": [ {runId, backend, where, available, evidence} ],
 *   "results":[ ResultJson.result(r, true): the one JSON form, samplesMs holding every sample ] }
 * </pre>
 * {@link #merge} is idempotent per result (a result already present, same run and case, is skipped; a missing one is
 * added even to a run the store has). A file of an older schema version
 * is upgraded step by step ({@link ExportUpgrades}); a newer one, or anything that is not this format, is refused
 * with the reason and nothing of it is imported.
 */
@PublicApi
public final class StoreExport {
    /** The {@code format} value of an export. */
    public static final String FORMAT = "accelbridge-matrix";

    /**
     * How an export file is read: a key twice in one object (last would win: {@code "within": false} after
     * {@code true}) and anything after the document are refused, not passed over.
     */
    private static final com.fasterxml.jackson.databind.ObjectReader STRICT = ResultJson.MAPPER.reader()
            .with(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // 1e23 or 1e400 is kept as written (not rounded, not Infinity), so the check can name it and refuse it
            .with(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private StoreExport() {
    }

    /** What a merge did. */
    public record MergeSummary(int runsImported, int runsSkipped, int results, int resultsSkipped, int hosts) {
    }

    /** The whole store as an export document. */
    public static ObjectNode export(MatrixStore store) {
        ObjectNode doc = ResultJson.MAPPER.createObjectNode();
        doc.put("format", FORMAT);
        doc.put("schemaVersion", MatrixStore.currentSchemaVersion());
        doc.put("exportedAt", Instant.now().toString());
        ArrayNode hosts = doc.putArray("hosts");
        for (Object[] h : store.hostRows()) {
            ObjectNode o = hosts.addObject();
            o.put("fingerprint", (String) h[0]);
            o.put("hostname", (String) h[1]);
            o.set("detect", h[2] == null ? null : ResultJson.parse((String) h[2]));
            o.put("firstSeen", h[3].toString());
            o.put("lastSeen", h[4].toString());
        }
        ArrayNode runs = doc.putArray("runs");
        ArrayNode probes = doc.putArray("probes");
        for (RunInfo r : store.runs()) {
            runs.add(run(r));
            store.probes(r.runId()).forEach(a -> probes.add(probe(r.runId(), a)));
        }
        ArrayNode models = doc.putArray("models");
        store.modelOps().forEach((sha, ops) -> {
            ObjectNode m = models.addObject();
            m.put("sha256", sha);
            m.set("ops", ResultJson.strings(ops));
        });
        ArrayNode results = doc.putArray("results");
        for (RunResult r : store.allResults()) {
            results.add(ResultJson.result(r, true));
        }
        return doc;
    }

    private static ObjectNode run(RunInfo r) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.put("runId", r.runId());
        o.put("startedAt", r.startedAt().toString());
        o.put("finishedAt", r.finishedAt() == null ? null : r.finishedAt().toString());
        o.put("status", r.status().db());
        o.put("hostFingerprint", r.hostFingerprint());
        o.put("toolkitVersion", r.toolkitVersion());
        ObjectNode rv = o.putObject("runtimeVersions");
        r.runtimeVersions().forEach(rv::put);
        o.put("plan", r.planJson());
        return o;
    }

    private static ObjectNode probe(String runId, Availability a) {
        ObjectNode x = ResultJson.MAPPER.createObjectNode();
        x.put("runId", runId);
        x.put("backend", a.backend().id());
        x.put("where", a.where());
        x.put("available", a.available());
        x.put("evidence", a.evidence());
        return x;
    }

    /** Writes {@link #export} to a file. */
    public static void exportTo(MatrixStore store, Path file) {
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            ResultJson.MAPPER.writeValue(file.toFile(), export(store));
        } catch (IOException e) {
            throw new StoreException("Cannot write the export " + file + ": " + e.getMessage(),
                    "check the folder exists and is writable", e);
        }
    }

    /**
     * The export document of results that could not be stored (a store that failed mid-run): {@link #merge} takes
     * it into a healthy store later, so nothing measured is lost.
     */
    public static ObjectNode document(HostInfo host, RunInfo run, List<Availability> probes, List<RunResult> results) {
        ObjectNode doc = ResultJson.MAPPER.createObjectNode();
        doc.put("format", FORMAT);
        doc.put("schemaVersion", MatrixStore.currentSchemaVersion());
        doc.put("exportedAt", Instant.now().toString());
        ObjectNode h = doc.putArray("hosts").addObject();
        h.put("fingerprint", host.fingerprint());
        h.put("hostname", host.hostname());
        h.set("detect", ResultJson.host(host));
        h.put("firstSeen", run.startedAt().toString());
        h.put("lastSeen", Instant.now().toString());
        doc.putArray("runs").add(run(run));
        ArrayNode pa = doc.putArray("probes");
        probes.forEach(a -> pa.add(probe(run.runId(), a)));
        doc.putArray("models");
        ArrayNode ra = doc.putArray("results");
        results.forEach(r -> ra.add(ResultJson.result(r, true)));
        return doc;
    }

    /** One export file, read and checked whole into typed values. */
    private record Parsed(Path file, List<Object[]> hosts, List<RunInfo> runs, Map<String, List<Availability>> probes,
                          Map<String, List<RunResult>> results, Map<String, List<String>> models) {
    }

    /** Export files read and checked whole, ready to {@link #merge(MatrixStore, Checked)} into a store. */
    public static final class Checked {
        private final List<Parsed> docs;

        private Checked(List<Parsed> docs) {
            this.docs = docs;
        }
    }

    /**
     * Reads and checks export files without touching any store: every file is read strictly (a duplicate key or
     * trailing bytes refuse it) and every record held to {@link ExportSchema}'s types and ranges, so a malformed file
     * (a missing array, a record without its run, a status Accelbridge does not write, a batch size of 1e23, the
     * same case twice in one run, a 10 MB reason) is refused naming the file and the record, before any store is
     * opened or written.
     *
     * @throws StoreException naming the file, the record and the field
     */
    public static Checked check(Path... files) {
        List<Parsed> docs = new ArrayList<>();
        for (Path f : files) {
            docs.add(parse(f, read(f)));
        }
        return new Checked(docs);
    }

    /**
     * Imports export files into {@code store}: {@link #check} first, so a refused file imports nothing. Idempotent
     * per result: a result the store already has (same run, same case) is skipped, a missing one is added even when
     * its run is present.
     */
    public static MergeSummary merge(MatrixStore store, Path... files) {
        return merge(store, check(files));
    }

    /** Imports files {@link #check} accepted. */
    public static MergeSummary merge(MatrixStore store, Checked checked) {
        List<Parsed> docs = checked.docs;
        int imported = 0;
        int skipped = 0;
        int results = 0;
        int resultsSkipped = 0;
        int hosts = 0;
        for (Parsed d : docs) {
            for (Object[] h : d.hosts()) {
                store.importHost((String) h[0], (String) h[1], (String) h[2], (Instant) h[3], (Instant) h[4]);
                hosts++;
            }
            d.models().forEach((sha, ops) -> store.recordModel(sha, null, 0, ops));
            for (RunInfo info : d.runs()) {
                boolean existed = store.run(info.runId()).isPresent();
                List<RunResult> rs = d.results().getOrDefault(info.runId(), List.of());
                int added = store.importRun(info, d.probes().getOrDefault(info.runId(), List.of()), rs);
                if (existed) {
                    skipped++;
                } else {
                    imported++;
                }
                results += added;
                resultsSkipped += rs.size() - added;
            }
        }
        return new MergeSummary(imported, skipped, results, resultsSkipped, hosts);
    }

    private static Parsed parse(Path f, ObjectNode doc) {
        for (String arr : List.of("hosts", "runs", "probes", "results", "models")) {
            JsonNode a = doc.get(arr);
            boolean optional = arr.equals("models"); // an older file has none (UPGRADES adds it)
            if (a == null && !optional || a != null && !a.isArray() && !(optional && a.isNull())) {
                throw malformed(f, "\"" + arr + "\" is " + (a == null ? "missing" : a.isNull() ? "null" : "not an array"));
            }
        }
        // every record held to its declared types and ranges first (required fields present, statuses and instants
        // well-formed), so nothing below converts a value it should refuse
        check(f, doc, "hosts", ExportSchema.HOST);
        check(f, doc, "runs", ExportSchema.RUN);
        check(f, doc, "probes", ExportSchema.PROBE);
        check(f, doc, "models", ExportSchema.MODEL);
        check(f, doc, "results", ExportSchema.RESULT);
        List<Object[]> hosts = new ArrayList<>();
        int i = 0;
        for (JsonNode h : doc.get("hosts")) {
            String where = "hosts[" + i++ + "]";
            hosts.add(new Object[]{text(h, "fingerprint"), text(h, "hostname"), h.get("detect") == null || h.get("detect").isNull() ? null
                    : h.get("detect").toString(), instant(f, where, h, "firstSeen"), instant(f, where, h, "lastSeen")});
        }
        List<RunInfo> runs = new ArrayList<>();
        i = 0;
        for (JsonNode r : doc.get("runs")) {
            String where = "runs[" + i++ + "]";
            Map<String, String> rv = new LinkedHashMap<>();
            r.path("runtimeVersions").fields().forEachRemaining(e -> rv.put(e.getKey(), e.getValue().asText()));
            runs.add(new RunInfo(text(r, "runId"), instant(f, where, r, "startedAt"), text(r, "finishedAt") == null ? null
                    : instant(f, where, r, "finishedAt"), RunStatus.fromDb(text(r, "status")), text(r, "hostFingerprint"),
                    text(r, "toolkitVersion"), rv, text(r, "plan"), 0));
        }
        Set<String> runIds = new HashSet<>();
        runs.forEach(r -> runIds.add(r.runId()));
        Map<String, List<Availability>> probes = new LinkedHashMap<>();
        i = 0;
        for (JsonNode p : doc.get("probes")) {
            String where = "probes[" + i++ + "]";
            String run = text(p, "runId");
            if (!runIds.contains(run)) {
                throw malformed(f, where + " belongs to run " + run + ", which the file's runs do not have");
            }
            try {
                probes.computeIfAbsent(run, k -> new ArrayList<>()).add(new Availability(
                        BackendId.parse(String.valueOf(text(p, "backend"))), p.path("available").asBoolean(), text(p, "evidence"),
                        text(p, "where")));
            } catch (RuntimeException e) {
                throw malformed(f, where + " has backend '" + text(p, "backend") + "', which Accelbridge does not know");
            }
        }
        Map<String, List<RunResult>> results = new LinkedHashMap<>();
        Map<String, Set<dev.accelbridge.core.CaseId>> cases = new LinkedHashMap<>();
        i = 0;
        for (JsonNode r : doc.get("results")) {
            String where = "results[" + i++ + "]";
            RunResult rr;
            try {
                rr = ResultJson.result(r);
            } catch (IllegalArgumentException e) {
                throw malformed(f, where + (r.hasNonNull("runId") ? " (run " + r.get("runId").asText() + ")" : "") + " "
                        + e.getMessage());
            }
            if (!runIds.contains(rr.runId())) {
                throw malformed(f, where + " belongs to run " + rr.runId() + ", which the file's runs do not have");
            }
            if (!cases.computeIfAbsent(rr.runId(), k -> new HashSet<>()).add(rr.id())) {
                throw malformed(f, where + " (run " + rr.runId() + ") repeats case " + rr.id().key()
                        + ", which an earlier record of the same run already holds");
            }
            results.computeIfAbsent(rr.runId(), k -> new ArrayList<>()).add(rr);
        }
        Map<String, List<String>> models = new LinkedHashMap<>();
        for (JsonNode m : doc.path("models")) {
            if (m.hasNonNull("sha256")) {
                models.put(m.get("sha256").asText(), ResultJson.strings(m.get("ops")));
            }
        }
        return new Parsed(f, hosts, runs, probes, results, models);
    }

    private static void check(Path f, ObjectNode doc, String array, ExportSchema.Kind kind) {
        int i = 0;
        for (JsonNode r : doc.path(array)) {
            String p = ExportSchema.problem(r, kind);
            if (p != null) {
                String run = r.path("runId").isTextual() ? " (run " + r.get("runId").textValue() + ")" : "";
                throw malformed(f, array + "[" + i + "]" + run + " " + p);
            }
            i++;
        }
    }

    private static Instant instant(Path f, String where, JsonNode n, String field) {
        String v = text(n, field);
        try {
            return Instant.parse(String.valueOf(v));
        } catch (java.time.format.DateTimeParseException e) {
            throw malformed(f, where + " has " + field + " '" + v + "', not an ISO-8601 instant");
        }
    }

    private static StoreException malformed(Path f, String what) {
        return new StoreException("The merge file " + f + " is malformed: " + what + "; nothing of it was imported",
                "give the complete file written by 'accelbridge export' (re-export it if it was cut or edited)");
    }

    /** Reads, checks and upgrades one export file. */
    static ObjectNode read(Path f) {
        JsonNode n;
        try (var in = Files.newInputStream(f)) {
            n = STRICT.readTree(in);
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw new StoreException("The merge file " + f + " is not valid JSON" + (at == null ? "" : " at line " + at.getLineNr()
                    + ", column " + at.getColumnNr()) + ": " + e.getOriginalMessage() + "; nothing of it was imported",
                    "give files written by 'accelbridge export'");
        } catch (IOException e) {
            throw new StoreException("Cannot read the merge file " + f + ": " + e.getMessage(), "check the path", e);
        }
        if (!(n instanceof ObjectNode doc) || !FORMAT.equals(n.path("format").asText(null))) {
            throw new StoreException("The merge file " + f + " is not an Accelbridge matrix export (\"format\" is not \""
                    + FORMAT + "\")", "give files written by 'accelbridge export'");
        }
        JsonNode v = doc.get("schemaVersion");
        if (v == null || !v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 1) {
            throw new StoreException("The merge file " + f + " has no valid schemaVersion", "re-export it with 'accelbridge export'");
        }
        return ExportUpgrades.upgrade(doc, f);
    }

    private static String text(JsonNode n, String f) {
        JsonNode v = n.get(f);
        return v == null || v.isNull() ? null : v.asText();
    }
}
