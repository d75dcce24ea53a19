package dev.accelbridge.browser.testing;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.core.BrowserKind;

import java.util.List;

/**
 * The machine's headless Chromium launched by a test's own Playwright, for tests that look at pages themselves (the
 * report, the dashboard, what the driver is told) rather than through Accelbridge's launchers.
 */
public final class TestChromium {
    private TestChromium() {
    }

    /** Headless Chromium from {@link BrowserDiscovery}, quiet: no sandbox, no background or sync traffic, no first run. */
    public static Browser launch(Playwright pw) {
        return launch(pw, List.of());
    }

    /** WebGPU on SwiftShader, as the tests that look at a page's WebGPU launch it: {@code launch(pw, SOFTWARE_WEBGPU)}. */
    public static final List<String> SOFTWARE_WEBGPU = java.util.stream.Stream.concat(java.util.stream.Stream.of("--enable-unsafe-webgpu"),
            dev.accelbridge.browser.launch.ChromiumFlags.SOFTWARE_WEBGPU.stream()).toList();

    /** The same, with {@code extra} flags (WebGPU on SwiftShader: {@code --enable-unsafe-webgpu} and {@code ChromiumFlags.SOFTWARE_WEBGPU}). */
    public static Browser launch(Playwright pw, List<String> extra) {
        List<String> args = new java.util.ArrayList<>(List.of("--no-sandbox", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"));
        args.addAll(extra);
        return pw.chromium().launch(new BrowserType.LaunchOptions().setHeadless(true)
                .setExecutablePath(BrowserDiscovery.find(BrowserKind.CHROMIUM).orElseThrow().executable()).setArgs(args));
    }
}
