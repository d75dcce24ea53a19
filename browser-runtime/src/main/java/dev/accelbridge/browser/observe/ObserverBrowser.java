package dev.accelbridge.browser.observe;

import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.launch.PlaywrightVisit;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * The Chromium a user's app is observed in: headless, through Playwright (whose init scripts put the observer in before
 * any script of the page), launched as every Playwright lane's browser is ({@link PlaywrightVisit}: the command line every
 * Chromium Accelbridge starts gets, {@link ChromiumFlags}) with the WebGPU adapter decided as for a run's lanes:
 * SwiftShader on a host without a GPU, the first hardware flag set on one.
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
        List<String> webgpu = adapter.on(WebGpuAdapter.hostHasGpu()) == WebGpuAdapter.SOFTWARE
                ? ChromiumFlags.SOFTWARE_WEBGPU : ChromiumFlags.HARDWARE_WEBGPU.get(0);
        return LaunchOptions.builder().browser(browser).driver(DriverKind.PLAYWRIGHT).headless(true).webGpuAdapter(adapter)
                .addArgs(webgpu).build();
    }
}
