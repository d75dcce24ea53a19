package dev.accelbridge.browser.npm;

import dev.accelbridge.core.PublicApi;

import java.nio.file.Path;

/**
 * One version of an npm package, installed on this machine by the build or into Accelbridge's cache.
 *
 * @param name      the package's name ({@code onnxruntime-web}, {@code @sparticuz/chromium})
 * @param version   its version
 * @param dir       the installed package's folder (its {@code package.json} is there)
 * @param integrity the registry's integrity of its tarball ({@code sha512-...}), as npm checked it on install
 * @param source    where it came from: {@code build} (a folder the build installed) or {@code cache} (fetched at first use)
 */
@PublicApi
public record NpmPackage(String name, String version, Path dir, String integrity, String source) {
    /** {@code onnxruntime-web@1.22.0}. */
    public String spec() {
        return name + "@" + version;
    }
}
