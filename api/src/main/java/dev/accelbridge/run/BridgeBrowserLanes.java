package dev.accelbridge.run;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.PageNotJoinedException;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.BrowserLaunchException;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.browser.launch.BrowserMajorAxis;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.npm.NpmException;
import dev.accelbridge.browser.page.OrtWebAxis;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.browser.page.OrtWebEngineAxis;
import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.VersionAxes;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Browser lanes through one loopback bridge: each browser is launched by its driver (Firefox, which has no
 * driver here, as a plain process), joins the bridge over WebSocket, probes, and is reused for all its cases. A lane's
 * target names the browser's major (the headless shell of any major comes from the npm registry) and the onnxruntime-web
 * its page loads ({@link OrtWebBuild}: the pinned build, or a release fetched at first use).
 */
public final class BridgeBrowserLanes implements BrowserLanes {
    private final RunPlan plan;
    private final Map<String, String> runtimeVersions;
    private final List<BrowserBackendProvider> providers = new ArrayList<>();
    private BridgeServer server;

    /** Lanes for {@code plan}; the bridge starts with the first lane. */
    public BridgeBrowserLanes(RunPlan plan, Map<String, String> runtimeVersions) {
        this.plan = plan;
        this.runtimeVersions = Map.copyOf(runtimeVersions);
    }

    @Override
    public Lane open(LaneId target, Collection<BackendId> backends) {
        BrowserSpec spec = BrowserSpec.of(target);
        LaunchOptions.Builder lo = LaunchOptions.builder().browser(spec.kind()).headless(plan.targets().headless()).addArgs(engineArgs(plan, spec.kind()))
                .webGpuAdapter(plan.targets().webGpuAdapter());
        refuseRemoteShell(spec);
        if (plan.targets().driver() != DriverKind.GRID && plan.targets().remote().connect().isEmpty()) { // a remote browser is found where it runs
            InstalledBrowser installed = installed(spec);
            if (spec.major() != null) {
                lo.executable(installed.executable());
            }
        }
        OrtWebBuild ortWeb = ortWeb(target);
        BridgeServer bridge = sharedBridge();
        DriverKind driver = plan.targets().driverOf(spec.kind());
        plan.targets().grid().ifPresent(lo::gridUrl);
        plan.targets().remote().connect().ifPresent(lo::connect);
        plan.targets().remote().executable().filter(x -> spec.kind() == BrowserKind.CHROMIUM).ifPresent(x -> lo.executable(java.nio.file.Path.of(x)));
        lo.capabilities(plan.targets().remote().gridCapabilities());
        BrowserBackendProvider p = launch(bridge, lo, driver, ortWeb);
        synchronized (this) {
            providers.add(p);
        }
        return laneOf(p, backends, runtimeVersions);
    }

    /** The headless shell is unpacked here: a Playwright server elsewhere has none. */
    private void refuseRemoteShell(BrowserSpec spec) {
        if (plan.targets().remote().connect().isPresent() && spec.kind() == BrowserKind.CHROMIUM_SHELL) {
            throw new BackendUnavailableException("The headless shell runs only where Accelbridge unpacks it, not on the Playwright "
                    + "server at " + plan.targets().remote().connect().get(), "ask for chromium (or firefox) with --connect");
        }
    }

    /** The browser {@code spec} names as installed on this host (a headless shell of its major fetched); unavailable if none. */
    private static InstalledBrowser installed(BrowserSpec spec) {
        try {
            return BrowserDiscovery.find(spec).orElseThrow(() -> new BackendUnavailableException(spec + " is not installed on "
                    + "this host (browser discovery found " + BrowserDiscovery.findAll().stream().map(b -> b.kind().id() + " " + b.version())
                    .toList() + ")", spec.major() == null ? "install it (./setup.sh installs Debian's chromium; the build the headless "
                    + "shell) or drop it from --browser" : "only the headless shell is fetched at any major: ask for " + spec.kind().id()
                    + " without a version, or chromium-shell@" + spec.major()));
        } catch (BrowserLaunchException e) {
            throw new BackendUnavailableException(e.getMessage(), e.fix()); // a shell of that major could not be had
        }
    }

    /** The onnxruntime-web build and engine the target names (the pinned engine when it names none); unavailable if it cannot be had. */
    private static OrtWebBuild ortWeb(LaneId target) {
        try {
            return OrtWebBuild.of(target.version(OrtWebAxis.DIMENSION.name())).withEngine(OrtWebEngine.orPinned(OrtWebEngine.of(target)));
        } catch (NpmException e) {
            throw new BackendUnavailableException("onnxruntime-web " + target.version(OrtWebAxis.DIMENSION.name()) + " could not be had: " + e.getMessage(), e.fix());
        }
    }

    /** The one bridge all lanes' browsers join, started with the first lane (parallel lanes open from their own threads). */
    private synchronized BridgeServer sharedBridge() {
        if (server == null) {
            // the driver's start overlaps the bridge's
            BrowserLaunchers.prewarm(plan.targets().driver());
            server = BridgeServer.start(bridgeOptions(plan));
        }
        return server;
    }

    /** The browser launched by {@code driver} and joined to the bridge; a remote that gave no browser is UNAVAILABLE there. */
    private BrowserBackendProvider launch(BridgeServer bridge, LaunchOptions.Builder lo, DriverKind driver, OrtWebBuild ortWeb) {
        try {
            return new BrowserBackendProvider(bridge, lo.driver(driver).build(), BrowserLaunchers.forDriver(driver), ortWeb);
        } catch (BackendException e) {
            throw e;
        } catch (AccelbridgeException e) {
            // a remote that gave no browser: its cases are UNAVAILABLE there, not this machine's failures
            java.util.Optional<HostInfo> remote = plan.targets().grid().map(g -> RemoteUnavailable.grid(g.getAuthority()))
                    .or(() -> plan.targets().remote().connect().map(RemoteUnavailable::playwrightServer));
            if (remote.isEmpty()) {
                throw e;
            }
            throw new RemoteUnavailable(remote.get(), e.getMessage(), e.fix(), e instanceof PageNotJoinedException);
        }
    }

    /**
     * The browser flags {@code plan}'s sampling asks for of {@code browser}. V8's synchronous tier-up (every Chromium build's,
     * {@code ChromiumFlags.JS_FLAGS}) makes a warmed-up case's figures independent of where it falls in its lane, at the
     * price of stalls while each newly hot function compiles; a run without warm-ups measures no steady state, so it gets
     * the browser's own background tiering (found when tried: 30 odd one-run models in one lane, a load job waited over
     * 30 s behind those stalls).
     */
    static List<String> engineArgs(RunPlan plan, BrowserKind browser) {
        // V8's flag, for Chromium builds only (found when tried: WebKitWebDriver refused it, and every WebKit case FAILED)
        return plan.sampling().warmsUp() || !browser.chromium() ? List.of() : List.of("--js-flags=--no-wasm-sync-tier-up");
    }

    @Override
    public String driver(LaneId target) {
        return plan.targets().driverOf(target.browser()).id();
    }

    /** Closes the lane's browser: its cases are done. */
    @Override
    public void release(LaneId target, Lane lane) {
        BackendProvider p = lane.providers().apply(BackendId.WASM);
        boolean ours;
        synchronized (this) {
            ours = providers.remove(p);
        }
        if (ours) {
            p.close();
        }
    }

    /** The target with the major version of the browser installed here when it names none (a Grid's is known only once it runs). */
    @Override
    public LaneId expected(LaneId target) {
        if (target.version(BrowserMajorAxis.DIMENSION.name()) != null || plan.targets().driver() == DriverKind.GRID || plan.targets().remote().connect().isPresent()) {
            return target;
        }
        try {
            return BrowserDiscovery.find(target.browser()).map(b -> target.with(BrowserMajorAxis.DIMENSION.name(), b.kind().release(b.version()))).orElse(target);
        } catch (RuntimeException e) {
            return target; // a browser that will not say its version fails when it opens, with the reason
        }
    }

    /**
     * The bridge for the plan's browsers: loopback by default; exposed ({@code --bridge-host}, {@code --advertise}), it binds
     * the asked address, gives browsers the advertised URL and requires a token made for this run on every request, so
     * that whoever else reaches that address cannot run jobs or read the run's models.
     */
    static BridgeOptions bridgeOptions(RunPlan plan) {
        BridgeOptions.Builder b = BridgeOptions.builder().jobTimeout(plan.limits().caseTimeout())
                .maxResultBytes(plan.limits().maxResultBytes());
        Exposure e = plan.targets().exposure();
        if (e.exposed()) {
            byte[] secret = new byte[16];
            new java.security.SecureRandom().nextBytes(secret);
            b.host(e.host()).port(e.port()).token(java.util.HexFormat.of().formatHex(secret));
            e.advertisedUrl().ifPresent(b::advertise);
            if (e.secure()) {
                b.tls(e.tls().identity(e.names())); // browsers the run launches trust it by key: their pages are secure contexts
            }
        }
        return b.build();
    }

    /** The lane of one browser provider, launched or attached: its probes' answers and its provenance. */
    static Lane laneOf(BrowserBackendProvider p, Collection<BackendId> backends, Map<String, String> runtimeVersions) {
        Map<BackendId, Availability> probes = new LinkedHashMap<>();
        for (BackendId b : backends) {
            probes.put(b, p.probe(b));
        }
        // the lane's own versions, for cases that never reach the page
        Provenance prov = Provenance.of(p.browserName(), p.browserVersion(), p.driver().id(), null, null, List.of(),
                VersionAxes.recorded(runtimeVersions, p.laneId()));
        java.util.Optional<HostInfo> remote = p.remoteHost();
        return new Lane(p.laneId(), p.browserLabel(), b -> p, probes, remote.map(prov::withHost).orElse(prov), remote, p::renew);
    }

    /** The bridge the lanes' browsers join (null before the first lane opens). */
    BridgeServer bridge() {
        return server;
    }

    @Override
    public synchronized void close() {
        for (BrowserBackendProvider p : providers) {
            try {
                p.close();
            } catch (RuntimeException e) {
                // One browser that will not close must not keep the others or the bridge open.
            }
        }
        providers.clear();
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
