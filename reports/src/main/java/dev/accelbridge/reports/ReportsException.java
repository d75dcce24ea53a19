package dev.accelbridge.reports;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.AccelbridgeException;

/** Root of the reports module's errors. */
@PublicApi
public class ReportsException extends AccelbridgeException {
    public ReportsException(String problem, String fix) {
        super(problem, fix);
    }

    public ReportsException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
