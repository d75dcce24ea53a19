package dev.accelbridge.browser.npm;

import dev.accelbridge.core.PublicApi;

import java.nio.file.Path;
import java.util.Map;

/**
 * One version of an npm package, installed on this machine by the build or into Accelbridge's cache.
 *
 * @param name      the package's name ({@code onnxruntime-web}, {@code @sparticuz/chromium})
 * @param version   its version
 * @param dir       the installed package's folder (its {@code package.json} is there)
 * @param integrity the registry's integrity of its tarball ({@code sha512-...}): from the build's lockfile, or, for a
 *                  cached package, the one recorded at download and verified against the kept tarball now
 * @param source    where it came from: {@code build} (a folder the build installed) or {@code cache} (fetched at first use)
 * @param sha256    for a cached package, every file's sha256 by its path relative to {@code dir}, as verified now; empty
 *                  for the build's (the checkout's own installation)
 * @param verified  what was verified in this run, for provenance ({@code sha512-… and 312 files (manifest sha256 …)}); null
 *                  for the build's
 */
@PublicApi
public record NpmPackage(String name, String version, Path dir, String integrity, String source, Map<String, String> sha256,
                         String verified) {
    public NpmPackage {
        sha256 = sha256 == null ? Map.of() : Map.copyOf(sha256);
    }

    /** A package of the build's, verified by nothing of Accelbridge's. */
    public NpmPackage(String name, String version, Path dir, String integrity, String source) {
        this(name, version, dir, integrity, source, Map.of(), null);
    }

    /** {@code onnxruntime-web@1.22.0}. */
    public String spec() {
        return name + "@" + version;
    }
}
