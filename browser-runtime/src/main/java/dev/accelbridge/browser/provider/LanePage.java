package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;

import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.browser.launch.BrowserLauncher;
import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.HeadlessSurface;
import dev.accelbridge.browser.launch.HeadlessSurfaces;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.bridge.protocol.PageHost;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The browser a {@link BrowserBackendProvider} runs its cases in and the page they run on, kept fit for the next case:
 * after a crash, a hang or a lost device the browser is relaunched; after a session failed in a way that may have left
 * the page's onnxruntime-web broken, the page is replaced by a fresh one in the same browser ({@link PageLaunch#renew});
 * after an inference threw, the page is first asked to answer {@link PageCheck} and replaced only if it does not. Counts
 * each, so a run can say what its failures cost. A page joined by hand is never replaced. Not thread-safe.
 */
final class LanePage {
    private static final Logger LOG = LoggerFactory.getLogger(LanePage.class);
    /** A healthy page answers the check in milliseconds (a WebGPU one in well under a second, its shaders compiled). */
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(30);

    private final BridgeServer server;
    private final LaunchOptions launchOptions;
    /** What this lane's browser got of the headless-surface layer, decided once a launch (a renewed page keeps its browser). */
    private HeadlessSurface headlessSurface = new HeadlessSurface.NotAsked("a page joined by hand: its browser was not launched here");
    private final BrowserLauncher launcher;
    private final OrtWebBuild ortWeb;
    private final PageWarmth warmth = new PageWarmth();
    private BrowserHandle handle;
    private ConnectedPage page;
    private PageProbe probe;
    private String browserVersion;
    private boolean needsRestart;
    /**
     * Set after a session failed in the page in a way that may have broken it. onnxruntime-web is one WebAssembly module
     * for every execution provider; a failed session (a C++ exception inside it, e.g. WebNN's "ERROR_CODE: 6 ...
     * raw_hash_map<>::at") can leave that module's state broken, and the next hop of a fallback chain then computed
     * garbage in the same page (seen: wasm giving Infinity after a failed webnn-cpu session; every WebGPU kernel refusing
     * to run, "not allowed to be called recursively", after one WebGPU kernel threw).
     */
    private boolean needsFreshPage;
    /** The providers an inference failed on since the last case: checked before the next one. */
    private final Set<BackendId> toCheck = EnumSet.noneOf(BackendId.class);
    private int restarts;
    private int freshPages;
    private int checks;

    /** Why this lane's WebGPU is refused (a software adapter where the GPU's was asked for), kept for its fresh pages. */
    private Optional<String> webGpuRefused = Optional.empty();

    private LanePage(BridgeServer server, LaunchOptions launchOptions, BrowserLauncher launcher, OrtWebBuild ortWeb) {
        this.server = server;
        this.launchOptions = launchOptions;
        this.launcher = launcher;
        this.ortWeb = ortWeb;
    }

    /** Launches the browser on the bridge's page and waits for the page to join. */
    static LanePage launch(BridgeServer server, LaunchOptions launchOptions, BrowserLauncher launcher, OrtWebBuild ortWeb) {
        LanePage l = new LanePage(server, launchOptions, launcher, ortWeb);
        l.adopt(PageLaunch.start(server, launchOptions, launcher, ortWeb));
        l.headlessSurface = HeadlessSurfaces.of(launchOptions);
        return l;
    }

    /** The V8 flags of a Chromium build launched here; empty for Firefox and for a page joined by hand (unknown). */
    Optional<String> v8Flags() {
        return launchOptions == null ? Optional.empty() : ChromiumFlags.jsFlags(launchOptions);
    }

    /** What this lane's adapter is a variant of where it is one ({@link WebGpuAdapter#variantNote}); empty otherwise. */
    Optional<String> adapterVariant() {
        return launchOptions == null ? Optional.empty() : launchOptions.webGpuAdapter().variantNote();
    }

    /** Whether this lane's browser got the headless-surface layer ({@link HeadlessSurfaces}: the decision its launch made). */
    HeadlessSurface headlessSurface() {
        return headlessSurface;
    }

    /** A page a person opened by hand: used as it is, never replaced. */
    static LanePage byHand(BridgeServer server, ConnectedPage page) {
        LanePage l = new LanePage(server, null, null, null);
        l.page = page;
        l.probe = page.probe();
        l.browserVersion = PageHost.browserFromUserAgent(l.probe.userAgent())[1];
        return l;
    }

    /**
     * Makes the page fit for the next case: relaunches a browser that is gone, crashed or hung, replaces a page that is
     * not trusted, checks one an inference failed in.
     *
     * @param label the browser, for messages
     * @throws ExecutionFailedException when a page joined by hand has left
     */
    void ready(String label) {
        boolean dead = page == null || !page.isOpen() || (handle != null && !handle.isAlive());
        if (!toCheck.isEmpty() && !needsRestart && !needsFreshPage && !dead && launcher != null) {
            check(label);
        }
        toCheck.clear();
        if (!needsRestart && !needsFreshPage && !dead) {
            return;
        }
        if (launcher == null) {
            throw new ExecutionFailedException(Phase.CRASH, "The page joined by hand (" + label + ") has left",
                    "open the bridge URL again in that browser", null);
        }
        if (!needsRestart && !dead) { // a fresh page in the same browser: a page load, not a browser launch
            try {
                adopt(PageLaunch.renew(server, handle, page, label + " via " + launcher.driver().id(), ortWeb, webGpuRefused));
                freshPages++;
                return;
            } catch (RuntimeException e) {
                LOG.info("A fresh page in {} did not join ({}): relaunching it", label, e.getMessage());
            }
        }
        LOG.info("Relaunching {} ({})", label, needsRestart ? "after a failed case" : "browser gone");
        if (handle != null) {
            handle.kill();
            handle.close();
            handle = null;
        }
        restarts++;
        adopt(PageLaunch.start(server, launchOptions, launcher, ortWeb));
        headlessSurface = HeadlessSurfaces.of(launchOptions);
    }

    private void check(String label) {
        checks++;
        Set<BackendId> backends = EnumSet.copyOf(toCheck);
        backends.add(BackendId.WASM); // every provider runs inside the one WebAssembly module
        for (BackendId b : backends) {
            PageCheck.Outcome o = PageCheck.run(page, ExecutionProviderSpec.of(b, OrtWebEngine.orPinned(
                    java.util.Optional.ofNullable(ortWeb).map(OrtWebBuild::engine))), CHECK_TIMEOUT);
            if (!o.exact()) {
                LOG.info("The page of {} failed its check after a failed inference ({}): {}", label, o.detail(), o.answered()
                        ? "a fresh page" : "relaunching the browser");
                needsRestart |= !o.answered();
                needsFreshPage = true;
                return;
            }
        }
    }

    /** What a failed page job asks for before the next case ({@link PageFailures.Then#NO_PROVIDER} is the provider's). */
    void failed(PageFailures.Then then, BackendId backend) {
        switch (then) {
            case KILL_AND_RESTART -> {
                needsRestart = true;
                if (handle != null) {
                    handle.kill();
                }
            }
            case RESTART -> needsRestart = true;
            case FRESH_PAGE -> needsFreshPage = launcher != null;
            case CHECK_PAGE -> toCheck.add(backend);
            case NEXT_CASE, NO_PROVIDER -> {
            }
        }
    }

    /** The next case starts in a fresh browser (a retry of a FAILED case); a page joined by hand stays. */
    void relaunchForRetry() {
        needsRestart = launcher != null;
    }

    /** Whether the browser will be relaunched before the next case (the page's sessions need no release). */
    boolean relaunching() {
        return needsRestart;
    }

    private void adopt(PageLaunch.Launched l) {
        handle = l.handle();
        page = l.page();
        warmth.reset();
        probe = l.probe();
        webGpuRefused = l.webGpuRefused();
        browserVersion = handle.version();
        needsRestart = false;
        needsFreshPage = false;
    }

    BrowserHandle handle() {
        return handle;
    }

    ConnectedPage page() {
        return page;
    }

    PageProbe probe() {
        return probe;
    }

    /** The browser's build: the launched one's, or what a page joined by hand's user agent says. */
    String browserVersion() {
        return browserVersion;
    }

    PageWarmth warmth() {
        return warmth;
    }

    /** Whether this lane launched its browser (and so can relaunch it and replace its page). */
    boolean launched() {
        return launcher != null;
    }

    int restarts() {
        return restarts;
    }

    int freshPages() {
        return freshPages;
    }

    int checks() {
        return checks;
    }

    void close() {
        if (handle != null) {
            handle.close();
            handle = null;
        }
    }
}
