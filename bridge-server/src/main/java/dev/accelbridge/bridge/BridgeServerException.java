package dev.accelbridge.bridge;

import dev.accelbridge.core.AccelbridgeException;

/** Root of the bridge server's errors (bad options, a page that did not join, a failed job). */
@dev.accelbridge.core.PublicApi
public class BridgeServerException extends AccelbridgeException {
    public BridgeServerException(String problem, String fix) {
        super(problem, fix);
    }

    public BridgeServerException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
