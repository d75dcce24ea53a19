package dev.accelbridge.browser.bridge;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.browser.launch.BrowserLauncher;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.browser.page.PageProbe;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.TimeBudget;
import dev.accelbridge.core.Timings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One browser as a core {@link BackendProvider} for {@code webgpu}, {@code webnn-*} and {@code wasm}. It launches the
 * browser on the bridge's page, waits for the page to join, answers probes from the page's own probe, and executes
 * each case as load → run → release jobs. One browser serves every case; when it crashes, hangs (timeout) or loses
 * its GPU device, that case fails with the reason and the browser is relaunched for the next case.
 *
 * <p>Not thread-safe: one case at a time per provider (the page runs one job at a time anyway).
 */
@PublicApi
public final class BrowserBackendProvider implements BackendProvider {
    private static final Logger LOG = LoggerFactory.getLogger(BrowserBackendProvider.class);
    private static final Set<BackendId> BACKENDS = EnumSet.of(BackendId.WEBGPU, BackendId.WEBNN_GPU, BackendId.WEBNN_CPU,
            BackendId.WEBNN_NPU, BackendId.WASM);


    private final BridgeServer server;
    private final OrtWebBuild ortWeb;
    private final LanePage lane;
    private final String browserName;
    private final DriverKind driver;
    /** Providers this page's onnxruntime-web cannot start (its own error): a property of the lane, not of a case. */
    private final Map<BackendId, String> noProvider = new java.util.EnumMap<>(BackendId.class);
    private final LookAhead ahead = new LookAhead();

    /** Launches the browser of {@code launch} through its driver's launcher and waits for its page to join. */
    public BrowserBackendProvider(BridgeServer server, LaunchOptions launch) {
        this(server, launch, BrowserLaunchers.forDriver(launch.driver()), OrtWebBuild.pinned());
    }

    /**
     * Launches through {@code launcher} ({@link BrowserLaunchers#forDriver}, or one built for a Grid) a page that loads
     * onnxruntime-web {@code ortWeb}.
     *
     * @throws UnsupportedModelException when that onnxruntime-web does not load in this browser (its import's error)
     */
    public BrowserBackendProvider(BridgeServer server, LaunchOptions launch, BrowserLauncher launcher, OrtWebBuild ortWeb) {
        this.server = server;
        this.ortWeb = ortWeb;
        this.driver = launcher.driver();
        this.browserName = launch.browser().id();
        this.lane = LanePage.launch(server, launch, launcher, ortWeb);
    }

    private BrowserBackendProvider(BridgeServer server, ConnectedPage page) {
        this.server = server;
        this.ortWeb = null; // the page loaded what its own URL asked for
        this.driver = DriverKind.MANUAL;
        this.lane = LanePage.byHand(server, page);
        this.browserName = page.probe().browserFromUserAgent()[0];
    }

    /** A provider over a page a person opened by hand ({@code accelbridge serve}); it cannot be relaunched. */
    public static BrowserBackendProvider attach(BridgeServer server, ConnectedPage page) {
        return new BrowserBackendProvider(server, page);
    }

    @Override
    public String name() {
        return "browser:" + browserName + "/" + driver.id();
    }

    @Override
    public Set<BackendId> backends() {
        return BACKENDS;
    }

    @Override
    public int priority() {
        return 10;
    }

    /** The browser's name as results carry it ({@code chromium}, {@code chromium-shell}, {@code firefox}). */
    public String browserName() {
        return browserName;
    }

    /** The browser build. */
    public String browserVersion() {
        return lane.browserVersion();
    }

    /** onnxruntime-web's version in the page: what the page reports, else what its URL asked for. */
    public String ortWebVersion() {
        ConnectedPage page = lane.page();
        return page != null && page.ortVersion() != null ? page.ortVersion() : ortWeb != null ? ortWeb.version() : null;
    }

    /** Where this provider's cases run: its browser, the browser's major version and onnxruntime-web's version. */
    public LaneId laneId() {
        return new LaneId(BrowserKind.fromName(browserName), LaneId.majorOf(browserVersion()), ortWebVersion());
    }

    /** {@code chromium 156.0.8078.73}. */
    public String browserLabel() {
        String v = browserVersion();
        return v == null ? browserName : browserName + " " + v;
    }

    /** How the browser was started. */
    public DriverKind driver() {
        return driver;
    }

    /** The current page's probe. */
    public PageProbe pageProbe() {
        return lane.probe();
    }

    /** The current page (for benchmarks and ping jobs). */
    public ConnectedPage page() {
        return lane.page();
    }

    /** The running browser, empty for a page joined by hand. */
    public Optional<BrowserHandle> handle() {
        return Optional.ofNullable(lane.handle());
    }

    /**
     * Makes the next case start on a fresh page in a fresh browser (what a retry of a FAILED case asks for). A page
     * joined by hand cannot be renewed: the retry runs on it again.
     */
    public void renew() {
        lane.relaunchForRetry();
    }

    /** How many times the browser was relaunched after a crash, hang or lost device (or for a retry). */
    public int restarts() {
        return lane.restarts();
    }

    /**
     * How many times a fresh page replaced the page in the same browser, after a session failed in it (its runtime state
     * is not trusted): a page load, not a launch.
     */
    public int freshPages() {
        return lane.freshPages();
    }

    /** How many times the page was checked ({@link PageCheck}) after an inference failed in it, whatever the answer. */
    public int pageChecks() {
        return lane.checks();
    }

    @Override
    public Availability probe(BackendId backend) {
        if (!BACKENDS.contains(backend)) {
            return Availability.unavailable(backend, backend.id() + " is not a browser backend", browserLabel());
        }
        return lane.probe().availability(backend, browserLabel());
    }

    /** The lane's next cases, sent to the page ahead of their turn while they and the cases before are one timed run ({@link LookAhead}). */
    @Override
    public void upcoming(ExecutionRequest next) {
        ahead.hint(next);
    }

    /** How many cases ran from jobs sent ahead of their turn. */
    public int sentAhead() {
        return ahead.used();
    }

    @Override
    public Execution execute(ExecutionRequest request) {
        try {
            return run(request);
        } catch (RuntimeException e) {
            ahead.drop(server.models()); // the page may be broken or renewed: the next case is sent on its turn
            throw e;
        }
    }

    /** Whether {@code request} can run here at all; throws what the case's verdict is when not. */
    private void admit(ExecutionRequest request, PageProbe probe) {
        BackendId backend = request.backend();
        Availability a = probe(backend);
        if (!a.available()) {
            throw new BackendUnavailableException(a.evidence() + " [" + browserLabel() + "]", ExecutionProviderSpec.of(backend).fixWhenMissing());
        }
        ModelSpec model = request.modelCase().model();
        if (noProvider.containsKey(backend)) { // this page's onnxruntime-web cannot start the provider: no page, no relaunch to learn it again
            throw PageFailures.noProvider(backend, model, noProvider.get(backend), where(backend), null);
        }
        // will it run here? float16 without the lane's support, or a model beyond its limits, is UNSUPPORTED now, not after
        // minutes of loading
        LaneFit.checkPrecision(backend, model, request.modelCase().precision(), probe, browserLabel());
        LaneFit.check(request.modelCase(), backend, probe, " [" + browserLabel() + "]");
    }

    private Execution run(ExecutionRequest request) {
        BackendId backend = request.backend();
        lane.ready(browserLabel());
        PageProbe probe = lane.probe();
        admit(request, probe);
        ModelSpec model = request.modelCase().model();
        Duration timeout = SentCase.timeout(request, server);
        long deadline = System.nanoTime() + timeout.toNanos();
        ExecutionProviderSpec ep = ExecutionProviderSpec.of(backend);
        ConnectedPage p = lane.page();
        PageWarmth warmth = lane.warmth();
        // one timed run and nothing else (the op sweep): the run is sent with the load, before its answer (a run after a
        // failed load fails on the missing session and is not awaited), and the release is not awaited: one round trip a
        // case, and none of its own when the case was sent ahead. Otherwise the first inference alone, then the warm-ups and
        // timed runs under a deadline derived from it (the inputs cross once: the page keeps them).
        boolean single = SentCase.oneRun(request);
        OutputBudget budget = OutputBudget.forCase(request.modelCase(), server.options().maxResultBytes());
        var d = warmth.durations(backend, request.durations());
        SentCase sent = ahead.take(request, p, server.models());
        SentCase c = sent != null ? sent : SentCase.send(p, server, request, d, budget, Duration.ZERO);
        if (SentCase.endsWithItsRun(request)) {
            ahead.sendAhead(p, warmth, server, timeout, n -> admit(n, probe));
        } else {
            ahead.forgetHints();
        }
        BrowserMemorySampler memory = BrowserMemorySampler.start(lane.handle());
        try {
            LoadedSession s;
            try {
                s = await(c.loading, Phase.LOAD, backend, model);
            } catch (RuntimeException e) {
                if (c.running != null) {
                    c.running.exceptionally(x -> null); // fails on the missing session: the load's failure is the case's
                }
                throw e;
            }
            RunOutcome r;
            try {
                RunOutcome first = single ? null : await(p.runFirst(s.sessionId(), request.modelCase().inputs(),
                        TimeBudget.min(remaining(deadline), TimeBudget.FIRST_RUN_LIMIT)), Phase.RUN, backend, model);
                memory.stopSampling(); // nothing of the harness samples while the page times its runs
                Duration timed = single ? remaining(deadline) : TimeBudget.min(remaining(deadline), TimeBudget.forTimedRuns(
                        first.firstMs(), request.warmups(), request.iterations(), d.budget(), Math.min(budget.bytes(), 1L << 31)));
                r = await(single ? c.running : p.run(s.sessionId(), null, request.warmups(), request.iterations(),
                        d, timed, budget, request.progress()), Phase.RUN, backend, model);
                r = single ? r : r.after(first);
                warmth.ran(backend);
                memory.sampleNow();
            } finally {
                if (p.isOpen() && !lane.relaunching()) {
                    CompletableFuture<Void> released = p.release(s.sessionId(), Duration.ofSeconds(10)).whenComplete((v, e) -> {
                        if (e != null) {
                            LOG.warn("Releasing session {} failed: {}", s.sessionId(), e.toString());
                        }
                    });
                    if (!single) {
                        released.exceptionally(e -> null).join();
                    }
                }
            }
            double firstMs = Double.isNaN(r.firstMs()) ? (r.samplesMs().length > 0 ? r.samplesMs()[0] : Double.NaN) : r.firstMs();
            Timings t = r.timings(s.sessionMs(), firstMs);
            LinkedHashSet<String> warnings = new LinkedHashSet<>(s.warnings());
            warnings.addAll(r.warnings());
            probe.isolationWarning(backend).ifPresent(warnings::add);
            MemoryUsage mem = memory.finish();
            // the drill-down runs after the timed session is done, each part on a session of its own
            Analysis analysis = new Analysis(null, null, new ColdStart(s.fetchMs(), s.sessionMs(), firstMs, t.p50Ms(), warmth.firstCase()), null,
                    request.checksPlacement() ? s.placement(ep) : null);
            if (request.profileIterations() > 0 || request.recreate() > 0) {
                PageAnalysis pa = new PageAnalysis(p, c.ref, c.external, ep, request.modelCase(), request.threads(), new PageAnalysis.Awaiter() {
                    @Override
                    public <T> T await(CompletableFuture<T> f) {
                        return BrowserBackendProvider.this.await(f, Phase.RUN, backend, model);
                    }
                });
                BrowserHandle h = lane.handle();
                analysis = pa.drillDown(request, remaining(deadline), probe, () -> h == null ? -1 : h.rssBytes().orElse(-1), analysis);
            }
            return new Execution(r.outputs(), t, mem, provenance(backend, ep).withThreads(s.numThreads() > 0 ? s.numThreads() : null),
                    new ArrayList<>(warnings), analysis);
        } finally {
            memory.close();
            c.unregister(server.models());
        }
    }

    /** The page's provenance for a case on {@code backend}. */
    Provenance provenance(BackendId backend, ExecutionProviderSpec ep) {
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("onnxruntime-web", ortWebVersion());
        String browserVersion = browserVersion();
        if (browserVersion != null) {
            versions.put(browserName, browserVersion);
        }
        boolean gpu = backend == BackendId.WEBGPU;
        PageProbe.WebGpu g = lane.probe().webgpu();
        Provenance p = Provenance.of(browserName, browserVersion, driver.id(), gpu ? g.label() : null, gpu ? g.software() : null,
                List.of(ep.toString()), versions);
        p = p.withVerified(PageLaunch.verified(ortWeb, lane.handle()));
        return remoteHost().map(p::withHost).orElse(p);
    }

    /**
     * The machine the browser runs on when it is not this one: a Selenium Grid node, or the device of a page joined by
     * hand; empty for a browser launched here.
     */
    public Optional<dev.accelbridge.core.HostInfo> remoteHost() {
        PageProbe probe = lane.probe();
        if (!lane.launched() && lane.page() != null) {
            return Optional.of(probe.device(lane.page().remoteAddress())); // joined by hand: the device is its own host
        }
        BrowserHandle handle = lane.handle();
        return handle == null ? Optional.empty() : handle.remoteHost().map(h -> probe == null ? h : probe.onHost(h));
    }

    @Override
    public void close() {
        lane.close();
    }

    // ---- internals ---------------------------------------------------------------------------------------------

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
        return " [" + browserLabel() + " via " + driver.id() + ", onnxruntime-web " + ortWebVersion()
                + (backend == BackendId.WEBGPU ? ", adapter " + lane.probe().webgpu().label() : "") + "]";
    }

    private static Duration remaining(long deadline) {
        long ns = deadline - System.nanoTime();
        return Duration.ofNanos(Math.max(ns, 1_000_000));
    }

    @Override
    public String toString() {
        return name() + " " + browserLabel().toLowerCase(Locale.ROOT);
    }
}
