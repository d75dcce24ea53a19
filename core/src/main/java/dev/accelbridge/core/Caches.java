package dev.accelbridge.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * Accelbridge's cache folder, where what it fetches at first use is kept (the headless shells, onnxruntime-web releases,
 * ONNX Runtime jars): {@code -Daccelbridge.cache.dir}, else {@code ACCELBRIDGE_CACHE_DIR}, else {@code ~/.cache/accelbridge}.
 */
public final class Caches {
    private Caches() {
    }

    /** The cache folder (not created here). */
    public static Path root() {
        String explicit = System.getProperty("accelbridge.cache.dir", System.getenv("ACCELBRIDGE_CACHE_DIR"));
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "accelbridge");
    }

    /**
     * Deletes a folder and everything below it (a partial download, a replaced cache entry, a browser profile); a folder
     * that is not there is fine. Links are deleted, never followed.
     */
    public static void deleteTree(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
