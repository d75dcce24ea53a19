package dev.accelbridge.bridge.run;

import dev.accelbridge.browser.launch.BrowserKind;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.reports.store.CaseKey;
import dev.accelbridge.reports.store.MatrixStore;

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
 * Runs a plan: native lane first (its CPU run is every case's reference), then one lane per browser, one
 * browser reused across its cases. Every case is written to the store as soon as it ends, so an interrupted
 * run keeps what finished and {@code --resume} does the rest.
 */
public final class RunOrchestrator {
    private final MatrixStore store;
    private final HostInfo host;
    private final NativeProviders natives;
    private final Supplier<BrowserLanes> browserLanes;
    private final RunListener listener;
    private final Map<String, String> runtimeVersions;

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

    /**
     * Runs the plan's cases.
     *
     * @param plan     what to run
     * @param cases    the model cases (already loaded and validated)
     * @param planJson the plan as recorded with the run
     * @param resumeOf a run to complete instead of starting a new one (null for a new run)
     */
    public RunSummary run(RunPlan plan, List<ModelCase> cases, String planJson, String resumeOf) {
        long t0 = System.nanoTime();
        String runId = resumeOf != null ? resumeOf : store.beginRun(host, runtimeVersions, planJson);
        Set<CaseKey> done = resumeOf != null ? store.completedCaseKeys(runId) : Set.of();
        if (resumeOf != null) {
            store.resumeRun(runId);
        }
        List<BrowserKind> browsers = plan.browserBackends().isEmpty() ? List.of() : plan.browsers();
        int total = cases.size() * (plan.nativeBackends().size() + plan.browserBackends().size() * browsers.size());
        listener.started(runId, total, done.size());
        List<RunResult> results = new ArrayList<>();
        int[] counter = {done.size()};

        CaseExecutor executor = new CaseExecutor(plan.warmups(), plan.iterations(), plan.caseTimeout(), plan.policy(),
                (mc, requested, lane) -> store.latestWorkingTimings(host.fingerprint(), mc.model().family(),
                        mc.model().name(), requested, lane.browser()).map(t -> t.p50Ms()));

        // Native lane: probe every backend its chains name (and cpu, the reference).
        Set<BackendId> nativeNamed = new LinkedHashSet<>();
        nativeNamed.add(BackendId.CPU);
        plan.nativeBackends().forEach(b -> nativeNamed.addAll(plan.chainOf(b).hops()));
        Map<BackendId, Availability> nativeProbes = new LinkedHashMap<>();
        for (BackendId b : nativeNamed) {
            Availability a = natives.forBackend(b).probe(b);
            nativeProbes.put(b, a);
            store.recordProbe(runId, a);
        }
        Provenance nativeProv = Provenance.of(null, null, "djl", null, null, List.of(), runtimeVersions);
        Lane nativeLane = new Lane("native", natives::forBackend, nativeProbes, nativeProv);
        CaseContext nativeCtx = new CaseContext(runId, host, nativeProv);

        // References first, from the native CPU run (which is itself a case when cpu is requested).
        Map<ModelCase, Reference> references = new HashMap<>();
        List<BackendId> nativeOrder = new ArrayList<>(plan.nativeBackends());
        boolean cpuRequested = nativeOrder.remove(BackendId.CPU);
        for (ModelCase mc : cases) {
            Reference expected = Reference.expected(mc).orElse(null);
            if (cpuRequested) {
                CaseKey key = key(mc, BackendId.CPU, "native");
                CaseExecutor.Outcome o = executor.run(nativeCtx, mc, Chain.of(BackendId.CPU), nativeProbes,
                        natives::forBackend, null);
                if (!done.contains(key)) {
                    emit(o.result(), results, counter, total);
                }
                references.put(mc, expected != null ? expected : o.execution()
                        .map(e -> Reference.nativeCpu(e.outputs()))
                        .orElseGet(() -> Reference.missing("native CPU " + o.result().status() + ": " + o.result().reason())));
            } else {
                references.put(mc, expected != null ? expected : referenceOnly(mc));
            }
        }
        for (BackendId requested : nativeOrder) {
            for (ModelCase mc : cases) {
                CaseKey key = key(mc, requested, "native");
                if (done.contains(key)) {
                    continue;
                }
                emit(executor.run(nativeCtx, mc, plan.chainOf(requested), nativeLane.probes(), nativeLane.providers(),
                        references.get(mc)).result(), results, counter, total);
            }
        }

        if (!browsers.isEmpty()) {
            Set<BackendId> browserNamed = new LinkedHashSet<>();
            plan.browserBackends().forEach(b -> browserNamed.addAll(plan.chainOf(b).hops()));
            try (BrowserLanes lanes = browserLanes.get()) {
                for (BrowserKind browser : browsers) {
                    runBrowser(plan, cases, runId, done, references, executor, lanes, browser, browserNamed, results,
                            counter, total);
                }
            }
        }
        store.finishRun(runId);
        return new RunSummary(runId, results, (System.nanoTime() - t0) / 1e6);
    }

    private void runBrowser(RunPlan plan, List<ModelCase> cases, String runId, Set<CaseKey> done,
                            Map<ModelCase, Reference> references, CaseExecutor executor, BrowserLanes lanes,
                            BrowserKind browser, Set<BackendId> named, List<RunResult> results, int[] counter, int total) {
        boolean anyLeft = false;
        for (BackendId requested : plan.browserBackends()) {
            for (ModelCase mc : cases) {
                anyLeft |= !done.contains(key(mc, requested, browser.id()));
            }
        }
        if (!anyLeft) {
            return;
        }
        listener.info("starting " + browser.id() + " (" + plan.driver().id() + ")");
        Lane lane;
        try {
            lane = lanes.open(browser, named);
        } catch (AccelbridgeException e) {
            // The browser is missing or would not start: every case of it says so, the run goes on.
            Status st = e instanceof BackendUnavailableException ? Status.UNAVAILABLE : Status.FAILED;
            Provenance prov = Provenance.of(browser.id(), null, plan.driver().id(), null, null, List.of(), runtimeVersions)
                    .withHost(host);
            for (BackendId requested : plan.browserBackends()) {
                for (ModelCase mc : cases) {
                    if (done.contains(key(mc, requested, browser.id()))) {
                        continue;
                    }
                    emit(new RunResult(runId, Instant.now(), mc.model().family(), mc.model().name(), mc.inputSet(),
                            mc.model().sha256(), requested, null, st, e.oneLine(), prov, null, null, null,
                            List.of(new FallbackHop(requested, false, e.oneLine())), List.of()), results, counter, total);
                }
            }
            return;
        }
        lane.probes().values().forEach(a -> store.recordProbe(runId, a));
        CaseContext ctx = new CaseContext(runId, host, lane.provenance());
        for (BackendId requested : plan.browserBackends()) {
            for (ModelCase mc : cases) {
                if (done.contains(key(mc, requested, browser.id()))) {
                    continue;
                }
                emit(executor.run(ctx, mc, plan.chainOf(requested), lane.probes(), lane.providers(), references.get(mc))
                        .result(), results, counter, total);
            }
        }
    }

    /** The native CPU outputs for a case whose cpu run is not itself requested: one untimed-for-reporting run. */
    private Reference referenceOnly(ModelCase mc) {
        BackendProvider cpu = natives.forBackend(BackendId.CPU);
        try {
            return Reference.nativeCpu(cpu.execute(new dev.accelbridge.core.ExecutionRequest(BackendId.CPU, mc, 0, 1,
                    java.time.Duration.ofMinutes(5))).outputs());
        } catch (BackendException e) {
            return Reference.missing("native CPU failed: " + e.oneLine());
        }
    }

    private static CaseKey key(ModelCase mc, BackendId requested, String browser) {
        return new CaseKey(mc.model().family(), mc.model().name(), mc.inputSet(), requested, browser);
    }

    private void emit(RunResult r, List<RunResult> results, int[] counter, int total) {
        store.write(r);
        results.add(r);
        counter[0]++;
        listener.caseFinished(r, counter[0], total);
    }
}
