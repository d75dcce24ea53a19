package dev.accelbridge.run;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.StoreException;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ModelEntry;
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
    /** Each probe once: the native lane's are reported when references are made and again when its cases run. */
    private final java.util.Set<Availability> probesSeen = new java.util.LinkedHashSet<>();
    /** Results the store could not take, kept for a spill file (null while the store works). */
    private List<RunResult> spilled;
    private StoreException storeFailure;
    private final RunAccount account;
    /** Results may wait this long for others to share their commit. */
    static final long GROUP_COMMIT_MS = 2000;
    private final List<RunResult> pending = new ArrayList<>();
    private long lastCommitNanos = System.nanoTime() - GROUP_COMMIT_MS * 1_000_000L;
    private Thread flusher;

    RunRecorder(MatrixStore store, HostInfo host, Map<String, String> runtimeVersions, RunListener listener, Path spillDir,
                RunAccount account) {
        this.account = account;
        this.store = store;
        this.host = host;
        this.runtimeVersions = runtimeVersions;
        this.listener = listener;
        this.spillDir = spillDir;
    }

    /** Records the run's models, in one transaction. */
    synchronized void recordModels(List<ModelSpec> specs) {
        whileStoreWorks(() -> store.recordModels(specs.stream()
                .map(s -> new ModelEntry(s.sha256(), s.name(), s.opset(), s.ops(), s.cost())).toList()));
    }

    synchronized void recordHost(HostInfo h) {
        whileStoreWorks(() -> store.recordHost(h));
    }

    synchronized void recordProbe(String runId, Availability a) {
        if (!probesSeen.add(a)) {
            return;
        }
        whileStoreWorks(() -> store.recordProbe(runId, a));
    }

    /**
     * Writes one result: at once when the last write is older than {@link #GROUP_COMMIT_MS}, else with the results that
     * follow it within that time in one transaction (a DuckDB commit costs ~40 ms here during a run, so a sweep of
     * hundreds of 10 ms cases spent most of its wall time committing; a sweep of 358 one-run cases spent 3.3 s in the
     * store with a 0.5 s window, 2.0 s with this one); {@link #flushPending} writes a lone waiting result within
     * that time too. Once the store has failed, results are kept for the spill file. The first result of a window is
     * written by the case's own thread before the case is reported, so a run killed then keeps it; a writer thread the
     * cases never waited for lost that and measured no faster on two cores (the writes take the CPU the browser needs).
     */
    synchronized void write(RunResult r) {
        if (spilled != null) {
            spilled.add(r);
            return;
        }
        pending.add(r);
        if (System.nanoTime() - lastCommitNanos >= GROUP_COMMIT_MS * 1_000_000L) {
            flushPending();
        } else if (flusher == null) {
            startFlusher();
        }
    }

    /**
     * Writes the results waiting for their group's commit (the flusher calls it; {@link #finish} does too); false when
     * none was waiting.
     */
    synchronized boolean flushPending() {
        if (pending.isEmpty()) {
            return false;
        }
        List<RunResult> batch = new ArrayList<>(pending);
        pending.clear();
        lastCommitNanos = System.nanoTime();
        whileStoreWorks(() -> store.writeAll(batch));
        if (spilled != null) {
            spilled.addAll(batch);
        }
        return true;
    }

    /**
     * Starts the thread that commits a waiting result within {@link #GROUP_COMMIT_MS}; it ends once nothing waits (a
     * later waiting result starts another), so no thread outlives the results it is for.
     */
    private void startFlusher() {
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(GROUP_COMMIT_MS);
                } catch (InterruptedException e) {
                    return;
                }
                synchronized (this) { // the decision to end and a write's check for a flusher, under one lock
                    if (!flushPending()) {
                        flusher = null;
                        return;
                    }
                }
            }
        }, "accelbridge-store-flusher");
        t.setDaemon(true);
        t.start();
        flusher = t;
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
        if (flusher != null) {
            flusher.interrupt();
        }
        flushPending();
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
            ResultJson.MAPPER.writeValue(f.toFile(), StoreExport.document(host, info, List.copyOf(probesSeen), spilled));
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
