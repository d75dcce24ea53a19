package dev.accelbridge.browser.npm;

import dev.accelbridge.core.PublicApi;

import dev.accelbridge.core.AccelbridgeException;

/** A package version could not be had from the npm registry: not published, not reachable, or not the tarball it publishes. */
@PublicApi
public class NpmException extends AccelbridgeException {
    public NpmException(String problem, String fix) {
        super(problem, fix);
    }

    public NpmException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
