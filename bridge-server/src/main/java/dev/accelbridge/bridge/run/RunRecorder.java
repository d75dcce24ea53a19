package dev.accelbridge.bridge.run;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.StoreException;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.reports.store.RunInfo;
import dev.accelbridge.reports.store.RunStatus;
import dev.accelbridge.reports.store.StoreExport;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a run writes to the store as it goes (hosts, probes, models, results), and what it keeps when the store fails:
 * from the first failure on, results stay in memory and go to a spill file ({@code unsaved-RUN_ID.json}, an export that
 * {@code accelbridge merge} takes into a healthy store), so nothing measured is lost.
 */
final class RunRecorder {
    private final MatrixStore store;
    private final HostInfo host;
    private final Map<String, String> runtimeVersions;
    private final RunListener listener;
    private final Path spillDir;
    private final List<Availability> probesSeen = new ArrayList<>();
    /** Results the store could not take, kept for a spill file (null while the store works). */
    private List<RunResult> spilled;
    private StoreException storeFailure;
    private final RunAccount account;

    RunRecorder(MatrixStore store, HostInfo host, Map<String, String> runtimeVersions, RunListener listener, Path spillDir,
                RunAccount account) {
        this.account = account;
        this.store = store;
        this.host = host;
        this.runtimeVersions = runtimeVersions;
        this.listener = listener;
        this.spillDir = spillDir;
    }

    synchronized void recordModel(ModelSpec spec) {
        whileStoreWorks(() -> store.recordModel(spec.sha256(), spec.name(), spec.opset(), spec.ops()));
    }

    synchronized void recordHost(HostInfo h) {
        whileStoreWorks(() -> store.recordHost(h));
    }

    synchronized void recordProbe(String runId, Availability a) {
        probesSeen.add(a);
        whileStoreWorks(() -> store.recordProbe(runId, a));
    }

    /** Writes one result at once, or keeps it for the spill file once the store has failed. */
    synchronized void write(RunResult r) {
        whileStoreWorks(() -> store.write(r));
        if (spilled != null) {
            spilled.add(r);
        }
    }

    /** Does {@code write} unless the store has failed; its first failure starts the spill. */
    private void whileStoreWorks(Runnable write) {
        if (spilled == null) {
            try {
                account.time(RunAccount.Part.STORE, write);
            } catch (StoreException e) {
                storeFailed(e);
            }
        }
    }

    /**
     * Marks the run finished.
     *
     * @throws StoreException when the store failed during the run: naming the spill file that holds what it did not take
     */
    synchronized void finish(String runId, Instant begun, String planJson) {
        if (spilled == null) {
            try {
                store.finishRun(runId);
            } catch (StoreException e) {
                spilled = new ArrayList<>();
                storeFailure = e;
            }
        }
        if (spilled != null) {
            throw spill(runId, begun, planJson);
        }
    }

    private void storeFailed(StoreException e) {
        spilled = new ArrayList<>();
        storeFailure = e;
        listener.info("the matrix store failed (" + e.getMessage() + "); the run goes on and keeps its results for a file "
                + "to merge later");
    }

    /** Writes the results the store did not take to an export file and says how to merge it. */
    private StoreException spill(String runId, Instant begun, String planJson) {
        Path f = spillDir.resolve("unsaved-" + runId + ".json").toAbsolutePath();
        RunInfo info = new RunInfo(runId, begun, Instant.now(), RunStatus.FINISHED, host.fingerprint(),
                runtimeVersions.getOrDefault("accelbridge", "unknown"), runtimeVersions, planJson, spilled.size());
        try {
            java.nio.file.Files.createDirectories(f.getParent());
            ResultJson.MAPPER.writeValue(f.toFile(), StoreExport.document(host, info, probesSeen, spilled));
        } catch (java.io.IOException io) {
            return new StoreException(storeFailure.getMessage() + "; and " + spilled.size() + " results could not be written to "
                    + f + " either: " + io.getMessage(), storeFailure.fix(), storeFailure);
        }
        return new StoreException(storeFailure.getMessage() + " (during run " + runId + ")",
                (storeFailure.fix() == null ? "" : storeFailure.fix() + "; ") + spilled.size() + " results of this run are kept in "
                        + f + ": merge them into a healthy store with 'accelbridge merge " + f + " --db NEW.duckdb'",
                storeFailure);
    }
}
