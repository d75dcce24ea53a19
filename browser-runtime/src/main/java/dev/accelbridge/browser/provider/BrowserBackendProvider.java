package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.ModelRegistry;
import dev.accelbridge.core.HostInfo;

import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.browser.launch.BrowserMajorAxis;
import dev.accelbridge.browser.launch.BrowserLauncher;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.HeadlessSurface;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.page.OrtWebAxis;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.browser.page.OrtWebEngineAxis;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.bridge.protocol.PageHost;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Provenance;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One browser as a core {@link BackendProvider} for {@code webgpu}, {@code webnn-*} and {@code wasm}. It launches the
 * browser on the bridge's page, waits for the page to join ({@link LanePage}), answers probes from the page's own probe,
 * and executes each case as load → run → release jobs ({@link BrowserCase}). One browser serves every case; when it crashes, hangs (timeout) or loses
 * its GPU device, that case fails with the reason and the browser is relaunched for the next case.
 *
 * <p>Not thread-safe: one case at a time per provider (the page runs one job at a time anyway).
 */
@PublicApi
public final class BrowserBackendProvider implements BackendProvider {
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
    /** How each case runs on the lane's page. */
    private final BrowserCase cases;

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
        this.cases = new BrowserCase(this, server, lane, ahead, noProvider);
    }

    private BrowserBackendProvider(BridgeServer server, ConnectedPage page) {
        this.server = server;
        this.ortWeb = null; // the page loaded what its own URL asked for
        this.driver = DriverKind.MANUAL;
        this.lane = LanePage.byHand(server, page);
        this.browserName = PageHost.browserFromUserAgent(page.probe().userAgent())[0];
        this.cases = new BrowserCase(this, server, lane, ahead, noProvider);
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

    /**
     * Where this provider's cases run: its browser, the browser's major version, onnxruntime-web's version and engine (not
     * known for a page joined by hand).
     */
    public LaneId laneId() {
        BrowserKind kind = BrowserKind.fromName(browserName);
        return LaneId.of(kind).with(BrowserMajorAxis.DIMENSION.name(), kind.release(browserVersion())).with(OrtWebAxis.DIMENSION.name(), ortWebVersion())
                .with(OrtWebEngineAxis.DIMENSION.name(), ortWeb == null ? null : ortWeb.engine().id());
    }

    /** The engine this lane's page was asked to run, or empty for a page joined by hand. */
    Optional<OrtWebEngine> engine() {
        return Optional.ofNullable(ortWeb).map(OrtWebBuild::engine);
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
            return cases.run(request);
        } catch (RuntimeException e) {
            ahead.drop(ModelRegistry.of(server)); // the page may be broken or renewed: the next case is sent on its turn
            throw e;
        }
    }

    /**
     * The page's provenance for a case on {@code backend}, whose session the page made with the WebAssembly
     * {@code modules} it names (recorded with their sha256 as this lane's build serves them: the engine that ran).
     */
    Provenance provenance(BackendId backend, ExecutionProviderSpec ep, List<String> modules) {
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("onnxruntime-web", ortWebVersion());
        if (ortWeb != null) {
            ortWeb.modules(modules).ifPresent(m -> versions.put("onnxruntime-web-module", m));
        }
        String browserVersion = browserVersion();
        if (browserVersion != null) {
            versions.put(browserName, browserVersion);
        }
        lane.v8Flags().ifPresent(f -> versions.put("v8-flags", f));
        boolean gpu = backend == BackendId.WEBGPU;
        PageProbe.WebGpu g = lane.probe().webgpu();
        // the browser's Vulkan through Accelbridge's layer is said where the adapter is, and the layer's hash with the code verified
        HeadlessSurface.Layered layered = lane.headlessSurface() instanceof HeadlessSurface.Layered l ? l : null;
        Provenance p = Provenance.of(browserName, browserVersion, driver.id(),
                gpu ? g.label() + (layered != null ? ", through the headless-surface layer" : "")
                        + lane.adapterVariant().map(v -> ", " + v).orElse("") : null, gpu ? g.software() : null,
                List.of(ep.toString()), versions);
        Map<String, String> verified = new LinkedHashMap<>(PageLaunch.verified(ortWeb, lane.handle()));
        if (layered != null) {
            verified.put("headless-surface layer", "sha256 " + layered.layerSha256() + layered.note());
        }
        p = p.withVerified(verified);
        return remoteHost().map(p::withHost).orElse(p);
    }

    /**
     * The machine the browser runs on when it is not this one: a Selenium Grid node, or the device of a page joined by
     * hand; empty for a browser launched here.
     */
    public Optional<HostInfo> remoteHost() {
        PageProbe probe = lane.probe();
        if (!lane.launched() && lane.page() != null) {
            return Optional.of(PageHost.device(probe, lane.page().remoteAddress())); // joined by hand: the device is its own host
        }
        BrowserHandle handle = lane.handle();
        return handle == null ? Optional.empty() : handle.remoteHost().map(h -> probe == null ? h : PageHost.onHost(probe, h));
    }

    @Override
    public void close() {
        lane.close();
    }

    @Override
    public String toString() {
        return name() + " " + browserLabel().toLowerCase(Locale.ROOT);
    }
}
