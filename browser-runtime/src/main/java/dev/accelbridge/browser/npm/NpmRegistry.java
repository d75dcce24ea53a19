package dev.accelbridge.browser.npm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.core.fetch.CacheEntry;
import dev.accelbridge.core.fetch.CacheEntryException;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * from its cache, else fetched from the npm registry into the cache at first use, one {@link CacheEntry} per version. A
 * fetched package is installed by npm, which checks the tarball against the integrity the registry publishes;
 * Accelbridge then asks the registry for that integrity itself, keeps the tarball beside the installed folder and refuses
 * both when they differ. At every later use the entry is verified before anything in it is served or run: its tarball's
 * sha512 against the integrity recorded at download, every file against the manifest made at unpacking, every file this
 * user's ({@link CacheEntry}); a damaged entry is fetched again. The registry, proxy and certificates are npm's own
 * configuration.
 *
 * <p>The build's folders are found under {@code -Daccelbridge.home} (the {@code accelbridge} script sets it), else by
 * walking up from the working directory to {@code browser-runtime}; more can be named in {@code -Daccelbridge.npm.dirs}
 * (path-separated). The cache is {@code -Daccelbridge.cache.dir} / {@code ACCELBRIDGE_CACHE_DIR}, else
 * {@code ~/.cache/accelbridge}.
 */
@PublicApi
public final class NpmRegistry {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The registry's tarball, kept in the entry so that its integrity can be verified at every use. */
    static final String TARBALL = "package.tgz";
    private static final Map<String, List<String>> PUBLISHED = new ConcurrentHashMap<>();

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
        return inCache(cacheRoot(), name, version);
    }

    /** The package {@code name@version} when the cache at {@code cacheRoot} holds it intact; nothing is fetched or repaired. */
    public static Optional<NpmPackage> inCache(Path cacheRoot, String name, String version) {
        return entry(cacheRoot, name, version).flatMap(e -> e.existing(check(name, version))).map(v -> cached(name, version, v));
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
        String prefix = entryName(name, "");
        try (var dirs = Files.list(cacheRoot().resolve("npm"))) {
            dirs.map(d -> d.getFileName().toString()).filter(d -> d.startsWith(prefix))
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
        return require(cacheRoot(), name, version);
    }

    /** {@link #require(String, String)} with the cache at {@code cacheRoot}. */
    static NpmPackage require(Path cacheRoot, String name, String version) {
        for (Path folder : buildFolders()) {
            Optional<NpmPackage> p = fromLockfile(folder, name, version);
            if (p.isPresent()) {
                return p.get();
            }
        }
        return cached(cacheRoot, name, version);
    }

    /**
     * The package {@code name@version} from the cache at {@code cacheRoot} alone (the build's folders are not looked at):
     * verified, repaired when damaged, fetched from the registry when absent.
     *
     * @throws NpmException when no intact copy can be had
     */
    public static NpmPackage cached(Path cacheRoot, String name, String version) {
        CacheEntry e = entry(cacheRoot, name, version).orElseThrow(() -> new NpmException("Not a package version: "
                + Untrusted.quote(name + "@" + version), "give a version such as 1.22.0"));
        try {
            return cached(name, version, e.obtain(name + " " + version, into -> fetch(name, version, into), check(name, version)));
        } catch (CacheEntryException x) {
            throw new NpmException(x.getMessage(), x.fix(), x);
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

    /** The cache entry of {@code name@version}; empty when the version could not name a folder. */
    private static Optional<CacheEntry> entry(Path cacheRoot, String name, String version) {
        try {
            return Optional.of(new CacheEntry(cacheRoot, "npm", entryName(name, version)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String entryName(String name, String version) {
        return name.replace('/', '+') + "@" + version;
    }

    /** A verified cache entry as a package. */
    private static NpmPackage cached(String name, String version, CacheEntry.Verified v) {
        String prefix = "node_modules/" + name + "/";
        Map<String, String> sha = new java.util.TreeMap<>();
        v.tree().files().forEach((path, f) -> {
            if (path.startsWith(prefix)) {
                sha.put(path.substring(prefix.length()), f.sha256());
            }
        });
        String integrity = v.fact("integrity");
        return new NpmPackage(name, version, v.dir().resolve("node_modules").resolve(name), integrity, "cache", sha,
                integrity + " of the kept tarball and " + v.tree().files().size() + " files (manifest sha256 " + v.manifest()
                        + ") verified" + (v.fetched() ? " at download" : "") + v.note());
    }

    /**
     * What a cached package must hold at every use beyond its manifest: the record of this name and version, and a
     * tarball whose sha512 is the integrity recorded at download (the registry's).
     */
    private static CacheEntry.Check check(String name, String version) {
        return (dir, facts) -> {
            if (!name.equals(facts.get("name")) || !version.equals(facts.get("version"))) {
                return Optional.of("its record names " + Untrusted.quote(facts.get("name") + "@" + facts.get("version")) + ", not "
                        + name + "@" + version);
            }
            String recorded = facts.get("integrity");
            if (recorded == null || !Integrity.SRI_SHA512.matcher(recorded).matches()) {
                return Optional.of("its recorded integrity " + Untrusted.quote(recorded) + " is not a sha512 integrity");
            }
            Path tgz = dir.resolve(TARBALL);
            if (!Files.isRegularFile(tgz, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of("its tarball " + TARBALL + " is missing");
            }
            String got = Integrity.sha512(tgz);
            if (!got.equals(recorded)) {
                return Optional.of("its tarball has " + got + "; recorded at download (the registry's): " + recorded);
            }
            if (!Files.isRegularFile(dir.resolve("node_modules").resolve(name).resolve("package.json"))) {
                return Optional.of("node_modules/" + name + "/package.json is missing");
            }
            return Optional.empty();
        };
    }

    /** Installs {@code name@version} with npm into {@code into} (a private folder), keeps its tarball and checks both against the registry. */
    private static Map<String, String> fetch(String name, String version, Path into) throws IOException {
        Files.writeString(into.resolve("package.json"), JSON.createObjectNode().put("name", "accelbridge-cache").put("private", true)
                .set("dependencies", JSON.createObjectNode().put(name, version)).toString());
        Npm.run(List.of("install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"), into,
                "install " + name + "@" + version);
        JsonNode entry = JSON.readTree(into.resolve("node_modules/.package-lock.json").toFile()).path("packages")
                .path("node_modules/" + name);
        String installed = entry.path("integrity").asText(null);
        if (!version.equals(entry.path("version").asText())) {
            throw new NpmException("npm installed " + name + " " + Untrusted.quote(entry.path("version").asText("?")) + " when " + version
                    + " was asked for", "ask for a version the registry publishes ('npm view " + name + " versions')");
        }
        String published = Npm.json(List.of("view", name + "@" + version, "dist.integrity", "--json"), null,
                "read the registry's integrity of " + name + "@" + version).asText();
        if (installed == null || !installed.equals(published)) {
            throw new NpmException("The tarball npm installed for " + name + "@" + version + " has integrity " + Untrusted.quote(installed)
                    + ", the registry publishes " + Untrusted.quote(published) + ": not used", "clear npm's cache ('npm cache clean --force') and retry");
        }
        JsonNode packed = Npm.json(List.of("pack", name + "@" + version, "--pack-destination", into.toString(), "--json"), null,
                "keep the tarball of " + name + "@" + version);
        String file = packed.path(0).path("filename").asText("");
        Path tgz = into.resolve(Path.of(file.isEmpty() ? "-" : file).getFileName().toString());
        if (!Files.isRegularFile(tgz)) {
            throw new NpmException("npm pack " + name + "@" + version + " left no tarball in " + into, "check 'npm --version' (needs npm 7+)");
        }
        Files.move(tgz, into.resolve(TARBALL));
        String kept = Integrity.sha512(into.resolve(TARBALL));
        if (!kept.equals(published)) {
            throw new NpmException("The tarball of " + name + "@" + version + " has " + kept + ", the registry publishes " + published
                    + ": not used", "clear npm's cache ('npm cache clean --force') and retry");
        }
        Map<String, String> facts = new java.util.LinkedHashMap<>();
        facts.put("name", name);
        facts.put("version", version);
        facts.put("integrity", published);
        facts.put("checkedAgainst", "npm view " + name + "@" + version + " dist.integrity");
        return facts;
    }
}
