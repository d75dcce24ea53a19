package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;
import java.nio.file.Path;
import java.util.Objects;

/**
 * How the suites are generated.
 *
 * @param cacheDir where generated {@code .onnx} files are written and reused
 * @param size     model size (see {@link ModelSize})
 * @param seed     seed of every generated weight; the same seed gives byte-identical files
 */
@PublicApi
public record SuiteOptions(Path cacheDir, ModelSize size, long seed) {
    /** The seed used when none is given. */
    public static final long DEFAULT_SEED = 20240917L;

    public SuiteOptions {
        Objects.requireNonNull(cacheDir, "cacheDir");
        Objects.requireNonNull(size, "size");
    }

    /** Small models, the default seed, cached under {@code cacheDir}. */
    public static SuiteOptions defaults(Path cacheDir) {
        return new SuiteOptions(cacheDir, ModelSize.SMALL, DEFAULT_SEED);
    }
}
