package dev.accelbridge.reports.store;

import dev.accelbridge.core.PublicApi;

/** Life cycle of a run in the store. */
@PublicApi
public enum RunStatus {
    /** Begun by the process that holds the store now. */
    RUNNING,
    /** {@link MatrixStore#finishRun} was called. */
    FINISHED,
    /** Found still running when the store was opened: the process that ran it died; {@code --resume} finishes it. */
    INTERRUPTED;

    String db() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static RunStatus fromDb(String s) {
        return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
}
