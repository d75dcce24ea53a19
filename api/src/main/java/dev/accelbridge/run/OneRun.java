package dev.accelbridge.run;

import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.suites.ModelLoad;

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
 * One run of a {@link RunOrchestrator}: its store writer, its bisections, the cases in progress and the results so far.
 * It begins (or resumes) the run in the store, makes the references, runs every lane's cases through one
 * {@link LaneScheduler}, and finishes the run.
 */
final class OneRun {
    private final MatrixStore store;
    private final HostInfo host;
    private final NativeProviders natives;
    private final Map<String, String> runtimeVersions;
    private final RunListener listener;
    private final Path spillDir;
    private final RunAccount account;
    private final RunPlan plan;
    /** The backends each lane runs here: the plan's, less a software adapter's repeats. */
    private final LaneBackends laneBackends;
    /** Writes to the store as the run goes, and keeps what it cannot take for a spill file. */
    private RunRecorder recorder;
    /** Bisects wrong outputs (null with --no-bisect). */
    private Bisections bisections;
    /** The cases running now that reported progress, by lane and case, for the dashboard's live view. */
    private final Map<String, com.fasterxml.jackson.databind.node.ObjectNode> inCase = new LinkedHashMap<>();
    private final List<RunResult> results = new ArrayList<>();
    private int counter;

    OneRun(MatrixStore store, HostInfo host, NativeProviders natives, Map<String, String> runtimeVersions, RunListener listener,
           Path spillDir, RunAccount account, RunPlan plan) {
        this.store = store;
        this.host = host;
        this.natives = natives;
        this.runtimeVersions = runtimeVersions;
        this.listener = listener;
        this.spillDir = spillDir;
        this.account = account;
        this.plan = plan;
        this.laneBackends = LaneBackends.of(plan, WebGpuAdapter.hostHasGpu());
    }

    /** Runs {@code set}; {@code reopen} adds to a run that may have finished, not only one that was interrupted. */
    RunSummary run(ModelSet set, Supplier<BrowserLanes> browserLanes, String planJson, String resumeOf, boolean reopen) {
        List<ModelCase> cases = set.cases();
        long t0 = System.nanoTime();
        account.startDone();
        List<LaneId> browserTargets = plan.targets().browserBackends().isEmpty() ? List.of() : laneBackends.browserLanes();
        CaseExecutor executor = executor();
        List<LaneId> nativeTargets = plan.targets().nativeBackends().isEmpty() ? List.of() : plan.targets().nativeLanes();
        Map<String, Integer> laneTotals = laneTotals(set, nativeTargets, browserTargets);
        int total = laneTotals.values().stream().mapToInt(Integer::intValue).sum();
        recorder = new RunRecorder(store, host, runtimeVersions, listener, spillDir, account);
        String runId = resumeOf != null ? resumeOf : store.beginRun(host, runtimeVersions, RunOrchestrator.withTotals(planJson, total, laneTotals));
        Instant begun = Instant.now();
        Set<CaseId> done = resumeOf != null ? store.completedCases(runId) : Set.of();
        if (resumeOf != null) {
            store.resumeRun(runId, reopen);
        }
        recordModels(cases);
        // before the run starts: on a terminal, what is said once the progress bar is up is only its passing message
        laneBackends.leftOut().forEach(listener::info);
        listener.started(runId, total, done.size());
        counter = done.size();
        set.notes().forEach(listener::info);
        LaneSink sink = sink(runId, total);
        executor.withProgress(progress(runId));
        bisections = plan.drillDown().bisect() ? new Bisections(spillDir.resolve("repro"), plan.limits().caseTimeout(),
                plan.effectiveThreads(), natives.forBackend(BackendId.CPU), plan.drillDown().bisectAlways(), plan.drillDown().bisectBudget(),
                r -> store.history(r.id().cellOn(r.provenance() != null && r.provenance().hostFingerprint() != null
                        ? r.provenance().hostFingerprint() : host.fingerprint()))) : null;
        LaneScheduler scheduler = new LaneScheduler(plan, executor, host, runId, runtimeVersions, sink);
        NativeLaneSource nativeLanes = new NativeLaneSource(natives, account, runtimeVersions);
        // the browsers' lanes start with their first case; what each will be is known now (the installed browsers' majors)
        BrowserLanes lanes = browserTargets.isEmpty() ? null : browserLanes.get();
        try {
            List<LaneId> browserExpected = lanes == null ? List.of() : browserTargets.stream().map(lanes::expected).distinct().toList();
            unrunnable(set, nativeTargets, browserExpected, l -> (l.side() == LaneSide.NATIVE ? nativeLanes : lanes).driver(l),
                    runId, done, sink);
            Set<BackendId> nativeNamed = named(plan.targets().nativeBackends());
            nativeNamed.add(BackendId.CPU); // the reference's
            Map<ModelCase, Reference> references = new NativeReferences(natives, nativeLanes, executor, account, host)
                    .make(plan, set, nativeTargets, nativeNamed, runId, done, sink);
            runNative(scheduler, nativeLanes, nativeTargets, cases, done, references, nativeNamed);
            if (!browserTargets.isEmpty()) {
                runBrowsers(scheduler, lanes, browserTargets, cases, done, references);
            }
        } finally {
            nativeLanes.close();
            if (lanes != null) {
                account.timeExclusive(RunAccount.Part.BROWSERS, lanes::close);
            }
        }
        recorder.finish(runId, begun, planJson);
        return new RunSummary(runId, results, (System.nanoTime() - t0) / 1e6);
    }

    /** How many cases each lane will report, every model (broken and refused ones included) on each of its backends. */
    private Map<String, Integer> laneTotals(ModelSet set, List<LaneId> nativeTargets, List<LaneId> browserTargets) {
        int models = set.cases().size() + set.broken().size() + set.refused().size();
        Map<String, Integer> laneTotals = new LinkedHashMap<>();
        nativeTargets.forEach(l -> laneTotals.merge(l.id(), models * plan.targets().nativeBackends().size(), Integer::sum));
        browserTargets.forEach(l -> laneTotals.merge(l.id(), models * laneBackends.on(l).size(), Integer::sum));
        return laneTotals;
    }

    /** Each model the cases run, once (by its sha256), so the store knows what every result ran. */
    private void recordModels(List<ModelCase> cases) {
        Set<String> seenModels = new LinkedHashSet<>();
        List<ModelSpec> toRecord = new ArrayList<>();
        for (ModelCase mc : cases) {
            var spec = mc.model();
            if (spec.sha256() != null && seenModels.add(spec.sha256())) {
                toRecord.add(spec);
            }
        }
        recorder.recordModels(toRecord);
    }

    /** Each running case's progress, told to the listener and kept with the run for the dashboard's live view. */
    private CaseExecutor.ProgressSink progress(String runId) {
        return (id, hop, phase, k, n) -> {
            synchronized (OneRun.this) {
                listener.caseProgress(id, hop, phase, k, n);
                inCase.put(id.lane().key() + "|" + id.row(), ResultJson.MAPPER.createObjectNode().put("lane", id.lane().id())
                        .put("case", id.row()).put("backend", hop.id()).put("phase", phase).put("done", k).put("total", n)
                        .put("now", plan.sampling().durations().progress(phase, k, n)));
                recordInCase(runId);
            }
        };
    }

    /** Each native lane's cases; this process's cpu cases ran as the references. */
    private void runNative(LaneScheduler scheduler, NativeLaneSource nativeLanes, List<LaneId> nativeTargets, List<ModelCase> cases,
                           Set<CaseId> done, Map<ModelCase, Reference> references, Set<BackendId> nativeNamed) {
        for (LaneId target : nativeTargets) {
            List<BackendId> requested = plan.targets().nativeBackends().stream()
                    .filter(b -> b != BackendId.CPU || !target.equals(nativeLanes.here())).toList();
            scheduler.run(nativeLanes, target, cases, requested, done, references, nativeNamed);
        }
    }

    /**
     * Each browser lane's cases. A lane's time outside its cases (launch, page, probes, close) is the browsers' part;
     * lanes that turn out to be one (a page opened by hand is its own lane whatever engine a target names) run once.
     */
    private void runBrowsers(LaneScheduler scheduler, BrowserLanes lanes, List<LaneId> browserTargets, List<ModelCase> cases,
                             Set<CaseId> done, Map<ModelCase, Reference> references) {
        Set<BackendId> browserNamed = named(plan.targets().browserBackends());
        Map<LaneId, LaneId> firstTarget = new LinkedHashMap<>();
        Map<LaneId, Set<BackendId>> backendsOf = new LinkedHashMap<>();
        for (LaneId target : browserTargets) {
            LaneId expected = lanes.expected(target);
            firstTarget.putIfAbsent(expected, target);
            backendsOf.computeIfAbsent(expected, k -> new LinkedHashSet<>()).addAll(laneBackends.on(target));
        }
        account.timeExclusive(RunAccount.Part.BROWSERS, () -> firstTarget.forEach((expected, target) ->
                scheduler.run(lanes, target, cases, List.copyOf(backendsOf.get(expected)), done, references, browserNamed)));
    }

    /** Every backend the chains of {@code requested} name. */
    private Set<BackendId> named(List<BackendId> requested) {
        Set<BackendId> named = new LinkedHashSet<>();
        requested.forEach(b -> named.addAll(plan.targets().chainOf(b).hops()));
        return named;
    }

    private CaseExecutor executor() {
        return new CaseExecutor(plan.sampling().warmups(), plan.sampling().iterations(), plan.limits().caseTimeout(), plan.targets().policy(),
                id -> store.latestWorkingTimings(host.fingerprint(), id, id.requested()).map(t -> t.p50Ms()),
                plan.effectiveThreads()).withLoadTimeout(plan.limits().loadTimeout().orElse(null)).withAccount(account)
                .withDrillDown(plan.drillDown().profileIterations(), plan.drillDown().recreate()).withSampling(plan.sampling().durations(),
                plan.sampling().depth()).withLoadDiagnosis(spillDir.resolve("repro"), natives.forBackend(BackendId.CPU));
    }

    /** Each model that could not be loaded or fed, and each variant that could not be derived: its row on every lane. */
    private void unrunnable(ModelSet set, List<LaneId> nativeLanes, List<LaneId> browserLanes,
                            java.util.function.Function<LaneId, String> driverOf, String runId, Set<CaseId> done, LaneSink sink) {
        List<Unrunnable> unrunnable = new ArrayList<>();
        for (ModelLoad m : set.broken()) {
            unrunnable.add(new Unrunnable((b, l) -> new CaseId(m.family(), m.name(), m.sha256(), "-", null,
                    m.precision(), 1, b, l), m.status(), m.problem()));
        }
        for (ModelSet.Refused r : set.refused()) {
            unrunnable.add(new Unrunnable(r::on, r.status(), r.reason()));
        }
        for (Unrunnable m : unrunnable) {
            for (LaneId lane : java.util.stream.Stream.concat(nativeLanes.stream(), browserLanes.stream()).toList()) {
                for (BackendId b : laneBackends.on(lane)) {
                    CaseId id = m.id().apply(b, lane);
                    if (done.contains(id)) {
                        continue;
                    }
                    Provenance prov = Provenance.of(lane.browserId(), null, driverOf.apply(lane), null, null, List.of(), runtimeVersions).withHost(host);
                    sink.emit(RunResult.notRun(runId, Instant.now(), id, m.status(), m.reason(), prov,
                            List.of(new FallbackHop(b, false, m.reason()))));
                }
            }
        }
    }

    /** Where every lane's results, probes and news go: the store at once, progress, and bisection. */
    private LaneSink sink(String runId, int total) {
        return new LaneSink() {
            @Override
            public void emit(RunResult r) {
                OneRun.this.emit(r, total);
            }

            @Override
            public void info(String message) {
                synchronized (OneRun.this) {
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
                return OneRun.this.bisected(r, mc, providers);
            }
        };
    }

    /** The result with its bisection when it is wrong and bisection is on. */
    private synchronized RunResult bisected(RunResult r, ModelCase mc, java.util.function.Function<BackendId, BackendProvider> providers) {
        if (bisections == null || !bisections.wanted(r)) {
            return r;
        }
        listener.info("bisecting " + r.id().row() + " on " + r.actual().map(String::valueOf).orElse("null") + "…");
        RunResult b = account.time(RunAccount.Part.REFERENCES, () -> bisections.apply(r, mc, providers));
        listener.info("  " + b.analysis().bisection().describe());
        return b;
    }

    /** A model or variant that cannot run: its identity on each backend and lane, its status and why. */
    private record Unrunnable(java.util.function.BiFunction<BackendId, LaneId, CaseId> id, Status status, String reason) {
    }

    /**
     * Every case is written at once; when the store fails, this case and every later one are kept in memory and
     * written to a spill file at the end, so nothing measured is lost.
     */
    private synchronized void emit(RunResult r, int total) {
        recorder.write(r);
        results.add(r);
        counter++;
        listener.caseFinished(r, counter, total);
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
