package dev.accelbridge.bridge;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.PublicApi;

/** Root of the bridge server's errors (bad options, a page that did not join, a failed job). */
@PublicApi
public class BridgeServerException extends AccelbridgeException {
    public BridgeServerException(String problem, String fix) {
        super(problem, fix);
    }

    public BridgeServerException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
