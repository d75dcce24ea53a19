package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.PublicApi;

import java.util.List;
import java.util.Map;

/**
 * The export document ({@link StoreExport}) as records serialised whole by {@link ResultJson#MAPPER}: its envelope,
 * hosts, runs, probes and models; each result is the result's own JSON form ({@link ResultJson#result(dev.accelbridge.core.RunResult, boolean)}).
 * {@link ExportSchema} holds what is read back to the same fields.
 *
 * @param format        always {@link StoreExport#FORMAT}
 * @param schemaVersion the store's schema version it was written at
 * @param exportedAt    when it was written
 */
@PublicApi
public record ExportForm(String format, int schemaVersion, String exportedAt, List<HostForm> hosts, List<RunForm> runs,
                         List<ProbeForm> probes, List<ModelForm> models, @FormOf(ResultForm.class) List<JsonNode> results) {

    /**
     * A host the export's results ran on.
     *
     * @param detect what was detected on it (its {@code HostInfo}'s JSON as stored), or null when not recorded
     */
    public record HostForm(String fingerprint, String hostname, JsonNode detect, String firstSeen, String lastSeen) {
    }

    /**
     * A run's bookkeeping row ({@link RunInfo}); its runtime versions written in key order.
     *
     * @param finishedAt null unless the run finished
     * @param status     {@link RunStatus#db()}
     * @param plan       the plan as given when the run began (JSON text)
     */
    public record RunForm(String runId, String startedAt, String finishedAt, String status, String hostFingerprint,
                          String toolkitVersion, Map<String, String> runtimeVersions, String plan) {
        static RunForm of(RunInfo r) {
            return new RunForm(r.runId(), r.startedAt().toString(), r.finishedAt() == null ? null : r.finishedAt().toString(),
                    r.status().db(), r.hostFingerprint(), r.toolkitVersion(), r.runtimeVersions(), r.planJson());
        }
    }

    /** What a run's probe found for one backend, and its evidence. */
    public record ProbeForm(String runId, String backend, String where, boolean available, String evidence) {
        static ProbeForm of(String runId, Availability a) {
            return new ProbeForm(runId, a.backend().id(), a.where(), a.available(), a.evidence());
        }
    }

    /** A model file by its sha256 and the operator types its graph holds. */
    public record ModelForm(String sha256, List<String> ops) {
    }
}
