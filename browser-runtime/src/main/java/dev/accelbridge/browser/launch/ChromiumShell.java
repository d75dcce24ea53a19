package dev.accelbridge.browser.launch;

import dev.accelbridge.browser.npm.NpmException;
import dev.accelbridge.browser.npm.NpmPackage;
import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.VersionOrder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Chromium headless shell of the npm package {@code @sparticuz/chromium} (it has a WebNN backend, which Debian's
 * Chromium lacks), one package version per Chromium major. The package ships the binary brotli-compressed
 * ({@code bin/chromium.br} plus SwiftShader and font tarballs); its own {@code executablePath()} decompresses them.
 * {@code browsers/extract.mjs} calls it with {@code TMPDIR} pointed at a versioned cache folder,
 * {@code ~/.cache/accelbridge/chromium-shell-<version>}, so the ≈2 s extraction happens once per machine and never collides
 * with another tool's {@code /tmp/chromium}. Extraction goes to a temporary sibling first and is renamed into place, so
 * an interrupted one is never used.
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

    private ChromiumShell() {
    }

    /** The pinned shell's executable, extracting it first when needed; empty when the npm package is not installed. */
    static synchronized Optional<Path> executable() {
        Optional<Path> dir = browsersDir();
        if (dir.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(extracted(dir.get(), dir.get().resolve(PACKAGE).getParent(), packageVersion(dir.get().resolve(PACKAGE))));
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
        return extracted(browsers, pkg.dir(), pkg.version());
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
    private static Path extracted(Path browsersDir, Path packageDir, String version) {
        Path cache = NpmRegistry.cacheRoot().resolve("chromium-shell-" + version);
        Path exe = cache.resolve("chromium");
        if (Files.isExecutable(exe)) {
            return exe;
        }
        extract(browsersDir, packageDir, cache);
        if (!Files.isExecutable(exe)) {
            throw new BrowserLaunchException("Extracting @sparticuz/chromium " + version + " left no executable at " + exe,
                    "delete " + cache + " and retry; check free space in " + cache.getParent(), null);
        }
        return exe;
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

    private static void extract(Path browsersDir, Path packageDir, Path cache) {
        Path tmp = cache.resolveSibling(cache.getFileName() + ".partial-" + ProcessHandle.current().pid());
        Path log = null;
        try {
            Files.createDirectories(cache.getParent());
            Caches.deleteTree(tmp);
            log = Files.createTempFile("accelbridge-extract", ".log");
            List<String> cmd = new ArrayList<>(List.of(node(), browsersDir.resolve("extract.mjs").toString(), tmp.toString(),
                    packageDir.toString()));
            Process p = new ProcessBuilder(cmd).directory(browsersDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(EXTRACT_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new BrowserLaunchException("Extracting the Chromium headless shell took over " + EXTRACT_TIMEOUT_S + " s",
                        "run 'node " + browsersDir.resolve("extract.mjs") + " " + cache + "' by hand to see why", null);
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new BrowserLaunchException("Extracting the Chromium headless shell failed (node exit " + p.exitValue()
                        + "): " + tail(out), "check 'node --version' (needs Node 20+) and re-run 'npm ci' in " + browsersDir, null);
            }
            try {
                Files.move(tmp, cache, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                Caches.deleteTree(tmp); // another process finished first; use theirs
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, cache);
            }
        } catch (IOException e) {
            throw new BrowserLaunchException("Extracting the Chromium headless shell into " + cache + " failed: " + e.getMessage(),
                    "check free space and permissions of " + cache.getParent(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrowserLaunchException("Interrupted while extracting the Chromium headless shell", null, e);
        } finally {
            if (log != null) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException ignored) {
                    // a leftover log in the temp folder is harmless
                }
            }
            try {
                Caches.deleteTree(tmp);
            } catch (IOException ignored) {
                // best effort
            }
        }
    }

    private static String node() {
        return BrowserDiscovery.resolve("node").map(Path::toString).orElseThrow(() -> new BrowserLaunchException(
                "Node.js is needed to unpack the Chromium headless shell but 'node' is not on PATH",
                "apt-get install nodejs (20+), or set ACCELBRIDGE_CHROMIUM_SHELL to an extracted chromium", null));
    }

    private static String tail(String s) {
        String t = s.strip();
        return t.length() > 600 ? "…" + t.substring(t.length() - 600) : t;
    }
}
