package dev.accelbridge.reports.store;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.JsonNode;
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
        return ResultJson.MAPPER.valueToTree(form(store));
    }

    /** The whole store as the export's records. */
    public static ExportForm form(MatrixStore store) {
        List<ExportForm.HostForm> hosts = store.hostRows().stream().map(h -> new ExportForm.HostForm((String) h[0], (String) h[1],
                h[2] == null ? null : ResultJson.parse((String) h[2]), h[3].toString(), h[4].toString())).toList();
        List<ExportForm.RunForm> runs = new ArrayList<>();
        List<ExportForm.ProbeForm> probes = new ArrayList<>();
        for (RunInfo r : store.runs()) {
            runs.add(ExportForm.RunForm.of(r));
            store.probes(r.runId()).forEach(a -> probes.add(ExportForm.ProbeForm.of(r.runId(), a)));
        }
        List<ExportForm.ModelForm> models = store.modelOps().entrySet().stream()
                .map(e -> new ExportForm.ModelForm(e.getKey(), e.getValue())).toList();
        List<JsonNode> results = store.allResults().stream().<JsonNode>map(r -> ResultJson.result(r, true)).toList();
        return new ExportForm(FORMAT, MatrixStore.currentSchemaVersion(), Instant.now().toString(), hosts, runs, probes, models, results);
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
        ExportForm.HostForm h = new ExportForm.HostForm(host.fingerprint(), host.hostname(), ResultJson.host(host),
                run.startedAt().toString(), Instant.now().toString());
        return ResultJson.MAPPER.valueToTree(new ExportForm(FORMAT, MatrixStore.currentSchemaVersion(), Instant.now().toString(),
                List.of(h), List.of(ExportForm.RunForm.of(run)), probes.stream().map(a -> ExportForm.ProbeForm.of(run.runId(), a)).toList(),
                List.of(), results.stream().<JsonNode>map(r -> ResultJson.result(r, true)).toList()));
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
            store.recordModels(d.models().entrySet().stream().map(e -> new ModelEntry(e.getKey(), null, 0, e.getValue())).toList());
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
