package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.LaneId;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Finds the browsers installed on this machine (path and version), for {@code detect} and for launching.
 *
 * <p>Each kind is looked up once per JVM and cached. An explicit path comes first: system property
 * {@code accelbridge.<id>} or environment variable {@code ACCELBRIDGE_<ID>} (e.g. {@code ACCELBRIDGE_CHROMIUM},
 * {@code ACCELBRIDGE_CHROMIUM_SHELL}), read once at class initialisation. Then the standard install locations of this
 * OS (Linux, macOS, Windows: {@link BrowserLocations}), then names on {@code PATH}, then the Chromium Playwright
 * downloaded. Safari is listed where macOS has it ({@code safaridriver}), not launched. {@link BrowserKind#CHROMIUM_SHELL} comes from the npm package {@code @sparticuz/chromium}
 * installed by the build in {@code browser-runtime/browsers} (see {@link ChromiumShell}).
 */
@PublicApi
public final class BrowserDiscovery {
    /**
     * Names on {@code PATH} per kind, tried after the standard install locations ({@link BrowserLocations}: Debian's real
     * binary before its /usr/bin/chromium wrapper, which adds flags) and before the browsers Playwright downloaded.
     */
    private static final Map<BrowserKind, List<String>> CANDIDATES = new EnumMap<>(Map.of(
            BrowserKind.CHROMIUM, List.of("chromium", "chromium-browser"),
            BrowserKind.CHROME, List.of("google-chrome", "google-chrome-stable"),
            BrowserKind.EDGE, List.of("microsoft-edge", "microsoft-edge-stable"),
            BrowserKind.FIREFOX, List.of("firefox-esr", "firefox"),
            BrowserKind.WEBKIT, List.of("MiniBrowser"),
            BrowserKind.CHROMIUM_SHELL, List.of()));

    private static final Map<BrowserKind, String> OVERRIDES = readOverrides();
    private static final Map<BrowserKind, Optional<InstalledBrowser>> CACHE = new ConcurrentHashMap<>();
    private static final Map<String, Optional<InstalledBrowser>> SHELLS = new ConcurrentHashMap<>();

    private BrowserDiscovery() {
    }

    /**
     * Every browser found, in {@link BrowserKind} order. A kind whose lookup fails (a broken override, a
     * browser that does not answer {@code --version}) is left out here; {@link #find} reports why.
     */
    public static List<InstalledBrowser> findAll() {
        List<InstalledBrowser> out = new ArrayList<>();
        for (BrowserKind k : BrowserKind.values()) {
            try {
                find(k).ifPresent(out::add);
            } catch (BrowserLaunchException e) {
                // left out; find(k) names the problem
            }
        }
        return out;
    }

    /**
     * The browser of one kind, when installed. For {@link BrowserKind#CHROMIUM_SHELL} the first call may
     * decompress the shell from the npm package (≈2 s, once per machine).
     */
    public static Optional<InstalledBrowser> find(BrowserKind kind) {
        return CACHE.computeIfAbsent(kind, BrowserDiscovery::lookUp);
    }

    /**
     * The browser of {@code spec}: the one installed when it names no version; for the headless shell of a given major,
     * that major's shell (fetched from the npm registry at first use, minutes at most); for another kind, the one
     * installed if it is of that major, else none.
     *
     * @throws BrowserLaunchException when the shell of that major cannot be had (not published, not reachable)
     */
    public static Optional<InstalledBrowser> find(BrowserSpec spec) {
        if (spec.major() == null) {
            return find(spec.kind());
        }
        if (spec.kind() == BrowserKind.CHROMIUM_SHELL && !OVERRIDES.containsKey(spec.kind())) {
            return SHELLS.computeIfAbsent(spec.major(), m -> {
                Path p = ChromiumShell.executable(m);
                // an older shell (123) will not even print its version as root without --no-sandbox
                return Optional.of(new InstalledBrowser(spec.kind(), p, VersionProbe.version(p, "--no-sandbox")));
            });
        }
        return find(spec.kind()).filter(b -> spec.major().equals(b.kind().release(b.version())));
    }

    /**
     * What was verified of the browser at {@code executable} before its last launch, when it is fetched code Accelbridge
     * unpacked (a headless shell in the cache): what it is → the hash verified; empty for an installed browser.
     */
    public static Optional<Map.Entry<String, String>> verifiedFetch(String executable) {
        return executable == null ? Optional.empty() : ChromiumShell.lastVerified(Path.of(executable));
    }

    /** The headless shell's majors the npm registry publishes, oldest first (what a version bisection walks). */
    public static List<String> publishedShellMajors() {
        return ChromiumShell.publishedMajors();
    }

    /** Like {@link #find} but throws a {@link BrowserLaunchException} saying how to install the browser. */
    public static InstalledBrowser require(BrowserKind kind) {
        return find(kind).orElseThrow(() -> new BrowserLaunchException(
                "No " + kind + " browser found (looked for " + describeCandidates(kind) + ")", installHint(kind), null));
    }

    /** The explicit path configured for a kind (system property or environment), if any. */
    static Optional<String> override(BrowserKind kind) {
        return Optional.ofNullable(OVERRIDES.get(kind));
    }

    private static Optional<InstalledBrowser> lookUp(BrowserKind kind) {
        BrowserLocations.Host host = BrowserLocations.Host.current();
        if (kind == BrowserKind.SAFARI) { // listed where macOS has it; its page still joins by hand
            return BrowserLocations.first(kind, host).flatMap(driver -> safariVersion().map(v -> new InstalledBrowser(kind, driver, v)));
        }
        if (!kind.launchable()) {
            return Optional.empty(); // a page of this browser can only join by hand
        }
        String explicit = OVERRIDES.get(kind);
        if (explicit != null) {
            Path p = Path.of(explicit);
            if (!Files.isExecutable(p)) {
                throw new BrowserLaunchException("The " + kind + " executable configured by " + overrideName(kind)
                        + " is not an executable file: " + p, "point it at the browser binary or unset it", null);
            }
            return Optional.of(new InstalledBrowser(kind, p, versionOf(kind, p, host)));
        }
        if (kind == BrowserKind.WEBKIT && WebKitLauncher.webDriver().isEmpty()) {
            return Optional.empty(); // MiniBrowser comes with the library; without WebKitGTK's WebDriver it cannot be driven
        }
        if (kind == BrowserKind.CHROMIUM_SHELL) {
            return ChromiumShell.executable().map(p -> new InstalledBrowser(kind, p, VersionProbe.version(p)));
        }
        List<Optional<Path>> tried = new ArrayList<>();
        if (host.os() == BrowserLocations.Os.WINDOWS) { // where the installer registered it, wherever that is
            BrowserLocations.appPathKey(kind).flatMap(BrowserDiscovery::registryAnswer).flatMap(BrowserLocations::appPath)
                    .ifPresent(p -> tried.add(Optional.of(p).filter(host.executable())));
        }
        BrowserLocations.installed(kind, host).forEach(p -> tried.add(Optional.of(p).filter(host.executable())));
        CANDIDATES.get(kind).forEach(name -> tried.add(resolve(name)));
        BrowserLocations.playwright(kind, host).forEach(p -> tried.add(Optional.of(p).filter(host.executable())));
        for (Optional<Path> p : tried) {
            if (p.isPresent()) {
                return Optional.of(new InstalledBrowser(kind, p.get(), versionOf(kind, p.get(), host)));
            }
        }
        return Optional.empty();
    }

    /**
     * The version of the browser at {@code p}: a Windows browser is a GUI program that answers {@code --version} with nothing,
     * so its install folder says it; WebKitGTK's MiniBrowser answers only with a display; the others answer {@code --version}.
     */
    private static String versionOf(BrowserKind kind, Path p, BrowserLocations.Host host) {
        if (host.os() == BrowserLocations.Os.WINDOWS) {
            return BrowserLocations.versionFromLayout(p, host).orElseGet(() -> VersionProbe.version(p));
        }
        return kind == BrowserKind.WEBKIT ? WebKitLauncher.version(p) : VersionProbe.version(p);
    }

    /** What {@code reg query KEY /ve} prints (Windows), or empty when it cannot be asked within a few seconds. */
    private static Optional<String> registryAnswer(String key) {
        try {
            Process p = new ProcessBuilder("reg", "query", key, "/ve").redirectErrorStream(true).start();
            p.getOutputStream().close();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            byte[] out = p.getInputStream().readNBytes(64 * 1024);
            return Optional.of(new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Safari's version from its bundle's Info.plist, when it is there. */
    private static Optional<String> safariVersion() {
        try {
            Path plist = Path.of("/Applications/Safari.app/Contents/Info.plist");
            return Files.isRegularFile(plist) && Files.size(plist) < (1 << 20)
                    ? BrowserLocations.safariVersion(Files.readString(plist)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** An absolute path if executable, else the first executable of that name on {@code PATH}. */
    static Optional<Path> resolve(String candidate) {
        if (candidate.contains("/")) {
            Path p = Path.of(candidate);
            return Files.isExecutable(p) && !Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, candidate);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Where {@link #find(BrowserKind)} looks for {@code kind}, in words (the evidence when it finds none). */
    public static String describeCandidates(BrowserKind kind) {
        if (kind == BrowserKind.CHROMIUM_SHELL) {
            return "the npm package @sparticuz/chromium in " + ChromiumShell.describeSearch();
        }
        BrowserLocations.Host host = BrowserLocations.Host.current();
        List<String> where = new ArrayList<>(BrowserLocations.installed(kind, host).stream().map(Path::toString).toList());
        where.addAll(CANDIDATES.getOrDefault(kind, List.of()));
        if (kind == BrowserKind.CHROMIUM) {
            where.add("Playwright's downloaded Chromium (ms-playwright)");
        }
        if (kind == BrowserKind.WEBKIT) {
            where.add("with WebKitWebDriver on PATH or " + WebKitLauncher.overrideName());
        }
        return String.join(", ", where) + " and " + overrideName(kind);
    }

    static String installHint(BrowserKind kind) {
        return switch (kind) {
            case CHROMIUM -> "apt-get install chromium chromium-driver, or set " + overrideName(kind) + "=/path/to/chromium";
            case CHROMIUM_SHELL -> "run the build (it runs 'npm ci' in browser-runtime/browsers), or set "
                    + overrideName(kind) + "=/path/to/the/extracted/chromium";
            case CHROME -> "install Google Chrome, or set " + overrideName(kind) + "=/path/to/chrome";
            case EDGE -> "install Microsoft Edge, or set " + overrideName(kind) + "=/path/to/msedge";
            case FIREFOX -> "apt-get install firefox-esr mesa-vulkan-drivers, or set " + overrideName(kind) + "=/path/to/firefox";
            case WEBKIT -> "apt-get install webkit2gtk-driver xvfb (./setup.sh does), or set " + overrideName(kind) + "=/path/to/MiniBrowser";
            case SAFARI, OTHER -> "open the page of 'accelbridge serve' in it: Accelbridge cannot launch it";
        };
    }

    static String overrideName(BrowserKind kind) {
        return "-Daccelbridge." + kind.id() + " / " + envName(kind);
    }

    private static String envName(BrowserKind kind) {
        return "ACCELBRIDGE_" + kind.id().toUpperCase(Locale.ROOT).replace('-', '_');
    }

    private static Map<BrowserKind, String> readOverrides() {
        Map<BrowserKind, String> out = new EnumMap<>(BrowserKind.class);
        for (BrowserKind k : BrowserKind.values()) {
            String v = System.getProperty("accelbridge." + k.id());
            if (v == null || v.isBlank()) {
                v = System.getenv(envName(k));
            }
            if (v != null && !v.isBlank()) {
                out.put(k, v.trim());
            }
        }
        return out;
    }
}
