package dev.accelbridge.fallback;

import dev.accelbridge.core.AccelbridgeException;

/** Root of the fallback module's errors. */
public class FallbackException extends AccelbridgeException {
    public FallbackException(String problem, String fix) {
        super(problem, fix);
    }

    public FallbackException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
