package dev.accelbridge.browser.launch;

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
 * The Chromium 153 headless shell of the npm package {@code @sparticuz/chromium} (it has a WebNN backend, which
 * Debian's Chromium lacks). The package ships the binary brotli-compressed ({@code bin/chromium.br} plus
 * SwiftShader and font tarballs); its own {@code executablePath()} decompresses them. {@code browsers/extract.mjs}
 * calls it with {@code TMPDIR} pointed at a versioned cache folder, {@code ~/.cache/accelbridge/chromium-shell-<version>},
 * so the ≈2 s extraction happens once per machine and never collides with another tool's {@code /tmp/chromium}.
 * Extraction goes to a temporary sibling first and is renamed into place, so an interrupted one is never used.
 *
 * <p>The {@code browsers} folder is found from {@code -Daccelbridge.browsers.dir} / {@code ACCELBRIDGE_BROWSERS_DIR},
 * else by walking up from the working directory looking for {@code browser-runtime/browsers} or {@code browsers}.
 */
final class ChromiumShell {
    private static final String PACKAGE = "node_modules/@sparticuz/chromium/package.json";
    private static final Pattern PKG_VERSION = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");
    private static final long EXTRACT_TIMEOUT_S = 180;

    private ChromiumShell() {
    }

    /** The extracted executable, extracting it first when needed; empty when the npm package is not installed. */
    static synchronized Optional<Path> executable() {
        Optional<Path> dir = browsersDir();
        if (dir.isEmpty()) {
            return Optional.empty();
        }
        String version = packageVersion(dir.get().resolve(PACKAGE));
        Path cache = cacheRoot().resolve("chromium-shell-" + version);
        Path exe = cache.resolve("chromium");
        if (Files.isExecutable(exe)) {
            return Optional.of(exe);
        }
        extract(dir.get(), cache);
        if (!Files.isExecutable(exe)) {
            throw new BrowserLaunchException("Extracting @sparticuz/chromium " + version + " left no executable at " + exe,
                    "delete " + cache + " and retry; check free space in " + cache.getParent(), null);
        }
        return Optional.of(exe);
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
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            for (Path c : List.of(d.resolve("browser-runtime/browsers"), d.resolve("browsers"))) {
                if (Files.isRegularFile(c.resolve(PACKAGE)) && Files.isRegularFile(c.resolve("extract.mjs"))) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    private static Path cacheRoot() {
        String explicit = System.getProperty("accelbridge.cache.dir", System.getenv("ACCELBRIDGE_CACHE_DIR"));
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "accelbridge");
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

    private static void extract(Path browsersDir, Path cache) {
        Path tmp = cache.resolveSibling(cache.getFileName() + ".partial-" + ProcessHandle.current().pid());
        Path log = null;
        try {
            Files.createDirectories(cache.getParent());
            deleteTree(tmp);
            log = Files.createTempFile("accelbridge-extract", ".log");
            List<String> cmd = new ArrayList<>(List.of(node(), browsersDir.resolve("extract.mjs").toString(), tmp.toString()));
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
                deleteTree(tmp); // another process finished first; use theirs
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
                deleteTree(tmp);
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

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static String tail(String s) {
        String t = s.strip();
        return t.length() > 600 ? "…" + t.substring(t.length() - 600) : t;
    }
}
