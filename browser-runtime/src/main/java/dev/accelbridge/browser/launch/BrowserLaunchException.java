package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;

import dev.accelbridge.core.AccelbridgeException;

/** A browser could not be found or started. The message names the browser, its path and version. */
@PublicApi
public class BrowserLaunchException extends AccelbridgeException {
    public BrowserLaunchException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
