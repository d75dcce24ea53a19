package dev.accelbridge.bridge;

import dev.accelbridge.core.PublicApi;

/**
 * A browser was sent to the bridge's page and no page joined under its launch slot in time: the browser was had, its
 * page did not arrive (a busy machine, a network that changed while the page loaded). Unlike a browser that could not
 * be had at all, starting it again may mend it.
 */
@PublicApi
public final class PageNotJoinedException extends BridgeServerException {
    public PageNotJoinedException(String problem, String fix) {
        super(problem, fix);
    }

    public PageNotJoinedException(String problem, String fix, Throwable cause) {
        super(problem, fix, cause);
    }
}
