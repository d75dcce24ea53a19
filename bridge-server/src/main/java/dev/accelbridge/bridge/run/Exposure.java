package dev.accelbridge.bridge.run;

import java.net.URI;
import java.util.Optional;

/**
 * Where the bridge listens for the browsers it launches. By default on loopback, which a browser on a Grid node on
 * another machine cannot reach; exposed, the bridge binds the asked address, hands browsers the advertised URL, and
 * requires a token (one made for the run) on every HTTP and WebSocket request.
 *
 * @param bindHost  the address to bind ({@code --bridge-host}); empty: the advertised host, else 127.0.0.1
 * @param advertise the base URL browsers are given ({@code --advertise}); empty: the bound address
 */
public record Exposure(Optional<String> bindHost, Optional<URI> advertise) {
    /** Loopback, nothing advertised. */
    public static final Exposure LOOPBACK = new Exposure(Optional.empty(), Optional.empty());

    /** True when browsers on other machines are meant to reach the bridge. */
    public boolean exposed() {
        return bindHost.isPresent() || advertise.isPresent();
    }

    /** The address the bridge binds. */
    public String host() {
        return bindHost.orElseGet(() -> advertise.map(URI::getHost).orElse("127.0.0.1"));
    }

    /** The port the bridge binds: the advertised one when it names one (0 or none: a free port), else free. */
    public int port() {
        return advertise.map(URI::getPort).filter(p -> p > 0).orElse(0);
    }
}
