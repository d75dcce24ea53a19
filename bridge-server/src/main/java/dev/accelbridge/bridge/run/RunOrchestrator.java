package dev.accelbridge.bridge.run;

import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException;
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
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.suites.ModelLoad;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.reports.store.MatrixStore;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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
        List<ModelLoad> broken = set.broken();
        long t0 = System.nanoTime();
        account.startDone();
        List<BrowserKind> browsers = plan.browserBackends().isEmpty() ? List.of() : plan.browsers();
        int models = cases.size() + broken.size() + set.refused().size();
        Map<String, Integer> laneTotals = new LinkedHashMap<>();
        if (!plan.nativeBackends().isEmpty()) {
            laneTotals.put(LaneId.NATIVE.id(), models * plan.nativeBackends().size());
        }
        browsers.forEach(b -> laneTotals.put(LaneId.of(b).id(), models * plan.browserBackends().size()));
        int total = laneTotals.values().stream().mapToInt(Integer::intValue).sum();
        recorder = new RunRecorder(store, host, runtimeVersions, listener, spillDir, account);
        String runId = resumeOf != null ? resumeOf : store.beginRun(host, runtimeVersions, withTotals(planJson, total, laneTotals));
        Instant begun = Instant.now();
        Set<CaseId> done = resumeOf != null ? store.completedCases(runId) : Set.of();
        if (resumeOf != null) {
            store.resumeRun(runId);
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
        List<Unrunnable> unrunnable = new ArrayList<>();
        for (ModelLoad m : broken) {
            unrunnable.add(new Unrunnable((b, l) -> new CaseId(m.family(), m.name(), m.sha256(), "-", null,
                    dev.accelbridge.core.Precision.FP32, 1, b, l), m.status(), m.problem()));
        }
        for (ModelSet.Refused r : set.refused()) {
            unrunnable.add(new Unrunnable(r::on, r.status(), r.reason()));
        }
        for (Unrunnable m : unrunnable) {
            List<LaneId> lanes = new ArrayList<>();
            List<BackendId> backendsOf = new ArrayList<>();
            plan.nativeBackends().forEach(b -> {
                lanes.add(LaneId.NATIVE);
                backendsOf.add(b);
            });
            for (BrowserKind bk : browsers) {
                plan.browserBackends().forEach(b -> {
                    lanes.add(LaneId.of(bk));
                    backendsOf.add(b);
                });
            }
            for (int k = 0; k < lanes.size(); k++) {
                CaseId id = m.id().apply(backendsOf.get(k), lanes.get(k));
                if (done.contains(id)) {
                    continue;
                }
                Provenance prov = (lanes.get(k).isNative() ? Provenance.of(null, null, "djl", null, null, List.of(), runtimeVersions)
                        : Provenance.of(lanes.get(k).id(), null, plan.driver().id(), null, null, List.of(), runtimeVersions)).withHost(host);
                emit(new RunResult(runId, Instant.now(), id, null, m.status(), m.reason(), prov, null, null, null,
                        List.of(new FallbackHop(backendsOf.get(k), false, m.reason())), List.of()), results, counter, total);
            }
        }

        CaseExecutor executor = new CaseExecutor(plan.warmups(), plan.iterations(), plan.caseTimeout(), plan.policy(),
                id -> store.latestWorkingTimings(host.fingerprint(), id, id.requested()).map(t -> t.p50Ms()),
                plan.effectiveThreads()).withLoadTimeout(plan.loadTimeout().orElse(null)).withAccount(account)
                .withDrillDown(plan.drillDown().profileIterations(), plan.drillDown().recreate()).withDurations(plan.durations())
                .withProgress((id, hop, phase, k, n) -> {
                    synchronized (RunOrchestrator.this) {
                        listener.caseProgress(id, hop, phase, k, n);
                        inCase.put(id.lane().id() + "|" + id.row(), ResultJson.MAPPER.createObjectNode().put("lane", id.lane().id())
                                .put("case", id.row()).put("backend", hop.id()).put("phase", phase).put("done", k).put("total", n));
                        recordInCase(runId);
                    }
                });
        bisections = plan.drillDown().bisect() ? new Bisections(spillDir.resolve("repro"), plan.caseTimeout(),
                plan.effectiveThreads(), natives.forBackend(BackendId.CPU), plan.drillDown().bisectAlways()) : null;

        // Native lane: probe every backend its chains name (and cpu, the reference).
        Set<BackendId> nativeNamed = new LinkedHashSet<>();
        nativeNamed.add(BackendId.CPU);
        plan.nativeBackends().forEach(b -> nativeNamed.addAll(plan.chainOf(b).hops()));
        Map<BackendId, Availability> nativeProbes = new LinkedHashMap<>();
        for (BackendId b : nativeNamed) {
            Availability a = account.time(RunAccount.Part.PROBES, () -> natives.forBackend(b).probe(b));
            nativeProbes.put(b, a);
            recorder.recordProbe(runId, a);
        }
        Provenance nativeProv = Provenance.of(null, null, "djl", null, null, List.of(), runtimeVersions);
        Lane nativeLane = new Lane("native", natives::forBackend, nativeProbes, nativeProv);
        CaseContext nativeCtx = new CaseContext(runId, host, nativeProv, LaneId.NATIVE);

        // References first, from the native CPU run (which is itself a case when cpu is requested).
        Map<ModelCase, Reference> references = new HashMap<>();
        List<BackendId> nativeOrder = new ArrayList<>(plan.nativeBackends());
        boolean cpuRequested = nativeOrder.remove(BackendId.CPU);
        for (ModelCase mc : cases) {
            ModelCase fp32 = set.fp32Of().get(mc);
            Reference judge = fp32 == null ? null
                    : references.computeIfAbsent(fp32, b -> Reference.expected(b).orElseGet(() -> referenceOnly(b))).asFp32();
            Reference expected = Reference.expected(mc).orElse(null);
            if (cpuRequested) {
                CaseId key = CaseId.of(mc, BackendId.CPU, LaneId.NATIVE);
                CaseExecutor.Outcome o = executor.run(nativeCtx, mc, Chain.of(BackendId.CPU), nativeProbes,
                        natives::forBackend, judge);
                if (!done.contains(key)) {
                    emit(o.result(), results, counter, total);
                }
                Reference own = expected != null ? expected : o.execution()
                        .map(e -> Reference.nativeCpu(mc, e.outputs()))
                        .orElseGet(() -> Reference.missing("native CPU " + o.result().status() + ": " + o.result().reason()));
                references.put(mc, judge == null ? own : judge.withVariantRun(own, mc.precision()));
            } else {
                Reference own = expected != null ? expected : referenceOnly(mc);
                references.put(mc, judge == null ? own : judge.withVariantRun(own, mc.precision()));
            }
        }
        for (BackendId requested : nativeOrder) {
            for (ModelCase mc : cases) {
                CaseId key = CaseId.of(mc, requested, LaneId.NATIVE);
                if (done.contains(key)) {
                    continue;
                }
                RunResult r = Retries.run(plan.scheduling().retries(), () -> executor.run(nativeCtx, mc,
                        plan.chainOf(requested), nativeLane.probes(), nativeLane.providers(), references.get(mc)).result(),
                        nativeLane.renew(), listener::info);
                emit(bisected(r, mc, nativeLane.providers()), results, counter, total);
            }
        }

        if (!browsers.isEmpty()) {
            Set<BackendId> browserNamed = new LinkedHashSet<>();
            plan.browserBackends().forEach(b -> browserNamed.addAll(plan.chainOf(b).hops()));
            BrowserScheduler scheduler = new BrowserScheduler(plan, executor, host, runId, runtimeVersions, new BrowserScheduler.Sink() {
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
            });
            // a lane's time outside its cases (launch, page, probes, close) is the browsers' part
            account.timeExclusive(RunAccount.Part.BROWSERS, () -> {
                try (BrowserLanes lanes = browserLanes.get()) {
                    for (BrowserKind browser : browsers) {
                        scheduler.run(lanes, browser, cases, done, references, browserNamed);
                    }
                }
            });
        }
        recorder.finish(runId, begun, planJson);
        return new RunSummary(runId, results, (System.nanoTime() - t0) / 1e6);
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

    /** The native CPU outputs for a case whose cpu run is not itself requested: one untimed-for-reporting run. */
    private Reference referenceOnly(ModelCase mc) {
        BackendProvider cpu = natives.forBackend(BackendId.CPU);
        try {
            return Reference.nativeCpu(mc, account.time(RunAccount.Part.REFERENCES, () -> cpu.execute(
                    new dev.accelbridge.core.ExecutionRequest(BackendId.CPU, mc, 0, 1, java.time.Duration.ofMinutes(5)))).outputs());
        } catch (BackendException e) {
            return Reference.missing("native CPU failed: " + e.oneLine());
        }
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
        if (inCase.remove(r.id().lane().id() + "|" + r.id().row()) != null) {
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
