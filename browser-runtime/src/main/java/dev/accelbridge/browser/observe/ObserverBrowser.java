package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * The Chromium a user's app is observed in: headless, through Playwright (whose init scripts put the observer in before
 * any script of the page), with the command line every Chromium Accelbridge starts gets ({@link ChromiumFlags}) and the
 * WebGPU adapter decided as for a run's lanes: SwiftShader on a host without a GPU, the first hardware flag set on one.
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

    /** Launches {@code installed} (a Chromium build) with {@code adapter}'s WebGPU. */
    public static Browser launch(Playwright pw, InstalledBrowser installed, WebGpuAdapter adapter) {
        if (!installed.kind().chromium()) {
            throw new IllegalArgumentException("an app is observed in a Chromium build, not " + installed.kind());
        }
        List<String> webgpu = adapter.on(WebGpuAdapter.hostHasGpu()) == WebGpuAdapter.SOFTWARE
                ? ChromiumFlags.SOFTWARE_WEBGPU : ChromiumFlags.HARDWARE_WEBGPU.get(0);
        return pw.chromium().launch(new BrowserType.LaunchOptions().setHeadless(true).setExecutablePath(installed.executable())
                .setArgs(ChromiumFlags.forLaunch(installed.kind(), DriverKind.PLAYWRIGHT, true, webgpu)));
    }
}
