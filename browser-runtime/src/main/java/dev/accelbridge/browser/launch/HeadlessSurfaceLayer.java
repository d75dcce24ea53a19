package dev.accelbridge.browser.launch;

import dev.accelbridge.core.Caches;
import dev.accelbridge.core.fetch.CacheEntry;
import dev.accelbridge.core.fetch.CacheEntryException;
import dev.accelbridge.core.fetch.TreeManifest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The headless-surface layer and the Vulkan probe as this build made them ({@code src/main/c/build.sh}, into the jar
 * beside this class): unpacked into Accelbridge's cache ({@code ~/.cache/accelbridge/vulkan-layer/<sha256>}) as a
 * {@link CacheEntry}, each file checked against the sha256 the build recorded, and the entry verified again at every use
 * (a damaged one is unpacked again). Where the build had no C compiler or no Vulkan headers, it says which.
 */
final class HeadlessSurfaceLayer {
    static final String RESOURCES = "vulkan/";
    static final String LAYER = "libaccelbridge_headless_surface.so";
    static final String MANIFEST = "accelbridge_headless_surface.json";
    static final String PROBE = "vulkan-probe";
    /** Where the loader looks for implicit layers under a folder of {@code XDG_DATA_DIRS}. */
    static final String LAYER_DIR = "vulkan/implicit_layer.d";

    /** What the build left: the files' sha256s, or why it built none. */
    sealed interface Built permits Made, Absent {
    }

    /** The three files and the sha256 the build recorded for each. */
    record Made(String layer, String manifest, String probe, String compiler) implements Built {
    }

    /** Why this build carries no layer, and the fix. */
    record Absent(String why, String fix) implements Built {
    }

    /** The unpacked, verified entry: its {@code share} folder (for {@code XDG_DATA_DIRS}) and the probe. */
    record Unpacked(Path share, Path probe, String layerSha256, String note) {
    }

    private HeadlessSurfaceLayer() {
    }

    /** What this build left beside this class. */
    static Built built() {
        Properties p = new Properties();
        try (InputStream in = HeadlessSurfaceLayer.class.getResourceAsStream(RESOURCES + "build.properties")) {
            if (in == null) {
                return new Absent("this build of Accelbridge carries no headless-surface layer (no build.properties)",
                        "build Accelbridge on Linux with gcc and libvulkan-dev (setup.sh installs them)");
            }
            p.load(in);
        } catch (IOException e) {
            return new Absent("the layer's build.properties could not be read: " + e.getMessage(), "build Accelbridge again");
        }
        if (p.getProperty("absent") != null) {
            return new Absent(p.getProperty("absent"), p.getProperty("fix", "build Accelbridge again"));
        }
        for (String k : List.of("layer", "manifest", "probe")) {
            if (!p.getProperty(k, "").matches("[0-9a-f]{64}")) {
                return new Absent("the layer's build.properties names no sha256 for " + k, "build Accelbridge again");
            }
        }
        return new Made(p.getProperty("layer"), p.getProperty("manifest"), p.getProperty("probe"), p.getProperty("compiler", "?"));
    }

    /**
     * The built files unpacked into the cache at {@code cacheRoot} and verified.
     *
     * @throws CacheEntryException when no copy matching the build's sha256s can be had
     */
    static Unpacked unpack(Path cacheRoot, Made f) {
        CacheEntry.Verified v = new CacheEntry(cacheRoot, "vulkan-layer", f.layer().substring(0, 16))
                .obtain("the headless-surface layer " + f.layer().substring(0, 12), into -> {
                    Path layers = Files.createDirectories(into.resolve("share").resolve(LAYER_DIR));
                    copy(LAYER, layers.resolve(LAYER), false);
                    copy(MANIFEST, layers.resolve(MANIFEST), false);
                    copy(PROBE, into.resolve(PROBE), true);
                    Map<String, String> facts = new LinkedHashMap<>();
                    facts.put("layer", f.layer());
                    facts.put("compiler", f.compiler().replaceAll("[\\r\\n]", " "));
                    return facts;
                }, (dir, facts) -> mismatch(dir, f));
        return new Unpacked(v.dir().resolve("share"), v.dir().resolve(PROBE), f.layer(), v.note());
    }

    /** {@link #unpack} into Accelbridge's cache. */
    static Unpacked unpack(Made f) {
        return unpack(Caches.root(), f);
    }

    private static void copy(String resource, Path to, boolean executable) throws IOException {
        try (InputStream in = HeadlessSurfaceLayer.class.getResourceAsStream(RESOURCES + resource)) {
            if (in == null) {
                throw new IOException("the jar lacks " + RESOURCES + resource + ", which its build.properties names");
            }
            Files.copy(in, to);
        }
        if (executable && !to.toFile().setExecutable(true, true)) {
            throw new IOException("could not make " + to + " executable");
        }
    }

    /** Which file of the entry is not what the build made, or empty. */
    private static Optional<String> mismatch(Path dir, Made f) throws IOException {
        Path layers = dir.resolve("share").resolve(LAYER_DIR);
        Map<Path, String> want = Map.of(layers.resolve(LAYER), f.layer(), layers.resolve(MANIFEST), f.manifest(), dir.resolve(PROBE), f.probe());
        for (Map.Entry<Path, String> e : want.entrySet()) {
            if (!Files.isRegularFile(e.getKey())) {
                return Optional.of(e.getKey().getFileName() + " is missing");
            }
            String got = TreeManifest.sha256(e.getKey());
            if (!got.equals(e.getValue())) {
                return Optional.of(e.getKey().getFileName() + " has sha256 " + got + " where the build made " + e.getValue());
            }
        }
        return Optional.empty();
    }
}
