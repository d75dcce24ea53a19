package dev.accelbridge.reports.store;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.StoreException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

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

    /** Export files read and checked whole, ready to {@link #merge(MatrixStore, Checked)} into a store. */
    public static final class Checked {
        private final List<ExportFile.Parsed> docs;

        private Checked(List<ExportFile.Parsed> docs) {
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
        List<ExportFile.Parsed> docs = new ArrayList<>();
        for (Path f : files) {
            docs.add(ExportFile.parse(f, ExportFile.read(f)));
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
        List<ExportFile.Parsed> docs = checked.docs;
        int imported = 0;
        int skipped = 0;
        int results = 0;
        int resultsSkipped = 0;
        int hosts = 0;
        for (ExportFile.Parsed d : docs) {
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
}
