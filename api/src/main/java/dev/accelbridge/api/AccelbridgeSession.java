package dev.accelbridge.api;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.nativerunner.HostDetector;
import dev.accelbridge.observe.ObservedRuns;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.RunInfo;
import dev.accelbridge.run.BridgeBrowserLanes;
import dev.accelbridge.run.BrowserLanes;
import dev.accelbridge.run.LanePool;
import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.NativeProviders;
import dev.accelbridge.run.PlanJson;
import dev.accelbridge.run.RunAccount;
import dev.accelbridge.run.RunOrchestrator;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.run.RunSummary;
import dev.accelbridge.run.ToolkitVersions;

import java.nio.file.Path;
import java.util.Map;

/**
 * An open Accelbridge: the store, this host's identity, the native providers, and the browsers, which start with the
 * first run that needs them and stay open for the next (a plan launched differently starts fresh ones). Each
 * {@link #run} is one run in the store, as {@code accelbridge run} would make it, so {@code accelbridge report} and the
 * dashboard show it; its plan records the session's origin and the run's label.
 *
 * <p>Thread-safe: runs from several threads are taken one at a time (they would share the browsers and the CPU, and
 * timings taken side by side are not comparable). {@link #close()} waits for a run in progress.
 */
public final class AccelbridgeSession implements AutoCloseable {
    private final SessionOptions options;
    private final MatrixStore store;
    private final HostInfo host;
    private final NativeProviders natives;
    private final LanePool lanes;
    private final Map<String, String> versions = ToolkitVersions.runtime();
    private boolean closed;

    AccelbridgeSession(SessionOptions options) {
        this.options = options;
        this.store = MatrixStore.openForRun(options.store());
        try {
            this.host = HostDetector.detect();
            this.natives = NativeProviders.load();
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        this.lanes = new LanePool(plan -> new BridgeBrowserLanes(plan, versions));
    }

    /** Runs a plan; see {@link #run(RunPlan, String)}. */
    public SessionRun run(RunPlan plan) {
        return run(plan, (String) null);
    }

    /**
     * Runs a plan: the native lane (its CPU run is every case's reference, and the base of {@link CaseResult#timesNative()}),
     * then each browser on this session's browsers. A model's own problem is its cases' FAILED or UNSUPPORTED results, a
     * backend that cannot run here its UNAVAILABLE ones with the probe's evidence; the run goes on with every other case.
     *
     * @param label what this run is, recorded with its plan (a test's name); may be null
     * @throws AccelbridgeException for a plan whose models cannot be found (a missing path, an input no model has), and
     *                              {@link dev.accelbridge.reports.StoreException} when the store fails mid-run (the results
     *                              are then kept in a file under the out folder that the message names)
     */
    public SessionRun run(RunPlan plan, String label) {
        return run(RunRequest.builder().setPlan(plan).optLabel(label).build());
    }

    /**
     * Runs a request: the one way every starter (the CLI, the dashboard's run, {@code serve}, bisection, the JUnit 5
     * extension) starts a run. The run records its plan in the store's ledger ({@link PlanJson}) with this session's origin
     * and the request's label, so {@code run --resume} can read it back. Runs on the session's browsers are taken one at
     * a time; a request with lanes of its own (a page that joined {@code serve}) runs beside them.
     *
     * @throws AccelbridgeException as {@link #run(RunPlan, String)}
     */
    public SessionRun run(RunRequest request) {
        if (request.lanes() != null) {
            checkOpen();
            return execute(request, request.lanes());
        }
        synchronized (this) {
            checkOpen();
            return execute(request, () -> lanes.borrow(request.plan()));
        }
    }

    /**
     * Finishes an interrupted run with the plan it stored.
     *
     * @throws AccelbridgeException when the store has no such run, or its plan cannot be read back
     */
    public SessionRun resume(String runId) {
        return run(RunRequest.builder().setPlan(storedPlan(runId)).optResumeOf(runId).build());
    }

    /**
     * The plan run {@code runId} stored.
     *
     * @throws AccelbridgeException when the store has no such run or the run stored no plan that can be read back
     */
    public RunPlan storedPlan(String runId) {
        RunInfo run = store.run(runId).orElseThrow(() -> new AccelbridgeException("Run " + runId + " is not in " + store.path(),
                "see the runs with 'accelbridge report' or start a new run"));
        return PlanJson.stored(run.planJson()).orElseThrow(() -> new AccelbridgeException("Run " + runId
                + " stored no plan this version can read (origin: " + run.origin() + ")", "start a new run"));
    }

    /**
     * Observes a user's app ({@link ObserveOptions}): opens its page with the observer installed before any of its
     * scripts, does the steps, waits until the app is done, and judges every onnxruntime-web session it made against
     * native CPU on the inputs the app fed. One run in the store, a row per session (or one saying there was none), in
     * the scenario {@code observed in an app}; the page is the user's, so what it says is bounded and it cannot hold the
     * run past the timeout.
     */
    public ObservedRun observe(ObserveOptions o) {
        synchronized (this) {
            checkOpen();
            var plan = com.fasterxml.jackson.databind.json.JsonMapper.builder().build().createObjectNode();
            plan.put("observe", o.url().toString()).put("origin", options.origin());
            String runId = store.beginRun(host, versions, plan.toString());
            try {
                // a replay continues the observation's run, which is finished first: a run is continued once it is not running
                return ObservedRuns.observe(o, runId, host, natives, store, request -> {
                    store.finishRun(runId);
                    return run(request);
                });
            } finally {
                store.finishRun(runId); // a browser that cannot start ends the run too, with what it stored
            }
        }
    }

    private SessionRun execute(RunRequest request, java.util.function.Supplier<BrowserLanes> browserLanes) {
        RunPlan plan = request.plan();
        RunAccount account = request.account() != null ? request.account() : RunAccount.startingNow();
        ModelSet models = request.models() != null ? request.models() : account.time(RunAccount.Part.MODELS, () -> ModelSet.load(plan));
        RunOrchestrator orchestrator = new RunOrchestrator(store, host, natives, browserLanes, versions,
                request.listener() != null ? request.listener() : options.listener()).spillTo(options.outDir()).withAccount(account);
        RunSummary s = request.continueOf() != null ? orchestrator.continuing().run(plan, models, null, request.continueOf())
                : orchestrator.run(plan, models, PlanJson.record(plan, options.origin(), request.label()), request.resumeOf());
        if (request.account() == null) {
            // the request's own account is the starter's to finish (after its reports); this one ends with the run
            account.finish();
            store.recordAccount(s.runId(), account.toJson().toString());
        }
        return SessionRun.of(s, store.path(), account);
    }

    private synchronized void checkOpen() {
        if (closed) {
            throw new AccelbridgeException("This Accelbridge session is closed", "create a new one with Accelbridge.create");
        }
    }

    /** The store this session writes and reads (a report or a dashboard over the same file uses it). */
    public MatrixStore store() {
        return store;
    }

    /** The store this session writes. */
    public Path storePath() {
        return store.path();
    }

    /** This host, as its runs record it. */
    public HostInfo host() {
        return host;
    }

    /** Closes the browsers, the bridge, the native providers and the store. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            lanes.close();
        } finally {
            try {
                natives.close();
            } finally {
                store.close();
            }
        }
    }
}
