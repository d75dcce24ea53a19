package dev.accelbridge.bridge;

import dev.accelbridge.core.PublicApi;
import io.javalin.config.RoutesConfig;

/**
 * Routes another part of the application adds to the bridge's server (the dashboard), so they share its port, its
 * headers and its token: the server checks both before every request, so the routes need not.
 */
@FunctionalInterface
@PublicApi
public interface BridgeRoutes {
    /** Registers the routes on the server's. */
    void register(RoutesConfig routes);

    /** Ends what the routes hold open (streams) while the server still runs: it is called before the server stops. */
    default void close() {
    }
}
