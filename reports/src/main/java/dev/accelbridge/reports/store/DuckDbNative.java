package dev.accelbridge.reports.store;

import dev.accelbridge.core.PublicApi;

/**
 * DuckDB's native library. Its driver unpacks the library from its jar into a temporary file at every JVM start
 * (0.35-0.42 s measured here, before the first connection opens); a program that starts other things first (a bridge,
 * browsers) can have that happen meanwhile.
 */
@PublicApi
public final class DuckDbNative {
    private DuckDbNative() {
    }

    /**
     * Starts loading the library on a daemon thread, so that the store's first open finds it loaded. A failure is left
     * for that open to meet and report with its own words.
     */
    public static void preloadInBackground() {
        Thread t = new Thread(() -> {
            try {
                Class.forName("org.duckdb.DuckDBNative", true, DuckDbNative.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // the store's open meets the same failure
            }
        }, "accelbridge-duckdb-preload");
        t.setDaemon(true);
        t.start();
    }
}
