package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.ModelRegistry;

import dev.accelbridge.bridge.hub.PageSessions;

import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.OutputBudget;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.bridge.hub.LoadedSession;
import dev.accelbridge.bridge.hub.PageJobException;
import dev.accelbridge.bridge.hub.Released;
import dev.accelbridge.bridge.hub.RunOutcome;

import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.Scenario;
import dev.accelbridge.core.TimeBudget;
import dev.accelbridge.core.Timings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One case on a lane's page, for {@link BrowserBackendProvider}: admitted or refused with its verdict before anything
 * loads, sent (or taken from what {@link LookAhead} sent ahead), awaited phase by phase under the case's deadline, its
 * session released, and its answers made an {@link Execution}. A page's failure becomes the case's exception and tells
 * the lane what to do with its page ({@link PageFailures}).
 */
final class BrowserCase {
    private static final Logger LOG = LoggerFactory.getLogger(BrowserCase.class);

    private final BrowserBackendProvider provider;
    private final BridgeServer server;
    private final LanePage lane;
    private final LookAhead ahead;
    /** Providers this page's onnxruntime-web cannot start (its own error): the lane's, shared with the provider. */
    private final Map<BackendId, String> noProvider;

    BrowserCase(BrowserBackendProvider provider, BridgeServer server, LanePage lane, LookAhead ahead, Map<BackendId, String> noProvider) {
        this.provider = provider;
        this.server = server;
        this.lane = lane;
        this.ahead = ahead;
        this.noProvider = noProvider;
    }

    Execution run(ExecutionRequest request) {
        lane.ready(provider.browserLabel());
        PageProbe probe = lane.probe();
        admit(request, probe);
        Setup k = setUp(request, probe);
        SentCase c = sendOrTake(k);
        BrowserMemorySampler memory = BrowserMemorySampler.start(lane.handle());
        try {
            LoadedSession s = awaitLoad(k, c);
            Ran ran = runThenRelease(k, c, s, memory);
            EngineObserved.check(provider.engine(), s.modules());
            return execution(k, c, s, ran, memory);
        } finally {
            memory.close();
            c.unregister(ModelRegistry.of(server));
        }
    }

    /**
     * What a case runs with, settled before it is sent: its deadline (from the case's timeout), the engine and provider
     * its page runs, the page's warmth and the durations that gives, and the bound on the outputs it returns.
     *
     * @param single one timed run and nothing else (the op sweep): the run is sent with the load, before its answer (a run
     *               after a failed load fails on the missing session and is not awaited), and the release is not awaited:
     *               one round trip a case, and none of its own when the case was sent ahead. Otherwise the first inference
     *               alone, then the warm-ups and timed runs under a deadline derived from it (the inputs cross once: the
     *               page keeps them).
     */
    private record Setup(ExecutionRequest request, PageProbe probe, Duration timeout, long deadline, OrtWebEngine engine,
                         ExecutionProviderSpec ep, ConnectedPage page, PageWarmth warmth, boolean single, OutputBudget budget,
                         MinDurations durations) {
        BackendId backend() {
            return request.backend();
        }

        ModelSpec model() {
            return request.modelCase().model();
        }
    }

    private Setup setUp(ExecutionRequest request, PageProbe probe) {
        Duration timeout = SentCase.timeout(request, server);
        long deadline = System.nanoTime() + timeout.toNanos();
        OrtWebEngine engine = OrtWebEngine.orPinned(provider.engine());
        ExecutionProviderSpec ep = PageOptions.ep(request, engine);
        ConnectedPage p = lane.page();
        PageWarmth warmth = lane.warmth();
        boolean single = SentCase.oneRun(request);
        OutputBudget budget = OutputBudget.forCase(request.modelCase(), server.options().maxResultBytes());
        MinDurations d = warmth.durations(request.backend(), request.durations());
        return new Setup(request, probe, timeout, deadline, engine, ep, p, warmth, single, budget, d);
    }

    /**
     * The case as {@link LookAhead} sent it ahead, or sent now; then the lane's next cases go ahead behind it when it ends
     * with its run (a case awaited in phases would hold them up), and the hints are dropped otherwise.
     */
    private SentCase sendOrTake(Setup k) {
        ExecutionRequest request = k.request();
        SentCase sent = ahead.take(request, k.page(), ModelRegistry.of(server));
        SentCase c = sent != null ? sent
                : SentCase.send(k.page(), server, request, k.engine(), k.durations(), k.budget(), Duration.ZERO);
        if (SentCase.endsWithItsRun(request)) {
            ahead.sendAhead(k.page(), k.engine(), k.warmth(), server, k.timeout(), n -> admit(n, k.probe()));
        } else {
            ahead.forgetHints();
        }
        return c;
    }

    /** The case's session once loaded; a run sent with the load is then left to fail on its own. */
    private LoadedSession awaitLoad(Setup k, SentCase c) {
        try {
            return await(c.loading, Phase.LOAD, k.backend(), k.model());
        } catch (RuntimeException e) {
            if (c.running != null) {
                c.running.exceptionally(x -> null); // fails on the missing session: the load's failure is the case's
            }
            throw PageLoadDiagnostician.diagnosed(e, c, "onnxruntime-web " + provider.ortWebVersion(), remaining(k.deadline()),
                    where(k.backend()));
        }
    }

    /** A case's runs and what the page said of its memory when the session was released. */
    private record Ran(RunOutcome outcome, Released released) {
    }

    /** Runs the case's scenario on its session, then releases the session whether or not the run failed. */
    private Ran runThenRelease(Setup k, SentCase c, LoadedSession s, BrowserMemorySampler memory) {
        RunOutcome r;
        try {
            r = runScenario(k, c, s.sessionId(), memory);
            k.warmth().ran(k.backend(), k.durations());
            memory.sampleNow();
        } catch (RuntimeException e) {
            release(k, c, s);
            throw e;
        }
        return new Ran(r, release(k, c, s));
    }

    /** The browser side's one dispatch on what a case does: each scenario is a job of its own on the page. */
    private RunOutcome runScenario(Setup k, SentCase c, String session, BrowserMemorySampler memory) {
        ExecutionRequest request = k.request();
        ConnectedPage p = k.page();
        BackendId backend = k.backend();
        ModelSpec model = k.model();
        boolean single = k.single();
        long deadline = k.deadline();
        MinDurations d = k.durations();
        OutputBudget budget = k.budget();
        return request.modelCase().scenario().accept(new Scenario.Cases<RunOutcome>() {
            @Override
            public RunOutcome singlePass(Scenario.SinglePass x) {
                RunOutcome first = single ? null : await(PageSessions.of(p).runFirst(session, request.modelCase().inputs(),
                        TimeBudget.min(remaining(deadline), TimeBudget.FIRST_RUN_LIMIT)), Phase.RUN, backend, model);
                memory.stopSampling(); // nothing of the harness samples while the page times its runs
                Duration timed = single ? remaining(deadline) : TimeBudget.min(remaining(deadline), TimeBudget.forTimedRuns(
                        first.firstMs(), request.warmups(), request.iterations(), d.budget(), Math.min(budget.bytes(), 1L << 31)));
                RunOutcome timedRuns = await(single ? c.running : PageSessions.of(p).run(session, null, request.warmups(),
                        request.iterations(), d, timed, budget, request.progress()), Phase.RUN, backend, model);
                return single ? timedRuns : timedRuns.after(first);
            }

            @Override
            public RunOutcome generation(Generation g) {
                // one job: the cold generation, the warm-ups, the timed ones and the teacher-forced pass (an
                // encoder-decoder's encoder served beside its decoder for the job)
                memory.stopSampling();
                ModelRegistry.ModelRef encoder = g.encoder() == null ? null : ModelRegistry.of(server).register(g.encoder().model().path());
                try {
                    return await(PageSessions.of(p).generate(session, request.modelCase().inputs(), g, encoder, request.warmups(),
                            d, request.iterations(), remaining(deadline), budget, request.progress()), Phase.RUN, backend, model);
                } finally {
                    if (encoder != null) {
                        ModelRegistry.of(server).unregister(encoder);
                    }
                }
            }
        });
    }

    /**
     * Releases the case's session on a page still in use; a single run's release is not awaited (its answer is all the
     * case waits for), any other's is, so the next case finds the page's memory given back, and its answer holds the case's
     * memory window ({@link Released#UNKNOWN} when not awaited or not answered) and the placement check the load left for
     * it, if any (one more session made: bounded as a load is).
     */
    private Released release(Setup k, SentCase c, LoadedSession s) {
        ConnectedPage p = k.page();
        if (p.isOpen() && !lane.relaunching()) {
            boolean checkLeft = c.checkMayWait() && s.onRequested() == null;
            // a single run's release is not awaited and may wait in the page's queue behind the cases sent after it (found
            // when tried: a WebGPU case of 10 s queued ahead made the 10 s bound fire, and the late answer a protocol error)
            CompletableFuture<Released> released = PageSessions.of(p).releaseWithLedger(s.sessionId(),
                    k.single() ? Duration.ofMinutes(10) : checkLeft ? Duration.ofSeconds(10).plus(TimeBudget.min(remaining(k.deadline()),
                            k.request().effectiveLoadTimeout())) : Duration.ofSeconds(10))
                    .whenComplete((v, e) -> {
                        if (e != null) {
                            LOG.warn("Releasing session {} failed: {}", s.sessionId(), e.toString());
                        }
                    });
            if (!k.single()) {
                return released.exceptionally(e -> Released.UNKNOWN).join();
            }
        }
        return Released.UNKNOWN;
    }

    /** The case's answers as an {@link Execution}: timings, warnings, memory, cold start and placement, the drill-down. */
    private Execution execution(Setup k, SentCase c, LoadedSession s, Ran ran, BrowserMemorySampler memory) {
        BackendId backend = k.backend();
        RunOutcome r = ran.outcome();
        double firstMs = Double.isNaN(r.firstMs()) ? (r.samplesMs().length > 0 ? r.samplesMs()[0] : Double.NaN) : r.firstMs();
        // an encoder-decoder's encoder session is made for its generation job: its creation is load, as natively
        LoadedSession enc = r.encoder().orElse(null);
        double loadMs = s.sessionMs() + (enc == null ? 0 : enc.sessionMs());
        Timings t = r.timings(loadMs, firstMs);
        LinkedHashSet<String> warnings = new LinkedHashSet<>(s.warnings());
        warnings.addAll(r.warnings());
        k.probe().isolationWarning(backend).ifPresent(warnings::add);
        EngineObserved.unobserved(provider.engine(), s.modules()).ifPresent(warnings::add);
        MemoryUsage mem = PageMemory.of(memory.finish(), ran.released(), backend, r.jsHeapBytes());
        var placement = s.placement(k.ep());
        if (placement == null && ran.released().placementCheck() != null) {
            // the check the page left for the release (its first session on the provider)
            placement = ran.released().placementCheck().placement(k.ep());
        }
        Analysis analysis = new Analysis(null, null, new ColdStart(s.fetchMs() + (enc == null ? 0 : enc.fetchMs()), loadMs, firstMs,
                t.p50Ms(), k.warmth().firstCase()), null, enc == null || placement == null ? placement : placement.and(enc.placement(k.ep()), "the encoder"));
        if (k.request().profileIterations() > 0 || k.request().recreate() > 0
                || PageAnalysis.readsComputedPrecision(k.request().modelCase(), k.ep())) {
            analysis = drillDown(k, c, analysis);
        }
        return new Execution(r.outputs(), t, mem, provider.provenance(backend, k.ep(), s.modules()).withThreads(s.numThreads() > 0 ? s.numThreads() : null),
                new ArrayList<>(warnings), analysis);
    }

    /** The drill-down: it runs after the timed session is done, each part on a session of its own. */
    private Analysis drillDown(Setup k, SentCase c, Analysis analysis) {
        ExecutionRequest request = k.request();
        PageAnalysis pa = new PageAnalysis(k.page(), c.ref, c.external, k.ep(), request.modelCase(), request.threads(),
                PageOptions.graphOptimizationLevel(PageOptions.on(request, k.engine())), new PageAnalysis.Awaiter() {
            @Override
            public <T> T await(CompletableFuture<T> f) {
                return BrowserCase.this.await(f, Phase.RUN, k.backend(), k.model());
            }
        });
        BrowserHandle h = lane.handle();
        return pa.drillDown(request, remaining(k.deadline()), k.probe(), () -> h == null ? -1 : h.rssBytes().orElse(-1), analysis);
    }

    /** Whether {@code request} can run here at all; throws what the case's verdict is when not. */
    private void admit(ExecutionRequest request, PageProbe probe) {
        BackendId backend = request.backend();
        Availability a = provider.probe(backend);
        if (!a.available()) {
            throw new BackendUnavailableException(a.evidence() + " [" + provider.browserLabel() + "]", ExecutionProviderSpec.of(backend).fixWhenMissing());
        }
        ModelSpec model = request.modelCase().model();
        if (noProvider.containsKey(backend)) { // this page's onnxruntime-web cannot start the provider: no page, no relaunch to learn it again
            throw PageFailures.noProvider(backend, model, noProvider.get(backend), where(backend), null);
        }
        // will it run here? float16 without the lane's support, or a model beyond its limits, is UNSUPPORTED now, not after
        // minutes of loading
        LaneFit.checkPrecision(backend, model, request.modelCase().precision(), probe, provider.browserLabel());
        LaneFit.check(request.modelCase(), backend, probe, " [" + provider.browserLabel() + "]");
    }

    private <T> T await(CompletableFuture<T> f, Phase phase, BackendId backend, ModelSpec model) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExecutionFailedException(phase, "Interrupted while " + backend + " ran " + model.name(), null, e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (!(c instanceof PageJobException pj)) {
                throw new ExecutionFailedException(phase, "Case " + model.name() + " on " + backend + " failed: " + c, null, c);
            }
            BrowserHandle handle = lane.handle();
            String process = handle == null ? "" : handle.isAlive() ? "; browser process still running" : "; browser process is gone";
            PageFailures.Failure failure = PageFailures.of(pj, phase, backend, model, lane.probe(), where(backend), process);
            if (failure.then() == PageFailures.Then.NO_PROVIDER) {
                noProvider.put(backend, pj.getMessage());
            }
            lane.failed(failure.then(), backend);
            throw failure.exception();
        }
    }

    /** {@code [chromium 156.0… via playwright, onnxruntime-web 1.30.0, adapter …]}: the environment, for messages. */
    private String where(BackendId backend) {
        return " [" + provider.browserLabel() + " via " + provider.driver().id() + ", onnxruntime-web " + provider.ortWebVersion()
                + (backend == BackendId.WEBGPU ? ", adapter " + lane.probe().webgpu().label() : "") + "]";
    }

    private static Duration remaining(long deadline) {
        long ns = deadline - System.nanoTime();
        return Duration.ofNanos(Math.max(ns, 1_000_000));
    }
}
