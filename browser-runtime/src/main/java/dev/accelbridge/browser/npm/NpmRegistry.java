package dev.accelbridge.browser.npm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.PublicApi;

import java.io.File;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Versions of npm packages (onnxruntime-web, the headless shell of {@code @sparticuz/chromium}) the way Accelbridge gets
 * them: first from the folders the build installed with {@code npm ci} (their lockfiles pin each tarball's sha512), else
 * from its cache, else fetched from the npm registry into the cache at first use, one folder per version. A fetched
 * package is installed by npm, which checks the tarball against the integrity the registry publishes; Accelbridge then
 * asks the registry for that integrity itself and refuses the folder when the two differ. The registry, proxy and
 * certificates are npm's own configuration.
 *
 * <p>The build's folders are found under {@code -Daccelbridge.home} (the {@code accelbridge} script sets it), else by
 * walking up from the working directory to {@code browser-runtime}; more can be named in {@code -Daccelbridge.npm.dirs}
 * (path-separated). The cache is {@code -Daccelbridge.cache.dir} / {@code ACCELBRIDGE_CACHE_DIR}, else
 * {@code ~/.cache/accelbridge}.
 */
@PublicApi
public final class NpmRegistry {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STAMP = ".accelbridge-installed.json";
    private static final Map<String, List<String>> PUBLISHED = new ConcurrentHashMap<>();
    private static final Object INSTALLING = new Object();

    private NpmRegistry() {
    }

    /** Accelbridge's cache folder ({@link dev.accelbridge.core.Caches#root()}). */
    public static Path cacheRoot() {
        return Caches.root();
    }

    /** The package {@code name@version} where the build or the cache has it, without asking the registry. */
    public static Optional<NpmPackage> installed(String name, String version) {
        for (Path folder : buildFolders()) {
            Optional<NpmPackage> p = fromLockfile(folder, name, version);
            if (p.isPresent()) {
                return p;
            }
        }
        Path dir = cacheFolder(name, version);
        Path stamp = dir.resolve(STAMP);
        if (Files.isRegularFile(stamp)) {
            try {
                JsonNode s = JSON.readTree(stamp.toFile());
                Path pkg = dir.resolve("node_modules").resolve(name);
                if (Files.isRegularFile(pkg.resolve("package.json"))) {
                    return Optional.of(new NpmPackage(name, version, pkg, s.path("integrity").asText(null), "cache"));
                }
            } catch (IOException e) {
                // a damaged stamp: the package is fetched again
            }
        }
        return Optional.empty();
    }

    /** The versions of {@code name} the build's folders and the cache hold, without asking the registry. */
    public static List<String> installedVersions(String name) {
        Set<String> out = new LinkedHashSet<>();
        for (Path folder : buildFolders()) {
            Path lock = folder.resolve("node_modules/.package-lock.json");
            try {
                JsonNode packages = Files.isRegularFile(lock) ? JSON.readTree(lock.toFile()).path("packages") : JSON.createObjectNode();
                packages.fields().forEachRemaining(e -> {
                    String key = e.getKey();
                    if (key.startsWith("node_modules/") && key.indexOf("/node_modules/") < 0
                            && e.getValue().path("name").asText(key.substring("node_modules/".length())).equals(name)) {
                        out.add(e.getValue().path("version").asText());
                    }
                });
            } catch (IOException e) {
                // an unreadable lockfile offers nothing
            }
        }
        String prefix = name.replace('/', '+') + "@";
        try (var dirs = Files.list(cacheRoot().resolve("npm"))) {
            dirs.map(d -> d.getFileName().toString()).filter(d -> d.startsWith(prefix) && !d.contains(".partial-"))
                    .map(d -> d.substring(prefix.length())).filter(v -> installed(name, v).isPresent()).forEach(out::add);
        } catch (IOException e) {
            // no cache yet
        }
        return List.copyOf(out);
    }

    /**
     * The package {@code name@version}: installed, or fetched from the registry into the cache now (seconds to a minute).
     *
     * @throws NpmException when the registry does not have it, cannot be reached, or its integrity does not match
     */
    public static NpmPackage require(String name, String version) {
        Optional<NpmPackage> have = installed(name, version);
        if (have.isPresent()) {
            return have.get();
        }
        synchronized (INSTALLING) { // two lanes asking for one version install it once
            return installed(name, version).orElseGet(() -> fetch(name, version));
        }
    }

    /**
     * Every version of {@code name} the registry publishes (releases and pre-releases), as it lists them; asked once per
     * process.
     *
     * @throws NpmException when the registry cannot be asked
     */
    public static List<String> published(String name) {
        return PUBLISHED.computeIfAbsent(name, n -> {
            JsonNode a = Npm.json(List.of("view", n, "versions", "--json"), null, "list the published versions of " + n);
            List<String> out = new ArrayList<>();
            (a.isArray() ? a : JSON.createArrayNode().add(a)).forEach(v -> out.add(v.asText()));
            return List.copyOf(out);
        });
    }

    /** The folders the build installed packages in (with {@code npm ci}), best first. */
    static List<Path> buildFolders() {
        Set<Path> out = new LinkedHashSet<>();
        String dirs = System.getProperty("accelbridge.npm.dirs");
        if (dirs != null && !dirs.isBlank()) {
            for (String d : dirs.split(File.pathSeparator)) {
                if (!d.isBlank()) {
                    out.add(Path.of(d.trim()).toAbsolutePath());
                }
            }
        }
        browserRuntime().ifPresent(br -> {
            out.add(br.resolve("src/main/web"));
            out.add(br.resolve("browsers"));
            out.add(br.resolve("versions"));
        });
        return out.stream().filter(d -> Files.isDirectory(d.resolve("node_modules"))).toList();
    }

    /** The project's {@code browser-runtime} folder: under {@code accelbridge.home}, else above the working directory. */
    private static Optional<Path> browserRuntime() {
        String home = System.getProperty("accelbridge.home");
        if (home != null && Files.isDirectory(Path.of(home, "browser-runtime"))) {
            return Optional.of(Path.of(home, "browser-runtime").toAbsolutePath());
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("browser-runtime/browsers"))) {
                return Optional.of(d.resolve("browser-runtime"));
            }
        }
        return Optional.empty();
    }

    /** The package as {@code npm ci} installed it in {@code folder}, under its name or an alias, from the hidden lockfile. */
    private static Optional<NpmPackage> fromLockfile(Path folder, String name, String version) {
        Path lock = folder.resolve("node_modules/.package-lock.json");
        if (!Files.isRegularFile(lock)) {
            return Optional.empty();
        }
        try {
            JsonNode packages = JSON.readTree(lock.toFile()).path("packages");
            for (Iterator<Map.Entry<String, JsonNode>> it = packages.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String key = e.getKey();
                if (!key.startsWith("node_modules/") || key.indexOf("/node_modules/") > 0) {
                    continue; // only what stands at the top of node_modules
                }
                String dirName = key.substring("node_modules/".length());
                String pkgName = e.getValue().path("name").asText(dirName); // an alias ("ort-1.22.0": "npm:onnxruntime-web@1.22.0") names it
                Path dir = folder.resolve(key);
                if (pkgName.equals(name) && version.equals(e.getValue().path("version").asText())
                        && Files.isRegularFile(dir.resolve("package.json"))) {
                    return Optional.of(new NpmPackage(name, version, dir, e.getValue().path("integrity").asText(null), "build"));
                }
            }
        } catch (IOException e) {
            // an unreadable lockfile: that folder offers nothing
        }
        return Optional.empty();
    }

    private static Path cacheFolder(String name, String version) {
        return cacheRoot().resolve("npm").resolve(name.replace('/', '+') + "@" + version);
    }

    private static NpmPackage fetch(String name, String version) {
        Path dir = cacheFolder(name, version);
        Path tmp = dir.resolveSibling(dir.getFileName() + ".partial-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(dir.getParent());
            Caches.deleteTree(tmp);
            Files.createDirectories(tmp);
            Files.writeString(tmp.resolve("package.json"), JSON.createObjectNode().put("name", "accelbridge-cache").put("private", true)
                    .set("dependencies", JSON.createObjectNode().put(name, version)).toString());
            Npm.run(List.of("install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"), tmp,
                    "install " + name + "@" + version);
            JsonNode entry = JSON.readTree(tmp.resolve("node_modules/.package-lock.json").toFile()).path("packages")
                    .path("node_modules/" + name);
            String installed = entry.path("integrity").asText(null);
            if (!version.equals(entry.path("version").asText())) {
                throw new NpmException("npm installed " + name + " " + entry.path("version").asText("?") + " when " + version
                        + " was asked for", "ask for a version the registry publishes ('npm view " + name + " versions')");
            }
            JsonNode published = Npm.json(List.of("view", name + "@" + version, "dist.integrity", "--json"), null,
                    "read the registry's integrity of " + name + "@" + version);
            if (installed == null || !installed.equals(published.asText())) {
                throw new NpmException("The tarball npm installed for " + name + "@" + version + " has integrity " + installed
                        + ", the registry publishes " + published.asText() + ": not used", "clear npm's cache ('npm cache clean --force') and retry");
            }
            Files.writeString(tmp.resolve(STAMP), JSON.createObjectNode().put("name", name).put("version", version)
                    .put("integrity", installed).put("checkedAgainst", "npm view " + name + "@" + version + " dist.integrity").toString());
            try {
                Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                Caches.deleteTree(dir); // a folder without a stamp (an interrupted install before stamps, say): replaced
                Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dir);
            }
            return new NpmPackage(name, version, dir.resolve("node_modules").resolve(name), installed, "cache");
        } catch (IOException e) {
            throw new NpmException("Could not install " + name + "@" + version + " into " + dir + ": " + e.getMessage(),
                    "check free space and permissions of " + dir.getParent(), e);
        } finally {
            try {
                Caches.deleteTree(tmp);
            } catch (IOException ignored) {
                // best effort: a leftover partial folder is never used
            }
        }
    }

}
