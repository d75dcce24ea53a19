package dev.accelbridge.core;

import java.nio.file.Path;

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
}
