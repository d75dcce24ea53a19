package dev.accelbridge.reports.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.host;
import static org.assertj.core.api.Assertions.assertThat;

class DuckDbNativeTest {
    @TempDir
    Path dir;

    /** The preload and a store's first open race for the library's loading (in a fresh JVM); both end with a working store. */
    @Test
    void aStoreOpensWhileTheLibraryIsStillLoadingInTheBackground() {
        DuckDbNative.preloadInBackground();
        DuckDbNative.preloadInBackground();
        try (MatrixStore s = MatrixStore.open(dir.resolve("race.duckdb"))) {
            String run = s.beginRun(host("alpha"), Map.of(), "{}");
            assertThat(s.run(run)).isPresent();
        }
    }
}
