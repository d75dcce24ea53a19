package dev.accelbridge.run;

import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.SamplingDepth;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.suites.ModelDirectory;

import java.nio.file.Path;
import java.util.List;

/**
 * What a run plan takes where its starter is silent: the backends, the browsers, the model cache and the browser lanes
 * at once. The CLI, the dashboard's form and the plan's builder read them here, so they cannot drift apart.
 */
@PublicApi
public final class PlanDefaults {
    private PlanDefaults() {
    }

    /**
     * The driver a plan takes where its starter names none: Playwright, unless {@code ACCELBRIDGE_DRIVER} names another. The
     * offline bundle's launcher sets {@code process}: it carries no Node.js, which Playwright's driver runs on.
     */
    public static DriverKind driver() {
        String env = System.getenv("ACCELBRIDGE_DRIVER");
        if (env == null || env.isBlank()) {
            return DriverKind.PLAYWRIGHT;
        }
        // a default driver launches browsers here: a Grid or a page opened by hand is a flag of its own (found when tried:
        // manual and grid were taken, and every case failed naming a flag the user never gave)
        DriverKind d = null;
        try {
            d = DriverKind.parse(env);
        } catch (AccelbridgeException e) {
            // named below, with the three a default may be
        }
        if (!java.util.EnumSet.of(DriverKind.PLAYWRIGHT, DriverKind.SELENIUM,
                DriverKind.PROCESS).contains(d)) {
            throw new AccelbridgeException("ACCELBRIDGE_DRIVER=" + Untrusted.quote(env)
                    + " is not a driver", "set it to playwright, selenium or process, or unset it");
        }
        return d;
    }

    /** The default browser backends: every WebNN device type, WebGPU and wasm. */
    public static final List<BackendId> BROWSER_BACKENDS = List.of(BackendId.WEBGPU, BackendId.WEBNN_GPU,
            BackendId.WEBNN_CPU, BackendId.WEBNN_NPU, BackendId.WASM);

    /** The backends a run requests when none is named: every browser backend and native cpu, or native cpu alone. */
    public static List<BackendId> backends(boolean nativeOnly) {
        if (nativeOnly) {
            return List.of(BackendId.CPU);
        }
        List<BackendId> all = new java.util.ArrayList<>(BROWSER_BACKENDS);
        all.add(BackendId.CPU);
        return List.copyOf(all);
    }

    /**
     * The browsers a run uses when none is named: Chromium, the WebNN-capable shell, and Firefox and WebKit where they are installed;
     * on browsers elsewhere (a Grid, a Playwright server) Chromium, which every such place offers.
     */
    public static List<BrowserSpec> browsers(boolean remote) {
        return remote ? List.of(BrowserSpec.of(BrowserKind.CHROMIUM)) : browsers();
    }

    /**
     * The browsers a run of {@code requested} backends uses when none is named: as {@link #browsers(boolean)}, but nothing is
     * looked for when no browser backend is asked for (found when tried: a native-only run started Xvfb and MiniBrowser to
     * learn WebKit's version, and wrote WebKitGTK's caches under the user's home).
     */
    public static List<BrowserSpec> browsers(boolean remote, List<BackendId> requested) {
        return requested.stream().noneMatch(BackendId::isBrowser) ? List.of(BrowserSpec.of(BrowserKind.CHROMIUM))
                : browsers(remote);
    }

    /** The browsers every local run takes when none is named: Chromium and the WebNN-capable headless shell. */
    private static final List<BrowserKind> ALWAYS = List.of(BrowserKind.CHROMIUM, BrowserKind.CHROMIUM_SHELL);
    /** The browsers a local run takes when none is named, where they are installed. */
    private static final List<BrowserKind> WHERE_INSTALLED = List.of(BrowserKind.FIREFOX, BrowserKind.WEBKIT);

    /**
     * What a run takes where nothing is named, as one sentence for {@code run --help}, made from the defaults themselves so
     * that the help cannot drift from them (found when tried: it named three families in Chromium while five ran in four
     * browsers).
     */
    public static String describe() {
        return "Default: the " + words(Workload.DEFAULT_SUITES.stream().map(ModelFamily::id).toList())
                + " suites on " + words(BROWSER_BACKENDS.stream().map(BackendId::id).toList()) + " in "
                + words(ALWAYS.stream().map(BrowserKind::id).toList()) + " (headless), and "
                + words(WHERE_INSTALLED.stream().map(BrowserKind::id).toList()) + " where installed; plus native cpu.";
    }

    private static String words(List<String> w) {
        return w.size() == 1 ? w.get(0) : String.join(", ", w.subList(0, w.size() - 1)) + " and " + w.get(w.size() - 1);
    }

    /** The browsers a local run uses when none is named: Chromium, the WebNN-capable shell, and Firefox and WebKit where installed. */
    public static List<BrowserSpec> browsers() {
        List<BrowserKind> b = new java.util.ArrayList<>(ALWAYS);
        for (BrowserKind other : WHERE_INSTALLED) {
            try {
                if (BrowserDiscovery.find(other).isPresent()) {
                    b.add(other);
                }
            } catch (RuntimeException e) {
                // installed but will not say its version: left out here; naming it with --browser says why
            }
        }
        return b.stream().map(BrowserSpec::of).toList();
    }

    /** Where generated models go unless a plan says: {@code $ACCELBRIDGE_MODEL_CACHE}, else {@code ~/.accelbridge/models}. */
    public static Path modelCache() {
        String env = System.getenv("ACCELBRIDGE_MODEL_CACHE");
        return env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".accelbridge", "models");
    }

    /**
     * The least time a case's timed iterations take together ({@code --min-duration}): 0.5 s, so a 1 ms model gets ~500
     * samples (enough for p90, near enough for p99) and a 100 ms model keeps its ten; docs/scoring.md says why.
     */
    public static final java.time.Duration MIN_DURATION = java.time.Duration.ofMillis(500);

    /**
     * The least time a case's warm-ups take together ({@code --warmup-duration}): 0.5 s. Measured here, Chromium's wasm
     * cells moved by up to 2.4× between identical runs after 3 warm-ups (the engine still tiering its code up while the
     * runs were timed) and by under 10 % after half a second of them; docs/scoring.md.
     */
    public static final java.time.Duration WARMUP_DURATION = java.time.Duration.ofMillis(500);

    /**
     * The sampling a plan takes where its starter is silent. A count the starter gave is the count that runs: its loop
     * gets no least duration unless one was given too ({@code --warmups 0 -n 1} is one run, as onnxruntime_perf_test's
     * {@code -r 1}). Where the starter gave neither: 3 warm-ups and 10 timed iterations for at least
     * {@link #WARMUP_DURATION} and {@link #MIN_DURATION}; for a conformance run (the op suite alone, or models that all
     * ship their own test data), whose question is which models work, not how fast, no warm-up, one timed iteration and
     * no least durations. The depth is {@link dev.accelbridge.core.SamplingDepth#AUTO}: a software adapter's cases run the verdict's
     * window. What the starter gave is kept.
     *
     * @param conformance the op suite alone, or user models that all ship test data
     */
    static Sampling sampling(boolean conformance, Sampling given) {
        Integer warmups = given.warmups();
        Integer iterations = given.iterations();
        return new Sampling(warmups != null ? warmups : conformance ? 0 : 3, iterations != null ? iterations : conformance ? 1 : 10,
                given.warmupDuration() != null ? given.warmupDuration() : warmups != null || conformance ? java.time.Duration.ZERO : WARMUP_DURATION,
                given.minDuration() != null ? given.minDuration() : iterations != null || conformance ? java.time.Duration.ZERO : MIN_DURATION,
                given.depth() != null ? given.depth() : SamplingDepth.AUTO);
    }

    /** Whether a plan of these suites and user models asks a conformance question ({@link #sampling}). */
    static boolean conformance(java.util.List<ModelFamily> suites, java.util.List<java.nio.file.Path> userModels) {
        if (userModels.isEmpty()) {
            return suites.equals(java.util.List.of(ModelFamily.OPS));
        }
        return suites.isEmpty() && userModels.stream().allMatch(ModelDirectory::shipsTestData);
    }

    /** Browser lanes at once when none is asked for: one per 4 cores, at least 1 (1 on a 2-core machine, 4 on 16). */
    public static int parallel() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 4);
    }
}
