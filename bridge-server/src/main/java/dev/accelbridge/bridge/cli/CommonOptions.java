package dev.accelbridge.bridge.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Options every command shares. */
final class CommonOptions {
    @Option(names = {"-v", "--verbose"}, description = "Print stack traces with errors.")
    boolean verbose;

    @Option(names = "--db", paramLabel = "PATH",
            description = "The matrix store (embedded DuckDB). Default: ~/.accelbridge/matrix.duckdb, or $ACCELBRIDGE_DB.")
    Path db;

    /** The store path: --db, else $ACCELBRIDGE_DB, else the default location. */
    Path dbPath() {
        return dev.accelbridge.reports.store.MatrixStore.resolve(db);
    }
}
