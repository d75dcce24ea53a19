package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one place that decides the command line of every Chromium build Accelbridge starts, whichever launcher
 * (Playwright, Selenium, Grid, plain process) starts it.
 *
 * <p>Chromium keeps only the LAST {@code --enable-features}/{@code --disable-features} switch it sees (measured:
 * {@code --enable-features=WebMachineLearningNeuralNetwork --enable-features=Foo} leaves {@code navigator.ml}
 * undefined), so {@link #forLaunch} folds every feature switch, ours and the user's, into one of each.
 */
public final class ChromiumFlags {
    /** Features switched on: WebNN ({@code navigator.ml}), which is behind a flag in Chromium 153–156. */
    public static final List<String> ENABLED_FEATURES = List.of("WebMachineLearningNeuralNetwork");
    /** Features switched off: the translate bar (a network fetch and a prompt nobody answers). */
    public static final List<String> DISABLED_FEATURES = List.of("Translate");

    /**
     * Flags every launch gets. {@code --no-sandbox}: the browser only loads the bridge's loopback page, and
     * Chromium refuses to start as root (or in containers without user namespaces) with its sandbox on.
     * {@code --enable-unsafe-webgpu}: without it {@code requestAdapter()} returns null on a GPU-less host; with
     * it a SwiftShader software adapter appears. ({@code --use-angle=vulkan} makes that adapter disappear,
     * so it is deliberately absent.)
     */
    public static final List<String> BASE = List.of(
            "--no-sandbox",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-default-apps",
            "--mute-audio",
            "--enable-unsafe-webgpu");

    /**
     * Feature Playwright switches on itself ({@code chromiumSwitches} of the 1.62 driver); kept in our merged
     * switch so that ours, appended after Playwright's defaults, does not silently drop it.
     */
    static final List<String> PLAYWRIGHT_ENABLED_FEATURES = List.of("CDPScreenshotNewSurface");

    private static final String ENABLE = "--enable-features=";
    private static final String DISABLE = "--disable-features=";

    private ChromiumFlags() {
    }

    /**
     * The full flag list (without profile dir and URL, which each launcher adds its own way).
     *
     * @param browser  which Chromium build ({@link BrowserKind#CHROMIUM_SHELL} is headless-only)
     * @param driver   who passes the flags; Playwright adds its own {@code --headless} and
     *                 {@code --disable-features} list (which already holds Translate), so for it we add neither
     * @param headless whether to run headless
     * @param extra    the user's flags; their feature switches are merged into ours, the rest appended
     */
    public static List<String> forLaunch(BrowserKind browser, DriverKind driver, boolean headless, List<String> extra) {
        if (browser == BrowserKind.FIREFOX) {
            throw new IllegalArgumentException("ChromiumFlags is for Chromium builds, not " + browser);
        }
        boolean playwright = driver == DriverKind.PLAYWRIGHT;
        List<String> out = new ArrayList<>(BASE);
        if (!playwright) {
            // The headless shell has one mode and takes plain --headless; full Chromium's new headless mode is
            // the real browser without a window (old headless was removed from it in 132).
            if (browser == BrowserKind.CHROMIUM_SHELL) {
                out.add("--headless");
            } else if (headless) {
                out.add("--headless=new");
            }
        }
        Set<String> enable = new LinkedHashSet<>(ENABLED_FEATURES);
        if (playwright) {
            enable.addAll(PLAYWRIGHT_ENABLED_FEATURES);
        }
        Set<String> disable = new LinkedHashSet<>(playwright ? List.of() : DISABLED_FEATURES);
        List<String> rest = new ArrayList<>();
        for (String arg : extra) {
            if (arg.startsWith(ENABLE)) {
                enable.addAll(split(arg.substring(ENABLE.length())));
            } else if (arg.startsWith(DISABLE)) {
                disable.addAll(split(arg.substring(DISABLE.length())));
            } else if (!out.contains(arg)) {
                rest.add(arg);
            }
        }
        enable.removeAll(disable); // an explicit disable wins, as it does in Chromium itself
        if (!enable.isEmpty()) {
            out.add(ENABLE + String.join(",", enable));
        }
        if (!disable.isEmpty()) {
            out.add(DISABLE + String.join(",", disable));
        }
        out.addAll(rest);
        return List.copyOf(out);
    }

    private static List<String> split(String csv) {
        List<String> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }
}
