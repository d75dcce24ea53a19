package dev.accelbridge.bridge.run;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.suites.ModelLoad;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.reports.store.MatrixStore;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Runs a plan: native lane first (its CPU run is every case's reference), then each browser's cases on its lanes
 * ({@link BrowserScheduler}: {@code --parallel} browsers at once, each reused across its cases, FAILED cases retried). Every case is written to the store as soon as it ends, so an interrupted
 * run keeps what finished and {@code --resume} does the rest.
 */
public final class RunOrchestrator {
    private final MatrixStore store;
    private final HostInfo host;
    private final NativeProviders natives;
    private final Supplier<BrowserLanes> browserLanes;
    private final RunListener listener;
    private final Map<String, String> runtimeVersions;
    private Path spillDir = Path.of(".");
    /** Writes to the store as the run goes, and keeps what it cannot take for a spill file. */
    private RunRecorder recorder;
    /** Bisects wrong outputs (null with --no-bisect). */
    private Bisections bisections;
    /** Where the run's wall time goes. */
    private RunAccount account = RunAccount.startingNow();
    /** The run given to {@link #run} may have finished: it is opened again to take more cases. */
    private boolean reopen;
    /** The cases running now that reported progress, by lane and case, for the dashboard's live view. */
    private final Map<String, com.fasterxml.jackson.databind.node.ObjectNode> inCase = new LinkedHashMap<>();

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
        this.store = store;
        this.host = host;
        this.natives = natives;
        this.browserLanes = browserLanes;
        this.runtimeVersions = Map.copyOf(runtimeVersions);
        this.listener = listener;
    }

    /** Adds to a run that may have finished (a version bisection's later steps) instead of only resuming an interrupted one. */
    public RunOrchestrator continuing() {
        this.reopen = true;
        return this;
    }

    /** Accounts the run's wall time in {@code a} ({@link RunAccount}); by default an account of its own. */
    public RunOrchestrator withAccount(RunAccount a) {
        this.account = a;
        return this;
    }

    /**
     * Where results go when the store fails mid-run ({@code unsaved-RUN_ID.json}, an export file that
     * {@code accelbridge merge} takes into a healthy store): the reports folder.
     */
    public RunOrchestrator spillTo(Path dir) {
        this.spillDir = dir;
        return this;
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
        List<ModelCase> cases = set.cases();
        long t0 = System.nanoTime();
        account.startDone();
        List<LaneId> browserTargets = plan.targets().browserBackends().isEmpty() ? List.of() : plan.browserLanes();
        CaseExecutor executor = executor(plan);
        NativeLanes nativeLanes = new NativeLanes(natives, executor, account, host, runtimeVersions);
        List<LaneId> nativeTargets = plan.targets().nativeBackends().isEmpty() ? List.of()
                : plan.targets().nativeLanes();
        int models = cases.size() + set.broken().size() + set.refused().size();
        Map<String, Integer> laneTotals = new LinkedHashMap<>();
        nativeTargets.forEach(l -> laneTotals.merge(l.id(), models * plan.targets().nativeBackends().size(), Integer::sum));
        browserTargets.forEach(l -> laneTotals.merge(l.id(), models * plan.targets().browserBackends().size(), Integer::sum));
        int total = laneTotals.values().stream().mapToInt(Integer::intValue).sum();
        recorder = new RunRecorder(store, host, runtimeVersions, listener, spillDir, account);
        String runId = resumeOf != null ? resumeOf : store.beginRun(host, runtimeVersions, withTotals(planJson, total, laneTotals));
        Instant begun = Instant.now();
        Set<CaseId> done = resumeOf != null ? store.completedCases(runId) : Set.of();
        if (resumeOf != null) {
            store.resumeRun(runId, reopen);
        }
        Set<String> seenModels = new LinkedHashSet<>();
        List<dev.accelbridge.core.ModelSpec> toRecord = new ArrayList<>();
        for (ModelCase mc : cases) {
            var spec = mc.model();
            if (spec.sha256() != null && seenModels.add(spec.sha256())) {
                toRecord.add(spec);
            }
        }
        recorder.recordModels(toRecord);
        listener.started(runId, total, done.size());
        List<RunResult> results = new ArrayList<>();
        int[] counter = {done.size()};
        set.notes().forEach(listener::info);
        LaneSink sink = sink(runId, results, counter, total);
        executor.withProgress((id, hop, phase, k, n) -> {
            synchronized (RunOrchestrator.this) {
                listener.caseProgress(id, hop, phase, k, n);
                inCase.put(id.lane().key() + "|" + id.row(), ResultJson.MAPPER.createObjectNode().put("lane", id.lane().id())
                        .put("case", id.row()).put("backend", hop.id()).put("phase", phase).put("done", k).put("total", n));
                recordInCase(runId);
            }
        });
        bisections = plan.drillDown().bisect() ? new Bisections(spillDir.resolve("repro"), plan.limits().caseTimeout(),
                plan.effectiveThreads(), natives.forBackend(BackendId.CPU), plan.drillDown().bisectAlways()) : null;
        // the browsers' lanes start with their first case; what each will be is known now (the installed browsers' majors)
        BrowserLanes lanes = browserTargets.isEmpty() ? null : browserLanes.get();
        try {
            List<LaneId> browserExpected = lanes == null ? List.of() : browserTargets.stream().map(lanes::expected).toList();
            unrunnable(plan, set, nativeTargets, browserExpected, runId, done, sink);
            Map<ModelCase, Reference> references = nativeLanes.run(plan, set, nativeTargets, runId, done, sink);
            if (!browserTargets.isEmpty()) {
                Set<BackendId> browserNamed = new LinkedHashSet<>();
                plan.targets().browserBackends().forEach(b -> browserNamed.addAll(plan.targets().chainOf(b).hops()));
                BrowserScheduler scheduler = new BrowserScheduler(plan, executor, host, runId, runtimeVersions, sink);
                // a lane's time outside its cases (launch, page, probes, close) is the browsers' part
                account.timeExclusive(RunAccount.Part.BROWSERS, () -> {
                    for (LaneId target : browserTargets) {
                        scheduler.run(lanes, target, cases, done, references, browserNamed);
                    }
                });
            }
        } finally {
            if (lanes != null) {
                account.timeExclusive(RunAccount.Part.BROWSERS, lanes::close);
            }
        }
        recorder.finish(runId, begun, planJson);
        return new RunSummary(runId, results, (System.nanoTime() - t0) / 1e6);
    }

    private CaseExecutor executor(RunPlan plan) {
        return new CaseExecutor(plan.sampling().warmups(), plan.sampling().iterations(), plan.limits().caseTimeout(), plan.targets().policy(),
                id -> store.latestWorkingTimings(host.fingerprint(), id, id.requested()).map(t -> t.p50Ms()),
                plan.effectiveThreads()).withLoadTimeout(plan.limits().loadTimeout().orElse(null)).withAccount(account)
                .withDrillDown(plan.drillDown().profileIterations(), plan.drillDown().recreate()).withDurations(plan.sampling().durations());
    }

    /** Each model that could not be loaded or fed, and each variant that could not be derived: its row on every lane. */
    private void unrunnable(RunPlan plan, ModelSet set, List<LaneId> nativeLanes, List<LaneId> browserLanes, String runId,
                            Set<CaseId> done, LaneSink sink) {
        List<Unrunnable> unrunnable = new ArrayList<>();
        for (ModelLoad m : set.broken()) {
            unrunnable.add(new Unrunnable((b, l) -> new CaseId(m.family(), m.name(), m.sha256(), "-", null,
                    dev.accelbridge.core.Precision.FP32, 1, b, l), m.status(), m.problem()));
        }
        for (ModelSet.Refused r : set.refused()) {
            unrunnable.add(new Unrunnable(r::on, r.status(), r.reason()));
        }
        for (Unrunnable m : unrunnable) {
            for (LaneId lane : java.util.stream.Stream.concat(nativeLanes.stream(), browserLanes.stream()).toList()) {
                for (BackendId b : lane.isNative() ? plan.targets().nativeBackends() : plan.targets().browserBackends()) {
                    CaseId id = m.id().apply(b, lane);
                    if (done.contains(id)) {
                        continue;
                    }
                    Provenance prov = (lane.isNative() ? Provenance.of(null, null, "djl", null, null, List.of(), runtimeVersions)
                            : Provenance.of(lane.id(), null, plan.targets().driver().id(), null, null, List.of(), runtimeVersions)).withHost(host);
                    sink.emit(new RunResult(runId, Instant.now(), id, null, m.status(), m.reason(), prov, null, null, null,
                            List.of(new FallbackHop(b, false, m.reason())), List.of()));
                }
            }
        }
    }

    /** Where every lane's results, probes and news go: the store at once, progress, and bisection. */
    private LaneSink sink(String runId, List<RunResult> results, int[] counter, int total) {
        return new LaneSink() {
            @Override
            public void emit(RunResult r) {
                RunOrchestrator.this.emit(r, results, counter, total);
            }

            @Override
            public void info(String message) {
                synchronized (RunOrchestrator.this) {
                    listener.info(message);
                }
            }

            @Override
            public void probe(Availability a) {
                recorder.recordProbe(runId, a);
            }

            @Override
            public void host(HostInfo h) {
                recorder.recordHost(h);
            }

            @Override
            public RunResult bisected(RunResult r, ModelCase mc, java.util.function.Function<BackendId, BackendProvider> providers) {
                return RunOrchestrator.this.bisected(r, mc, providers);
            }
        };
    }

    /** The result with its bisection when it is wrong and bisection is on. */
    private synchronized RunResult bisected(RunResult r, ModelCase mc, java.util.function.Function<BackendId, BackendProvider> providers) {
        if (bisections == null || !bisections.wanted(r)) {
            return r;
        }
        listener.info("bisecting " + r.id().row() + " on " + r.actual() + "…");
        RunResult b = account.time(RunAccount.Part.REFERENCES, () -> bisections.apply(r, mc, providers));
        listener.info("  " + b.analysis().bisection().describe());
        return b;
    }

    /** A model or variant that cannot run: its identity on each backend and lane, its status and why. */
    private record Unrunnable(java.util.function.BiFunction<BackendId, LaneId, CaseId> id, Status status, String reason) {
    }

    /**
     * The plan as recorded, with the number of cases it will write in all and per lane ({@code "cases"},
     * {@code "lanes"}): what lets a dashboard in another process draw the run's progress.
     */
    static String withTotals(String planJson, int total, Map<String, Integer> lanes) {
        try {
            com.fasterxml.jackson.databind.node.ObjectNode o = planJson == null || planJson.isBlank()
                    ? dev.accelbridge.reports.store.ResultJson.MAPPER.createObjectNode()
                    : (com.fasterxml.jackson.databind.node.ObjectNode) dev.accelbridge.reports.store.ResultJson.MAPPER.readTree(planJson);
            o.put("cases", total);
            com.fasterxml.jackson.databind.node.ObjectNode l = o.putObject("lanes");
            lanes.forEach(l::put);
            return o.toString();
        } catch (java.io.IOException | ClassCastException e) {
            return planJson; // a plan that is not a JSON object is recorded as given
        }
    }

    /**
     * Every case is written at once; when the store fails, this case and every later one are kept in memory and
     * written to a spill file at the end, so nothing measured is lost.
     */
    private synchronized void emit(RunResult r, List<RunResult> results, int[] counter, int total) {
        recorder.write(r);
        results.add(r);
        counter[0]++;
        listener.caseFinished(r, counter[0], total);
        if (inCase.remove(r.id().lane().key() + "|" + r.id().row()) != null) {
            recordInCase(r.runId());
        }
    }

    /** Where the running cases are, beside the run's lock: another process's live feed shows it (never a store write). */
    private void recordInCase(String runId) {
        com.fasterxml.jackson.databind.node.ArrayNode a = ResultJson.MAPPER.createArrayNode();
        inCase.values().forEach(a::add);
        store.recordCaseProgress(runId, inCase.isEmpty() ? null : a.toString());
    }
}
