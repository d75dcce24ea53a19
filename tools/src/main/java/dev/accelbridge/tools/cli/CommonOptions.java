package dev.accelbridge.tools.cli;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.reports.store.MatrixStore;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

/** Options every command shares. */
@OptionSection("Common: the store, errors in full")
final class CommonOptions {
    @Option(names = {"-v", "--verbose"}, description = "Print stack traces with errors.")
    boolean verbose;

    @Option(names = "--db", paramLabel = "PATH",
            description = "The matrix store (embedded DuckDB). Default: ~/.accelbridge/matrix.duckdb, or $ACCELBRIDGE_DB.")
    Path db;

    /** The store path: --db, else $ACCELBRIDGE_DB, else the default location. */
    Path dbPath() {
        return MatrixStore.resolve(db);
    }

    /** {@code --out} must be a folder that can be written, checked before anything runs (not after the whole run). */
    static void checkOut(Path out) {
        Path p = out.toAbsolutePath();
        if (Files.exists(p) && !Files.isDirectory(p)) {
            throw new AccelbridgeException("--out " + out + " is a file, not a folder", "give a folder for the reports, e.g. --out accelbridge-out");
        }
        Path existing = p;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
            throw new AccelbridgeException("--out " + out + " cannot be created: " + (existing == null ? "no existing parent"
                    : existing + (Files.isDirectory(existing) ? " is not writable" : " is a file")),
                    "give a folder you can write, e.g. --out accelbridge-out");
        }
    }
}
