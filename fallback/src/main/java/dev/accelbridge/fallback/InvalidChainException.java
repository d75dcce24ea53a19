package dev.accelbridge.fallback;

/** A fallback chain that cannot be used: empty, duplicated hops, browser and native backends mixed, unknown ids. */
public class InvalidChainException extends FallbackException {
    public InvalidChainException(String problem, String fix) {
        super(problem, fix);
    }

    public InvalidChainException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
