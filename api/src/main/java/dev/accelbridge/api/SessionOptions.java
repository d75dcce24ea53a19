package dev.accelbridge.api;

import dev.accelbridge.run.RunListener;
import dev.accelbridge.reports.store.MatrixStore;

import java.nio.file.Path;

/**
 * How a session is set up; every field is optional.
 *
 * @param store    the matrix store (default: {@code $ACCELBRIDGE_DB}, else {@code ~/.accelbridge/matrix.duckdb}, the store
 *                 {@code accelbridge run}, {@code report} and {@code dashboard} use)
 * @param outDir   where a run writes what is not in the store: bisection repros, and the results of a run whose store
 *                 failed mid-way (default {@code accelbridge-out})
 * @param origin   how the session's runs say they were started, recorded with each run's plan (default {@code java-api})
 * @param listener progress of each run (default: none)
 */
public record SessionOptions(Path store, Path outDir, String origin, RunListener listener) {
    public SessionOptions {
        store = MatrixStore.resolve(store);
        outDir = outDir == null ? Path.of("accelbridge-out") : outDir;
        origin = origin == null || origin.isBlank() ? "java-api" : origin;
        listener = listener == null ? RunListener.NONE : listener;
    }

    /** A builder in the manner of the run plan's: every setting optional ({@code opt*}). */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link SessionOptions}. */
    public static final class Builder {
        private Path store;
        private Path outDir;
        private String origin;
        private RunListener listener;

        private Builder() {
        }

        /** The matrix store file. */
        public Builder optStore(Path p) {
            this.store = p;
            return this;
        }

        /** Where repros and unsaved results go. */
        public Builder optOutDir(Path p) {
            this.outDir = p;
            return this;
        }

        /** How the runs say they were started ({@code junit5}, your tool's name). */
        public Builder optOrigin(String o) {
            this.origin = o;
            return this;
        }

        /** Progress of each run. */
        public Builder optListener(RunListener l) {
            this.listener = l;
            return this;
        }

        /** The options. */
        public SessionOptions build() {
            return new SessionOptions(store, outDir, origin, listener);
        }
    }
}
