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

    /**
     * The exposure {@code --bridge-host} and {@code --advertise} ask for (either may be null).
     *
     * @throws dev.accelbridge.core.AccelbridgeException naming the option that is not valid
     */
    public static Exposure of(String bridgeHost, URI advertise) {
        if (advertise != null && (advertise.getHost() == null || !java.util.List.of("http", "https").contains(String.valueOf(advertise.getScheme())))) {
            throw new dev.accelbridge.core.AccelbridgeException("--advertise '" + advertise + "' is not an http URL with a host",
                    "give the URL a Grid node reaches this machine at, e.g. --advertise http://10.0.0.5:8765");
        }
        if (bridgeHost != null && bridgeHost.isBlank()) {
            throw new dev.accelbridge.core.AccelbridgeException("--bridge-host is empty",
                    "give an address of this machine, e.g. --bridge-host 0.0.0.0");
        }
        return new Exposure(Optional.ofNullable(bridgeHost), Optional.ofNullable(advertise));
    }

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
