package dev.accelbridge.run;

import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.suites.ModelLoad;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.reports.store.MatrixStore;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs a plan: the native lanes first (this process's CPU run is every case's reference), then each browser's cases on its
 * lanes. Every lane, native or browser, comes from a {@link LaneSource} and is run by one scheduler ({@code --parallel}
 * lanes at once where the source allows, FAILED cases retried). Every case is written to the store as soon as it ends, so
 * an interrupted run keeps what finished and {@code --resume} does the rest.
 *
 * <p>Immutable: a plan goes in, a {@link RunSummary} comes out; the {@code with…} methods return a changed copy, and
 * one run's state lives in that run alone, so an orchestrator may run several plans, one after another or at once.
 */
public final class RunOrchestrator {
    private final MatrixStore store;
    private final HostInfo host;
    private final NativeProviders natives;
    private final Supplier<BrowserLanes> browserLanes;
    private final RunListener listener;
    private final Map<String, String> runtimeVersions;
    private final Path spillDir;
    private final RunAccount account;
    private final boolean reopen;

    /**
     * @param store           where results go
     * @param host            this host
     * @param natives         the native providers
     * @param browserLanes    makes the browser lanes (called only when the plan has browser backends)
     * @param runtimeVersions toolkit and runtime versions recorded with the run
     * @param listener        progress
     */
    public RunOrchestrator(MatrixStore store, HostInfo host, NativeProviders natives, Supplier<BrowserLanes> browserLanes,
                           Map<String, String> runtimeVersions, RunListener listener) {
        this(store, host, natives, browserLanes, Map.copyOf(runtimeVersions), listener, Path.of("."), null, false);
    }

    private RunOrchestrator(MatrixStore store, HostInfo host, NativeProviders natives, Supplier<BrowserLanes> browserLanes,
                            Map<String, String> runtimeVersions, RunListener listener, Path spillDir, RunAccount account,
                            boolean reopen) {
        this.store = store;
        this.host = host;
        this.natives = natives;
        this.browserLanes = browserLanes;
        this.runtimeVersions = runtimeVersions;
        this.listener = listener;
        this.spillDir = spillDir;
        this.account = account;
        this.reopen = reopen;
    }

    /** Adds to a run that may have finished (a version bisection's later steps) instead of only resuming an interrupted one. */
    public RunOrchestrator continuing() {
        return new RunOrchestrator(store, host, natives, browserLanes, runtimeVersions, listener, spillDir, account, true);
    }

    /** Accounts the runs' wall time in {@code a} ({@link RunAccount}); by default each run has an account of its own. */
    public RunOrchestrator withAccount(RunAccount a) {
        return new RunOrchestrator(store, host, natives, browserLanes, runtimeVersions, listener, spillDir, a, reopen);
    }

    /**
     * Where results go when the store fails mid-run ({@code unsaved-RUN_ID.json}, an export file that
     * {@code accelbridge merge} takes into a healthy store): the reports folder.
     */
    public RunOrchestrator spillTo(Path dir) {
        return new RunOrchestrator(store, host, natives, browserLanes, runtimeVersions, listener, dir, account, reopen);
    }

    /**
     * Runs the plan's cases.
     *
     * @param plan     what to run
     * @param cases    the model cases (already loaded and validated)
     * @param planJson the plan as recorded with the run
     * @param resumeOf a run to complete instead of starting a new one (null for a new run)
     */
    public RunSummary run(RunPlan plan, List<ModelCase> cases, String planJson, String resumeOf) {
        return run(plan, cases, List.of(), planJson, resumeOf);
    }

    /**
     * Runs the plan's cases; each model that could not be loaded or fed ({@code broken}) gets its FAILED or
     * UNSUPPORTED row on every requested backend and lane, with the reason, and the run goes on.
     */
    public RunSummary run(RunPlan plan, List<ModelCase> cases, List<ModelLoad> broken, String planJson, String resumeOf) {
        return run(plan, new ModelSet(cases, broken), planJson, resumeOf);
    }

    /**
     * Runs a model set: its cases, and a row with the reason on every requested backend and lane for each model that
     * could not be loaded or fed and each variant that could not be derived. A derived fp16/int8 case is judged
     * against its fp32 case's native CPU reference, and also compared with its own native CPU run.
     */
    public RunSummary run(RunPlan plan, ModelSet set, String planJson, String resumeOf) {
        RunAccount a = account != null ? account : RunAccount.startingNow();
        return new OneRun(store, host, natives, runtimeVersions, listener, spillDir, a, plan)
                .run(set, browserLanes, planJson, resumeOf, reopen);
    }

    /**
     * The plan as recorded, with the number of cases it will write in all and per lane ({@code "cases"},
     * {@code "lanes"}): what lets a dashboard in another process draw the run's progress.
     */
    static String withTotals(String planJson, int total, Map<String, Integer> lanes) {
        try {
            com.fasterxml.jackson.databind.node.ObjectNode o = planJson == null || planJson.isBlank()
                    ? ResultJson.MAPPER.createObjectNode()
                    : (com.fasterxml.jackson.databind.node.ObjectNode) ResultJson.MAPPER.readTree(planJson);
            o.put("cases", total);
            com.fasterxml.jackson.databind.node.ObjectNode l = o.putObject("lanes");
            lanes.forEach(l::put);
            return o.toString();
        } catch (java.io.IOException | ClassCastException e) {
            return planJson; // a plan that is not a JSON object is recorded as given
        }
    }
}
