package dev.accelbridge.reports.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.StoreException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Moves matrix data between hosts as one JSON document, so many machines fill ONE matrix (the host is a dimension
 * of it):
 * <pre>
 * { "format": "accelbridge-matrix", "schemaVersion": 1, "exportedAt": "...",
 *   "hosts":  [ {fingerprint, hostname, detect, firstSeen, lastSeen} ],
 *   "runs":   [ {runId, startedAt, finishedAt, status, hostFingerprint, toolkitVersion, runtimeVersions, plan} ],
 *   "probes": [ {runId, backend, where, available, evidence} ],
 *   "results":[ RunResult as JSON, with timings.samplesMs holding every sample ] }
 * </pre>
 * {@link #merge} is idempotent on run id (a run already present is skipped). A file of an older schema version
 * is upgraded step by step ({@link #UPGRADES}); a newer one, or anything that is not this format, is refused
 * with the reason and nothing of it is imported.
 */
public final class StoreExport {
    /** The {@code format} value of an export. */
    public static final String FORMAT = "accelbridge-matrix";

    /**
     * Upgrade steps of the export document: the entry for {@code n} turns a version-{@code n} document into a
     * version-{@code n+1} one. Empty while only version 1 exists; a schema change adds its step here.
     */
    static final Map<Integer, UnaryOperator<ObjectNode>> UPGRADES = new LinkedHashMap<>();

    private StoreExport() {
    }

    /** What a merge did. */
    public record MergeSummary(int runsImported, int runsSkipped, int results, int hosts) {
    }

    /** The whole store as an export document. */
    public static ObjectNode export(MatrixStore store) {
        ObjectNode doc = ResultJson.MAPPER.createObjectNode();
        doc.put("format", FORMAT);
        doc.put("schemaVersion", MatrixStore.currentSchemaVersion());
        doc.put("exportedAt", Instant.now().toString());
        ArrayNode hosts = doc.putArray("hosts");
        for (Map<String, Object> h : store.rawRows("SELECT fingerprint, hostname, detect, first_seen, last_seen FROM hosts ORDER BY first_seen")) {
            ObjectNode o = hosts.addObject();
            o.put("fingerprint", (String) h.get("fingerprint"));
            o.put("hostname", (String) h.get("hostname"));
            o.set("detect", h.get("detect") == null ? null : ResultJson.parse((String) h.get("detect")));
            o.put("firstSeen", (String) h.get("first_seen"));
            o.put("lastSeen", (String) h.get("last_seen"));
        }
        ArrayNode runs = doc.putArray("runs");
        for (RunInfo r : store.runs()) {
            ObjectNode o = runs.addObject();
            o.put("runId", r.runId());
            o.put("startedAt", r.startedAt().toString());
            o.put("finishedAt", r.finishedAt() == null ? null : r.finishedAt().toString());
            o.put("status", r.status().db());
            o.put("hostFingerprint", r.hostFingerprint());
            o.put("toolkitVersion", r.toolkitVersion());
            ObjectNode rv = o.putObject("runtimeVersions");
            r.runtimeVersions().forEach(rv::put);
            o.put("plan", r.planJson());
        }
        ArrayNode probes = doc.putArray("probes");
        for (RunInfo r : store.runs()) {
            for (Availability a : store.probes(r.runId())) {
                ObjectNode o = probes.addObject();
                o.put("runId", r.runId());
                o.put("backend", a.backend().id());
                o.put("where", a.where());
                o.put("available", a.available());
                o.put("evidence", a.evidence());
            }
        }
        ArrayNode results = doc.putArray("results");
        for (RunResult r : store.allResults()) {
            results.add(ResultJson.result(r, true));
        }
        return doc;
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
     * Imports export files into {@code store}. Every file is read and checked before anything is written, so a bad
     * file in the list imports nothing.
     */
    public static MergeSummary merge(MatrixStore store, Path... files) {
        List<ObjectNode> docs = new ArrayList<>();
        for (Path f : files) {
            docs.add(read(f));
        }
        int imported = 0;
        int skipped = 0;
        int results = 0;
        int hosts = 0;
        for (ObjectNode doc : docs) {
            for (JsonNode h : doc.path("hosts")) {
                store.importHost(h.path("fingerprint").asText(), text(h, "hostname"),
                        h.get("detect") == null || h.get("detect").isNull() ? null : h.get("detect").toString(),
                        Instant.parse(h.path("firstSeen").asText()), Instant.parse(h.path("lastSeen").asText()));
                hosts++;
            }
            Map<String, List<Availability>> probes = new LinkedHashMap<>();
            for (JsonNode p : doc.path("probes")) {
                probes.computeIfAbsent(p.path("runId").asText(), k -> new ArrayList<>()).add(new Availability(
                        BackendId.parse(p.path("backend").asText()), p.path("available").asBoolean(), text(p, "evidence"), text(p, "where")));
            }
            Map<String, List<RunResult>> byRun = new LinkedHashMap<>();
            for (JsonNode r : doc.path("results")) {
                RunResult rr = ResultJson.result(r);
                byRun.computeIfAbsent(rr.runId(), k -> new ArrayList<>()).add(rr);
            }
            for (JsonNode r : doc.path("runs")) {
                Map<String, String> rv = new LinkedHashMap<>();
                r.path("runtimeVersions").fields().forEachRemaining(e -> rv.put(e.getKey(), e.getValue().asText()));
                String fin = text(r, "finishedAt");
                RunInfo info = new RunInfo(r.path("runId").asText(), Instant.parse(r.path("startedAt").asText()),
                        fin == null ? null : Instant.parse(fin), RunStatus.fromDb(r.path("status").asText()),
                        text(r, "hostFingerprint"), text(r, "toolkitVersion"), rv, text(r, "plan"), 0);
                List<RunResult> rs = byRun.getOrDefault(info.runId(), List.of());
                if (store.importRun(info, probes.getOrDefault(info.runId(), List.of()), rs)) {
                    imported++;
                    results += rs.size();
                } else {
                    skipped++;
                }
            }
        }
        return new MergeSummary(imported, skipped, results, hosts);
    }

    /** Reads, checks and upgrades one export file. */
    static ObjectNode read(Path f) {
        JsonNode n;
        try {
            n = ResultJson.MAPPER.readTree(f.toFile());
        } catch (JsonProcessingException e) {
            throw new StoreException("The merge file " + f + " is not valid JSON: " + e.getOriginalMessage(),
                    "give files written by 'accelbridge export'");
        } catch (IOException e) {
            throw new StoreException("Cannot read the merge file " + f + ": " + e.getMessage(), "check the path", e);
        }
        if (!(n instanceof ObjectNode doc) || !FORMAT.equals(n.path("format").asText(null))) {
            throw new StoreException("The merge file " + f + " is not an Accelbridge matrix export (\"format\" is not \""
                    + FORMAT + "\")", "give files written by 'accelbridge export'");
        }
        JsonNode v = doc.get("schemaVersion");
        if (v == null || !v.canConvertToInt() || v.asInt() < 1) {
            throw new StoreException("The merge file " + f + " has no valid schemaVersion", "re-export it with 'accelbridge export'");
        }
        return upgrade(doc, f);
    }

    /** Applies the upgrade steps from the document's version to the current one. */
    static ObjectNode upgrade(ObjectNode doc, Path f) {
        int v = doc.get("schemaVersion").asInt();
        int current = MatrixStore.currentSchemaVersion();
        if (v > current) {
            throw new StoreException("The merge file " + f + " has schema version " + v + ", newer than this Accelbridge's "
                    + current, "upgrade Accelbridge on this machine, or export with the older version");
        }
        ObjectNode d = doc;
        while (v < current) {
            UnaryOperator<ObjectNode> step = UPGRADES.get(v);
            if (step == null) {
                throw new StoreException("The merge file " + f + " has schema version " + v + ", which this Accelbridge cannot upgrade",
                        "re-export it with a newer Accelbridge");
            }
            d = step.apply(d);
            v++;
            d.put("schemaVersion", v);
        }
        return d;
    }

    private static String text(JsonNode n, String f) {
        JsonNode v = n.get(f);
        return v == null || v.isNull() ? null : v.asText();
    }
}
