package dev.accelbridge.reports.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.StoreException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One export file read for a merge: strictly parsed, upgraded to this schema ({@link ExportUpgrades}), and every record
 * held to {@link ExportSchema} and turned into typed values, or refused naming the file, the record and the field. What
 * {@link StoreExport#check} does per file, before any store is touched.
 */
final class ExportFile {
    /**
     * How an export file is read: a key twice in one object (last would win: {@code "within": false} after
     * {@code true}) and anything after the document are refused, not passed over.
     */
    private static final com.fasterxml.jackson.databind.ObjectReader STRICT = ResultJson.MAPPER.reader()
            .with(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // 1e23 or 1e400 is kept as written (not rounded, not Infinity), so the check can name it and refuse it
            .with(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private ExportFile() {
    }

    /** One export file, read and checked whole into typed values. */
    record Parsed(Path file, List<Object[]> hosts, List<RunInfo> runs, Map<String, List<Availability>> probes,
                          Map<String, List<RunResult>> results, Map<String, List<String>> models) {
    }

    /**
     * The file's arrays, each refused on its first problem in the order they are read: the arrays' presence, every
     * record against its schema, then the hosts, runs, probes and results converted (probes and results after the runs,
     * since each must name one of the file's runs).
     */
    static Parsed parse(Path f, ObjectNode doc) {
        requireArrays(f, doc);
        // every record held to its declared types and ranges first (required fields present, statuses and instants
        // well-formed), so nothing below converts a value it should refuse
        check(f, doc, "hosts", ExportSchema.HOST);
        check(f, doc, "runs", ExportSchema.RUN);
        check(f, doc, "probes", ExportSchema.PROBE);
        check(f, doc, "models", ExportSchema.MODEL);
        check(f, doc, "results", ExportSchema.RESULT);
        List<Object[]> hosts = hosts(f, doc);
        List<RunInfo> runs = runs(f, doc);
        Set<String> runIds = new HashSet<>();
        runs.forEach(r -> runIds.add(r.runId()));
        Map<String, List<Availability>> probes = probes(f, doc, runIds);
        Map<String, List<RunResult>> results = results(f, doc, runIds);
        Map<String, List<String>> models = new LinkedHashMap<>();
        for (JsonNode m : doc.path("models")) {
            if (m.hasNonNull("sha256")) {
                models.put(m.get("sha256").asText(), ResultJson.strings(m.get("ops")));
            }
        }
        return new Parsed(f, hosts, runs, probes, results, models);
    }

    /** Each of the five arrays present and an array; "models" alone may be missing or null. */
    private static void requireArrays(Path f, ObjectNode doc) {
        for (String arr : List.of("hosts", "runs", "probes", "results", "models")) {
            JsonNode a = doc.get(arr);
            boolean optional = arr.equals("models"); // an older file has none (UPGRADES adds it)
            if (a == null && !optional || a != null && !a.isArray() && !(optional && a.isNull())) {
                throw malformed(f, "\"" + arr + "\" is " + (a == null ? "missing" : a.isNull() ? "null" : "not an array"));
            }
        }
    }

    /** The hosts as the store's row values: fingerprint, hostname, detect (as JSON text), first and last seen. */
    private static List<Object[]> hosts(Path f, ObjectNode doc) {
        List<Object[]> hosts = new ArrayList<>();
        int i = 0;
        for (JsonNode h : doc.get("hosts")) {
            String where = "hosts[" + i++ + "]";
            hosts.add(new Object[]{text(h, "fingerprint"), text(h, "hostname"), h.get("detect") == null || h.get("detect").isNull() ? null
                    : h.get("detect").toString(), instant(f, where, h, "firstSeen"), instant(f, where, h, "lastSeen")});
        }
        return hosts;
    }

    private static List<RunInfo> runs(Path f, ObjectNode doc) {
        List<RunInfo> runs = new ArrayList<>();
        int i = 0;
        for (JsonNode r : doc.get("runs")) {
            String where = "runs[" + i++ + "]";
            Map<String, String> rv = new LinkedHashMap<>();
            r.path("runtimeVersions").fields().forEachRemaining(e -> rv.put(e.getKey(), e.getValue().asText()));
            runs.add(new RunInfo(text(r, "runId"), instant(f, where, r, "startedAt"), text(r, "finishedAt") == null ? null
                    : instant(f, where, r, "finishedAt"), RunStatus.fromDb(text(r, "status")), text(r, "hostFingerprint"),
                    text(r, "toolkitVersion"), rv, text(r, "plan"), 0));
        }
        return runs;
    }

    /** The probes by run: each of a run the file has, naming a backend Accelbridge knows. */
    private static Map<String, List<Availability>> probes(Path f, ObjectNode doc, Set<String> runIds) {
        Map<String, List<Availability>> probes = new LinkedHashMap<>();
        int i = 0;
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
        return probes;
    }

    /**
     * The results by run: each read as {@link ResultJson} reads it, of a run the file has, and no case twice in one run.
     */
    private static Map<String, List<RunResult>> results(Path f, ObjectNode doc, Set<String> runIds) {
        Map<String, List<RunResult>> results = new LinkedHashMap<>();
        Map<String, Set<CaseId>> cases = new LinkedHashMap<>();
        int i = 0;
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
        return results;
    }

    private static void check(Path f, ObjectNode doc, String array, ExportRules.Kind kind) {
        int i = 0;
        for (JsonNode r : doc.path(array)) {
            String p = ExportRules.problem(r, kind);
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
        if (!(n instanceof ObjectNode doc) || !StoreExport.FORMAT.equals(n.path("format").asText(null))) {
            throw new StoreException("The merge file " + f + " is not an Accelbridge matrix export (\"format\" is not \""
                    + StoreExport.FORMAT + "\")", "give files written by 'accelbridge export'");
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
