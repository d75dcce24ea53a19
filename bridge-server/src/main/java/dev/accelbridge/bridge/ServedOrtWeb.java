package dev.accelbridge.bridge;

import dev.accelbridge.core.PublicApi;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * An onnxruntime-web release as the bridge serves it: its version, its verified folder ({@code dist}; none for the pinned
 * release, which is on the classpath), the sha256 of each file as verified when its lane took it (empty: serve as found),
 * and the page's query that makes the page import it. browser-runtime's {@code OrtWebBuild} resolves and verifies releases
 * and hands the bridge this value.
 *
 * @param version   the release, e.g. {@code 1.22.0}
 * @param dist      its folder of scripts and WebAssembly; empty for the pinned release
 * @param sha256    file (relative to {@code dist}) to its verified sha256
 * @param pageQuery the page's query parameters for it ({@code ort=1.22.0&ortEntry=ort.all.min.mjs}), "" for the pinned default
 */
@PublicApi
public record ServedOrtWeb(String version, Optional<Path> dist, Map<String, String> sha256, String pageQuery) {
    /** Copies the map. */
    public ServedOrtWeb {
        sha256 = Map.copyOf(sha256);
    }

    /** The pinned release, on the classpath, with the page's default entry. */
    public static ServedOrtWeb pinned() {
        return new ServedOrtWeb(ServedPage.ortWebVersion(), Optional.empty(), Map.of(), "");
    }

    /** True for a release on the classpath. */
    public boolean isPinned() {
        return dist.isEmpty();
    }
}
