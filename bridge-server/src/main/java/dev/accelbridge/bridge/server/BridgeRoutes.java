package dev.accelbridge.bridge.server;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

import java.util.function.Predicate;

/**
 * Routes another part of the application adds to the bridge's server (the dashboard), so they share its port, its
 * headers and its token.
 */
@FunctionalInterface
public interface BridgeRoutes {
    /**
     * Registers the routes.
     *
     * @param routes  the server's routes
     * @param tokenOk true when a request carries the bridge's token ({@code ?token=} or {@code Authorization: Bearer}),
     *                or when the bridge has none (loopback)
     */
    void register(RoutesConfig routes, Predicate<Context> tokenOk);

    /** Ends what the routes hold open (streams) while the server still runs: it is called before the server stops. */
    default void close() {
    }
}
