package dev.accelbridge.browser.observe;

import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.launch.PlaywrightVisit;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.PublicApi;

import dev.accelbridge.bridge.BridgeServerException;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.browser.provider.HardwareAdapterSearch;
import dev.accelbridge.core.Untrusted;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Chromium a user's app is observed in: headless, through Playwright (whose init scripts put the observer in before
 * any script of the page), launched as every Playwright lane's browser is ({@link PlaywrightVisit}: the command line every
 * Chromium Accelbridge starts gets, {@link ChromiumFlags}) with the WebGPU adapter decided as for a run's lanes:
 * SwiftShader on a host without a GPU; on one, every hardware flag set in turn until the page's adapter is not a
 * software one ({@link HardwareAdapterSearch}, the lanes' own search), the headless-surface layer given where the
 * driver needs it ({@link dev.accelbridge.browser.launch.HeadlessSurfaces}, in the launch).
 */
@PublicApi
public final class ObserverBrowser {
    /**
     * The V8 flags the observer's Chromium runs with ({@link ChromiumFlags#JS_FLAGS}: synchronous tier-up), recorded with each
     * row, since they change how the app's WebAssembly is compiled and so its figures.
     */
    public static final String V8_FLAGS = String.join(" ", ChromiumFlags.JS_FLAGS);

    private ObserverBrowser() {
    }

    /**
     * The launch options of the Chromium build {@code browser} an app is observed in: headless through Playwright, with
     * {@code adapter}'s WebGPU flags; launched by {@link PlaywrightVisit} as every Playwright lane's browser is.
     */
    public static LaunchOptions options(BrowserKind browser, WebGpuAdapter adapter) {
        if (!browser.chromium()) {
            throw new IllegalArgumentException("an app is observed in a Chromium build, not " + browser);
        }
        LaunchOptions base = LaunchOptions.builder().browser(browser).driver(DriverKind.PLAYWRIGHT).headless(true)
                .webGpuAdapter(adapter).build();
        return software(adapter) ? base.withArgs(ChromiumFlags.SOFTWARE_WEBGPU) : base;
    }

    /**
     * The browser an app is observed in, opened: with the software adapter's flags, or with the first hardware flag set
     * whose page gets an adapter that is not a software one. When none does, the last browser that started is kept (the
     * app still runs, its WebGPU on what that set gave) and {@link Opened#refused} says what each set gave.
     *
     * @throws dev.accelbridge.browser.launch.BrowserLaunchException when no browser starts at all
     */
    public static Opened open(BrowserKind browser, WebGpuAdapter adapter) {
        LaunchOptions options = options(browser, adapter);
        if (software(adapter)) {
            return new Opened(PlaywrightVisit.open(options), Optional.empty());
        }
        HardwareAdapterSearch.Found<PlaywrightVisit> found = new HardwareAdapterSearch<PlaywrightVisit>(set -> {
            try {
                return PlaywrightVisit.open(options.withArgs(set));
            } catch (RuntimeException e) { // a set whose browser does not start is that set's evidence
                throw new BridgeServerException("the browser did not start: " + e.getMessage(), null, e);
            }
        }, ObserverBrowser::adapter, PlaywrightVisit::close).over(ChromiumFlags.HARDWARE_WEBGPU);
        PlaywrightVisit kept = found.kept().orElseGet(() -> PlaywrightVisit.open(options));
        return new Opened(kept, found.refused().map(r -> "no hardware WebGPU adapter (--webgpu-adapter " + adapter.id() + "): " + r));
    }

    /**
     * An observer's browser, open.
     *
     * @param visit   the browser and its blank page
     * @param refused what each hardware flag set gave, when none gave the GPU's adapter; empty otherwise
     */
    public record Opened(PlaywrightVisit visit, Optional<String> refused) {
    }

    private static boolean software(WebGpuAdapter adapter) {
        return adapter.on(WebGpuAdapter.hostHasGpu()) == WebGpuAdapter.SOFTWARE;
    }

    /**
     * What {@code requestAdapter()} gave, as a lane's page probe says it: read on an empty local file (a secure context,
     * where {@code about:blank} has no {@code navigator.gpu}), then the page goes back to {@code about:blank}.
     */
    static PageProbe.WebGpu adapter(PlaywrightVisit visit) {
        Object got;
        java.nio.file.Path blank = null;
        try {
            blank = java.nio.file.Files.createTempFile("accelbridge-adapter", ".html");
            java.nio.file.Files.writeString(blank, "<!doctype html><title>adapter</title>");
            visit.page().navigate(blank.toUri().toString());
            got = visit.page().evaluate(ADAPTER);
            visit.page().navigate("about:blank");
        } catch (java.io.IOException e) {
            got = Map.of("present", false, "found", false, "evidence", "no page to read the adapter on: " + e.getMessage());
        } finally {
            if (blank != null) {
                blank.toFile().delete();
            }
        }
        Map<?, ?> m = got instanceof Map<?, ?> map ? map : Map.of();
        boolean found = Boolean.TRUE.equals(m.get("found"));
        return new PageProbe.WebGpu(Boolean.TRUE.equals(m.get("present")), found, text(m, "vendor"), text(m, "architecture"),
                text(m, "device"), text(m, "description"), m.get("fallback") instanceof Boolean b ? b : null, List.of(), Map.of(),
                found ? "" : Untrusted.reason(text(m, "evidence")));
    }

    private static String text(Map<?, ?> m, String key) {
        return Untrusted.bounded(Untrusted.oneLine(String.valueOf(m.get(key) == null ? "" : m.get(key))), 200);
    }

    private static final String ADAPTER = """
            async () => {
              if (!navigator.gpu) return { present: false, found: false, evidence: 'navigator.gpu is undefined' };
              try {
                const a = await navigator.gpu.requestAdapter();
                if (!a) return { present: true, found: false, evidence: 'navigator.gpu present, requestAdapter() returned null' };
                const i = a.info || {};
                return { present: true, found: true, vendor: i.vendor, architecture: i.architecture, device: i.device,
                         description: i.description, fallback: a.isFallbackAdapter ?? i.isFallbackAdapter ?? null };
              } catch (e) {
                return { present: true, found: false, evidence: String(e) };
              }
            }""";
}
