package dev.accelbridge.reports;

import dev.accelbridge.core.PublicApi;

/**
 * The matrix store cannot be used: a corrupted or foreign file, a newer schema, a merge file of an unknown
 * format, a database error. The message names the file; the fix says what to do. A file that caused this
 * error has not been modified.
 */
@PublicApi
public class StoreException extends ReportsException {
    public StoreException(String problem, String fix) {
        super(problem, fix);
    }

    public StoreException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
