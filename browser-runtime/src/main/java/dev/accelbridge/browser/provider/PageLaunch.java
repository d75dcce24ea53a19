package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.BridgeServerException;
import dev.accelbridge.bridge.PageNotJoinedException;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.core.fetch.CacheEntry;

import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.browser.launch.BrowserLauncher;
import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.browser.page.PageAssets;
import dev.accelbridge.core.UnsupportedModelException;

import java.util.UUID;

/**
 * A browser launched on the bridge's page and the page that joined from it, checked to have loaded the onnxruntime-web
 * its lane asked for: what a {@link BrowserBackendProvider} starts and starts again after a crash.
 */
final class PageLaunch {
    /**
     * The running browser, its joined page, and what the lane takes the page to offer: its probe, with WebGPU refused
     * ({@code webGpuRefused}) where the adapter is not the one asked for.
     */
    record Launched(BrowserHandle handle, ConnectedPage page, PageProbe probe,
                    java.util.Optional<String> webGpuRefused) {
        Launched(BrowserHandle handle, ConnectedPage page, java.util.Optional<String> webGpuRefused) {
            this(handle, page, webGpuRefused.map(page.probe()::withoutWebGpu).orElse(page.probe()), webGpuRefused);
        }
    }

    private PageLaunch() {
    }

    /**
     * Launches, waits for the page to join, and checks its onnxruntime-web.
     *
     * @throws PageNotJoinedException    when the page does not join in time
     * @throws BridgeServerException     when the page loaded another onnxruntime-web than asked for
     * @throws UnsupportedModelException when the asked onnxruntime-web does not load in this browser (its import's error)
     */
    static Launched start(BridgeServer server, LaunchOptions options, BrowserLauncher launcher, OrtWebBuild ortWeb) {
        boolean here = options.gridUrl().isEmpty() && options.connect().isEmpty(); // a remote host's GPU is its own
        if (!options.browser().chromium() || !here) {
            return once(server, options, launcher, ortWeb);
        }
        WebGpuAdapter wanted = options.webGpuAdapter().on(WebGpuAdapter.hostHasGpu());
        if (wanted == WebGpuAdapter.SOFTWARE) {
            return once(server, options.withArgs(ChromiumFlags.SOFTWARE_WEBGPU), launcher, ortWeb);
        }
        return hardware(server, options.withArgs(wanted.variantFlags()), launcher, ortWeb);
    }

    /** The GPU's WebGPU adapter, never a software one: {@link HardwareAdapterSearch} over {@link ChromiumFlags#HARDWARE_WEBGPU}. */
    private static Launched hardware(BridgeServer server, LaunchOptions options, BrowserLauncher launcher, OrtWebBuild ortWeb) {
        HardwareAdapterSearch.Found<Launched> found = new HardwareAdapterSearch<Launched>(set -> once(server, options.withArgs(set), launcher, ortWeb),
                l -> l.page().probe().webgpu(), l -> l.handle().close()).over(ChromiumFlags.HARDWARE_WEBGPU);
        if (found.refused().isEmpty()) {
            return found.kept().orElseThrow();
        }
        // when no set's page joined, the lane runs on a launch without any
        Launched kept = found.kept().orElseGet(() -> once(server, options, launcher, ortWeb));
        return new Launched(kept.handle(), kept.page(), java.util.Optional.of("no hardware WebGPU adapter (--webgpu-adapter "
                + options.webGpuAdapter().id() + (options.webGpuAdapter() == WebGpuAdapter.AUTO ? ", a host with a GPU" : "")
                + "): " + found.refused().get()));
    }

    private static Launched once(BridgeServer server, LaunchOptions options, BrowserLauncher launcher, OrtWebBuild ortWeb) {
        PageAssets.verify(); // the page the bridge serves is whole before a browser is sent to it
        String slot = newSlot();
        // an HTTPS bridge: the browser trusts its certificate by its key alone, so the page is a secure context
        LaunchOptions trusted = server.trustedCertificate().map(options::withTrust).orElse(options);
        BrowserHandle handle = launcher.launch(trusted, server.pageUrl(slot, ortWeb.served()));
        String label = options.browser().id() + " " + handle.version() + " via " + launcher.driver().id();
        return joined(server, handle, slot, label, ortWeb, java.util.Optional.empty());
    }

    /**
     * A fresh page in the same browser: {@code old} opens the bridge's page again under a new slot, as a new document
     * (onnxruntime-web, its WebAssembly instance and GPU device all new), which joins and is checked as at launch. What a
     * failed session left in the old document goes with it; the browser process, its compiled-code caches and its
     * launch stay. Costs a page load instead of a browser launch.
     *
     * @throws BridgeServerException when the fresh page does not join (the caller relaunches the browser)
     */
    static Launched renew(BridgeServer server, BrowserHandle handle, ConnectedPage old, String label, OrtWebBuild ortWeb,
                          java.util.Optional<String> webGpuRefused) {
        String slot = newSlot();
        old.renew(server.pageUrl(slot, ortWeb.served()));
        return joined(server, handle, slot, label, ortWeb, webGpuRefused);
    }

    /** A slot no page has joined under: how the bridge tells which joining page is the one it opened. */
    private static String newSlot() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    private static Launched joined(BridgeServer server, BrowserHandle handle, String slot, String label, OrtWebBuild ortWeb,
                                   java.util.Optional<String> webGpuRefused) {
        ConnectedPage page;
        try {
            page = server.awaitPage(slot, server.options().joinTimeout());
        } catch (RuntimeException e) {
            String alive = handle.isAlive() ? "running" : "not running";
            String said = handle.pageEvidence().map(s -> "; " + s).orElse("");
            handle.close();
            String problem = e.getMessage() + " (" + label + ", browser " + alive + said + ")";
            String fix = "check the browser starts and reaches " + server.baseUrl();
            throw e instanceof PageNotJoinedException ? new PageNotJoinedException(problem, fix, e) : new BridgeServerException(problem, fix, e);
        }
        if (page.ortError() != null) {
            handle.close();
            throw new UnsupportedModelException(ortWeb.describe() + " does not load in " + label + ": " + page.ortError(),
                    "run an onnxruntime-web release this browser can load", null);
        }
        if (page.ortVersion() != null && !page.ortVersion().equals(ortWeb.version())) {
            handle.close();
            throw new BridgeServerException("The page loaded onnxruntime-web " + page.ortVersion() + " where " + ortWeb.describe()
                    + " was asked for (" + label + ")", "delete onnxruntime-web " + ortWeb.version() + " from Accelbridge's cache and run again");
        }
        return new Launched(handle, page, webGpuRefused);
    }

    /** The fetched code a lane runs on, as verified before it started: what it is → the hash verified. */
    static java.util.Map<String, String> verified(OrtWebBuild ortWeb, BrowserHandle handle) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        if (ortWeb != null && ortWeb.verified() != null) {
            int note = ortWeb.verified().indexOf(CacheEntry.Verified.REFETCHED); // a repair is said
            out.put("onnxruntime-web " + ortWeb.version(), ortWeb.integrity() + (note < 0 ? "" : ortWeb.verified().substring(note)));
        }
        if (handle != null) {
            BrowserDiscovery.verifiedFetch(handle.executable()).ifPresent(e -> out.put(e.getKey(), e.getValue()));
        }
        return out;
    }
}
