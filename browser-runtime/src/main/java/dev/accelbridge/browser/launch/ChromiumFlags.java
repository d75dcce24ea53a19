package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one place that decides the command line of every Chromium build Accelbridge starts, whichever launcher
 * (Playwright, Selenium, Grid, plain process) starts it.
 *
 * <p>Chromium keeps only the LAST {@code --enable-features}/{@code --disable-features} switch it sees (measured:
 * {@code --enable-features=WebMachineLearningNeuralNetwork --enable-features=Foo} leaves {@code navigator.ml}
 * undefined), so {@link #forLaunch} folds every feature switch, ours and the user's, into one of each, and every
 * {@code --js-flags} into one.
 */
public final class ChromiumFlags {
    /** Features switched on: WebNN ({@code navigator.ml}), which is behind a flag in Chromium 153–156. */
    public static final List<String> ENABLED_FEATURES = List.of("WebMachineLearningNeuralNetwork");
    /**
     * Features switched off, each a background fetch a test run does not want: the translate bar, the network time
     * query (clients2.google.com), optimization hints, media-router discovery, autofill's server and the certificate
     * transparency list's updater.
     */
    public static final List<String> DISABLED_FEATURES = List.of("Translate", "NetworkTimeServiceQuerying", "OptimizationHints",
            "MediaRouter", "DialMediaRouteProvider", "AutofillServerCommunication", "CertificateTransparencyComponentUpdater",
            "PreconnectToSearch", "SearchEnginePreconnect2", "SearchEnginePreconnectInterval", "SearchPrefetchServicePrefetching");

    /**
     * Where the browser's own Google service calls are pointed: loopback port 9 (discard), a port Chromium refuses to
     * connect to ({@code ERR_UNSAFE_PORT}), so such a call ends inside the browser without a packet. Measured:
     * with {@code --disable-background-networking}, {@code --disable-component-update} and {@code --disable-sync}
     * alone, Chromium 156 still asked accounts.google.com ({@code ListAccounts}, sent whenever a profile's network
     * comes up, with no switch to stop it) and update.googleapis.com (the on-device model manifest component,
     * requested on demand) within 200 ms of starting.
     */
    public static final String SERVICE_SINK = "http://127.0.0.1:9";

    /**
     * Flags every launch gets. {@code --no-sandbox}: the browser only loads the bridge's loopback page, and
     * Chromium refuses to start as root (or in containers without user namespaces) with its sandbox on.
     * {@code --enable-unsafe-webgpu}: without it {@code requestAdapter()} returns null on a GPU-less host; with
     * it a SwiftShader software adapter appears. ({@code --use-angle=vulkan} makes that adapter disappear,
     * so it is deliberately absent.)
     */
    public static final List<String> BASE = List.of(
            "--no-sandbox",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-default-apps",
            "--mute-audio",
            "--enable-unsafe-webgpu",
            // quiet: no traffic but the bridge's (component updates, sign-in, sync, safe browsing, metrics, field trials)
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-component-extensions-with-background-pages",
            "--disable-extensions",
            "--disable-sync",
            "--disable-field-trial-config",
            "--metrics-recording-only",
            "--disable-breakpad",
            "--disable-domain-reliability",
            "--disable-client-side-phishing-detection",
            "--safebrowsing-disable-auto-update",
            "--no-pings",
            "--no-service-autorun",
            "--password-store=basic",
            "--use-mock-keychain",
            "--gaia-url=" + SERVICE_SINK,
            "--google-apis-url=" + SERVICE_SINK,
            "--lso-url=" + SERVICE_SINK,
            "--component-updater=url-source=" + SERVICE_SINK);

    /**
     * Feature Playwright switches on itself ({@code chromiumSwitches} of the 1.62 driver); kept in our merged
     * switch so that ours, appended after Playwright's defaults, does not silently drop it.
     */
    static final List<String> PLAYWRIGHT_ENABLED_FEATURES = List.of("CDPScreenshotNewSurface");

    /**
     * Features Playwright switches off itself (the 1.62 driver's list, read from the command line it starts): kept in
     * our merged switch, which comes after Playwright's and so replaces it.
     */
    static final List<String> PLAYWRIGHT_DISABLED_FEATURES = List.of("AvoidUnnecessaryBeforeUnloadCheckSync",
            "BoundaryEventDispatchTracksNodeRemoval", "DestroyProfileOnBrowserClose", "DialMediaRouteProvider",
            "GlobalMediaControls", "HttpsUpgrades", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
            "BlockOriginHeaderModificationOnRedirect", "Translate", "AutoDeElevate", "OptimizationHints");

    /**
     * V8 flags every launch gets, folded with the user's into one {@code --js-flags} (Chromium keeps only the last).
     * {@code --wasm-sync-tier-up}: V8 runs onnxruntime-web's WebAssembly first on its baseline compiler and optimises
     * each function once it is hot; by default that optimising happens on background threads, which on a small machine
     * compete with the inference threads for a minute of runs, so a model measured while it went on came out up to 2.6×
     * slower than the same bytes measured later in the lane (three copies of one 90 MB MiniLM in one lane, 2 cores:
     * 168, 147, 65 ms). Synchronous tier-up optimises a hot function at once on the thread that runs it: the same three
     * copies 72, 70, 70 ms. The optimising time moves into the session's creation and first run, which are the cold
     * figures; steady-state figures are then the optimised code's wherever the case falls. A user's own
     * {@code --js-flags=--no-wasm-sync-tier-up} comes after ours and restores the browser's default.
     */
    public static final List<String> JS_FLAGS = List.of("--wasm-sync-tier-up");

    /**
     * The flag sets that may give Chromium's WebGPU a host's GPU (Vulkan on Linux), tried in turn until the page's adapter
     * is not a software one. Declared once, in {@code hardware-webgpu.flags} beside this class, which bench/gpu's probe
     * reads too, so that a set found to work on a GPU host is the set a lane tries.
     */
    public static final List<List<String>> HARDWARE_WEBGPU = flagSets("hardware-webgpu.flags");

    /** The flag that makes Chromium's WebGPU SwiftShader's, GPU or not. */
    public static final List<String> SOFTWARE_WEBGPU = List.of("--use-webgpu-adapter=swiftshader");

    private static final String JS = "--js-flags=";
    private static final String ENABLE = "--enable-features=";
    private static final String DISABLE = "--disable-features=";

    private ChromiumFlags() {
    }

    /** The flag sets of a resource beside this class: one set a line, '#' lines and blank lines skipped. */
    static List<List<String>> flagSets(String resource) {
        try (var in = ChromiumFlags.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource + " beside " + ChromiumFlags.class.getName());
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).map(l -> List.of(l.split("\\s+"))).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The V8 flags a browser launched with {@code options} runs with (ours, then the user's), or empty for Firefox and
     * WebKit, which have no V8: recorded with each case, since they change how its WebAssembly is compiled.
     */
    public static Optional<String> jsFlags(LaunchOptions options) {
        if (!options.browser().chromium()) {
            return Optional.empty();
        }
        return forLaunch(options.browser(), options.driver(), options).stream().filter(a -> a.startsWith(JS)).findFirst()
                .map(a -> a.substring(JS.length()));
    }

    /** The full flag list for {@code options}: its headless mode, its extra flags and the pin of the certificate it trusts. */
    public static List<String> forLaunch(BrowserKind browser, DriverKind driver, LaunchOptions options) {
        return forLaunch(browser, driver, options.headless(), options.chromiumArgs());
    }

    /**
     * The full flag list (without profile dir and URL, which each launcher adds its own way).
     *
     * @param browser  which Chromium build ({@link BrowserKind#CHROMIUM_SHELL} is headless-only)
     * @param driver   who passes the flags; Playwright adds its own {@code --headless} (so for it we add none) and
     *                 {@code --disable-features} list (which ours, coming after it, repeats)
     * @param headless whether to run headless
     * @param extra    the user's flags; their feature switches are merged into ours, the rest appended
     */
    public static List<String> forLaunch(BrowserKind browser, DriverKind driver, boolean headless, List<String> extra) {
        if (!browser.chromium()) {
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
        Set<String> disable = new LinkedHashSet<>(playwright ? PLAYWRIGHT_DISABLED_FEATURES : List.of());
        disable.addAll(DISABLED_FEATURES);
        List<String> rest = new ArrayList<>();
        List<String> js = new ArrayList<>(JS_FLAGS);
        for (String arg : extra) {
            if (arg.startsWith(JS)) {
                js.add(arg.substring(JS.length()).trim()); // after ours: V8 takes the last of two contrary flags
            } else if (arg.startsWith(ENABLE)) {
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
        out.add(JS + String.join(" ", js));
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
