package dev.accelbridge.browser.page;

import dev.accelbridge.bridge.ServedOrtWeb;
import dev.accelbridge.bridge.ServedPage;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.browser.npm.NpmPackage;
import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.core.fetch.TreeManifest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * One onnxruntime-web the inference page can load: the version pinned by the page's {@code package.json} (served from
 * the classpath under {@code /ort/}), or any release from the npm registry (its package's {@code dist} folder, served
 * under {@code /ort-web/VERSION/}). The page is told which by its URL ({@link #pageQuery()}) and imports the build's ES
 * module bundle: {@code ort.all.min.mjs} from 1.19 on, {@code esm/ort.all.min.js} in 1.17 and 1.18. Releases before 1.17
 * ship no ES module bundle at all, which makes every case of theirs UNSUPPORTED with that reason.
 *
 * @param version   the onnxruntime-web version
 * @param dist      its {@code dist} folder, or null for the pinned build on the classpath
 * @param entry     the bundle the page imports, relative to {@code dist}
 * @param integrity the registry's sha512 integrity of the package's tarball (null for the pinned build, which the
 *                  page's lockfile pins)
 * @param source    {@code pinned}, {@code build} (installed by the build) or {@code cache} (fetched at first use)
 * @param sha256    for a cached release, the sha256 of every file under {@code dist} as verified when the lane took it:
 *                  the bridge serves a file only while its bytes still have it; empty otherwise
 * @param verified  what was verified of a cached release, for provenance; null otherwise
 */
@PublicApi
public record OrtWebBuild(String version, Path dist, String entry, String integrity, String source, Map<String, String> sha256,
                          String verified) {
    /** The npm package. */
    public static final String PACKAGE = "onnxruntime-web";
    /** The ES module bundles with every execution provider, newest layout first. */
    static final List<String> ENTRIES = List.of("ort.all.min.mjs", "esm/ort.all.min.js");

    public OrtWebBuild {
        sha256 = sha256 == null ? Map.of() : Map.copyOf(sha256);
    }

    /** A build without verified files (pinned, or the build's own installation). */
    public OrtWebBuild(String version, Path dist, String entry, String integrity, String source) {
        this(version, dist, entry, integrity, source, Map.of(), null);
    }

    /** The version the page's {@code package.json} pins, served from the classpath. */
    public static OrtWebBuild pinned() {
        return new OrtWebBuild(PageAssets.ortWebVersion(), null, "ort.all.min.mjs", null, "pinned");
    }

    /**
     * onnxruntime-web {@code version}: the pinned build, or the release installed by the build or cached, fetched from the
     * npm registry first when neither has it.
     *
     * @throws dev.accelbridge.browser.npm.NpmException when the registry does not publish it or cannot be reached
     * @throws UnsupportedModelException                 when the release has no ES module bundle the page can import
     */
    public static OrtWebBuild of(String version) {
        if (version == null || version.equals(PageAssets.ortWebVersion())) {
            return pinned();
        }
        return of(NpmRegistry.require(PACKAGE, version));
    }

    /**
     * The release in {@code p} (installed by the build, or a verified cache entry).
     *
     * @throws UnsupportedModelException when the release has no ES module bundle the page can import
     */
    public static OrtWebBuild of(NpmPackage p) {
        String version = p.version();
        Path dist = p.dir().resolve("dist");
        Optional<String> entry = ENTRIES.stream().filter(e -> Files.isRegularFile(dist.resolve(e))).findFirst();
        if (entry.isEmpty()) {
            throw new UnsupportedModelException("onnxruntime-web " + version + " ships no ES module bundle the page can import ("
                    + String.join(" or ", ENTRIES) + " in " + dist + "); the first release with one is 1.17.0",
                    "run onnxruntime-web 1.17.0 or newer", null);
        }
        Map<String, String> sha = new java.util.TreeMap<>();
        p.sha256().forEach((path, h) -> {
            if (path.startsWith("dist/")) {
                sha.put(path.substring("dist/".length()), h);
            }
        });
        return new OrtWebBuild(version, dist, entry.get(), p.integrity(), p.source(), sha, p.verified());
    }

    /** A module's file name as onnxruntime-web names its WebAssembly ({@code ort-wasm-simd-threaded.jsep.wasm}). */
    private static final Pattern MODULE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}\\.wasm");
    /** Hashes of the served modules, by version and file (a module is tens of MB: hashed once per process). */
    private static final Map<String, String> MODULE_SHA256 = new ConcurrentHashMap<>();

    /**
     * The WebAssembly modules a page says it loaded, each named with the sha256 of the bytes this build serves under that
     * name ({@code ort-wasm-simd-threaded.jsep.wasm sha256:…}), so which engine ran is recorded from what ran. A name this
     * build does not serve is not taken from the page; empty when none is left (unknown).
     */
    public Optional<String> modules(List<String> named) {
        List<String> out = new ArrayList<>();
        for (String n : named.subList(0, Math.min(named.size(), 8))) {
            if (n != null && MODULE.matcher(n).matches()) {
                moduleSha256(n).ifPresent(h -> out.add(n + " sha256:" + h));
            }
        }
        return out.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", out));
    }

    private Optional<String> moduleSha256(String name) {
        if (!isPinned() && !sha256.isEmpty()) {
            return Optional.ofNullable(sha256.get(name)); // verified when the lane took the release
        }
        String key = version + "/" + name;
        String known = MODULE_SHA256.get(key);
        if (known != null) {
            return Optional.of(known);
        }
        try {
            String h;
            if (isPinned()) {
                try (InputStream in = OrtWebBuild.class.getClassLoader().getResourceAsStream(PageAssets.CLASSPATH_ROOT + "/ort/" + name)) {
                    if (in == null) {
                        return Optional.empty();
                    }
                    h = TreeManifest.sha256(in);
                }
            } else if (Files.isRegularFile(dist.resolve(name))) {
                h = TreeManifest.sha256(dist.resolve(name));
            } else {
                return Optional.empty();
            }
            MODULE_SHA256.put(key, h);
            return Optional.of(h);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** True for the pinned build on the classpath. */
    public boolean isPinned() {
        return dist == null;
    }

    /** The engine this build's page runs: the one whose bundle it imports. */
    public OrtWebEngine engine() {
        return OrtWebEngine.ofEntry(entry);
    }

    /**
     * This release with {@code engine}'s bundle as the page's entry.
     *
     * @throws BackendUnavailableException naming the release and the modules it ships when it does not ship that engine
     */
    public OrtWebBuild withEngine(OrtWebEngine engine) {
        if (engine == engine()) {
            return this;
        }
        List<String> ships = isPinned() ? Arrays.stream(OrtWebEngine.values()).filter(e -> served(e.bundle()) && served(e.module()))
                .map(OrtWebEngine::module).toList() : wasmFiles();
        if (!served(engine.bundle()) || !served(engine.module())) {
            throw new BackendUnavailableException("onnxruntime-web " + version + " does not ship " + engine.description() + " (no "
                    + engine.bundle() + " with " + engine.module() + "; its WebAssembly modules: " + ships + ")",
                    "run it on --engines " + OrtWebEngine.JSEP.id() + ", or run a newer release with --ort-web");
        }
        return new OrtWebBuild(version, dist, engine.bundle(), integrity, source, sha256, verified);
    }

    private boolean served(String file) {
        return isPinned() ? ServedPage.servesPinned(file)
                : Files.isRegularFile(dist.resolve(file));
    }

    private List<String> wasmFiles() {
        try (var files = Files.list(dist)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".wasm")).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * The page's query parameters that make it load this build ({@code ort=1.22.0&ortEntry=ort.all.min.mjs}); for the
     * pinned release its entry alone ({@code ortEntry=ort.webgpu.min.mjs}): the page is always told its engine's bundle.
     */
    public String pageQuery() {
        if (isPinned()) {
            return "ortEntry=" + entry;
        }
        return "ort=" + version + "&ortEntry=" + entry;
    }

    /** This release as the bridge serves it: its folder, its files' verified sha256 and the page's query for it. */
    public ServedOrtWeb served() {
        return new ServedOrtWeb(version, Optional.ofNullable(dist), sha256, pageQuery());
    }

    /** {@code onnxruntime-web 1.22.0 (npm, sha512-…)}: what provenance and messages say of it. */
    public String describe() {
        return "onnxruntime-web " + version + (isPinned() ? " (pinned)" : " (npm " + source + (integrity == null ? "" : ", " + integrity) + ")");
    }
}
