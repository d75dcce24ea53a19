package dev.accelbridge.bridge;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which {@code Host} (and {@code Origin}) a request may name: the names this bridge is reached by. Loopback names and
 * addresses always; the bound address and the advertised one; bound to every interface, this machine's addresses and
 * host name too. A page on another web site whose name was rebound to 127.0.0.1 sends its own name as the Host, so it
 * is refused before any handler (DNS rebinding), the WebSocket included.
 */
final class HostCheck {
    private final Set<String> names = new HashSet<>();
    private final boolean anyInterface;

    HostCheck(BridgeOptions options) {
        String bound = strip(options.host());
        anyInterface = bound.equals("0.0.0.0") || bound.equals("::");
        names.add(bound);
        options.advertise().ifPresent(u -> names.add(strip(u.getHost())));
        if (anyInterface) {
            try {
                for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                        names.add(strip(a.getHostAddress().replaceAll("%.*$", "")));
                    }
                }
                InetAddress local = InetAddress.getLocalHost();
                names.add(local.getHostName().toLowerCase(Locale.ROOT));
                names.add(local.getCanonicalHostName().toLowerCase(Locale.ROOT));
            } catch (java.io.IOException e) {
                // without the interface list, loopback and the advertised name still work
            }
        }
    }

    /**
     * Refuses a request that names another host (421) or changes state from another origin (403).
     *
     * @throws io.javalin.http.HttpResponseException with that status and the reason
     */
    void check(io.javalin.http.Context ctx) {
        if (!hostAllowed(ctx.header("Host"))) {
            throw new io.javalin.http.HttpResponseException(421, "Host '" + ctx.header("Host") + "' is not a name this bridge is "
                    + "reached by; open it by the address it printed");
        }
        io.javalin.http.HandlerType m = ctx.method();
        boolean safe = m == io.javalin.http.HandlerType.GET || m == io.javalin.http.HandlerType.HEAD
                || m == io.javalin.http.HandlerType.OPTIONS;
        if (!safe && !originAllowed(ctx.header("Origin"))) {
            throw new io.javalin.http.ForbiddenResponse("Origin '" + ctx.header("Origin") + "' is not this bridge's own page");
        }
    }

    /** Whether a request naming {@code hostHeader} ({@code name[:port]}) is meant for this bridge. */
    boolean hostAllowed(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) {
            return false; // HTTP/1.1 requires it; a request without one names nothing we serve
        }
        String h = hostHeader.trim();
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            h = end < 0 ? h : h.substring(1, end);
        } else if (h.indexOf(':') == h.lastIndexOf(':') && h.contains(":")) {
            h = h.substring(0, h.indexOf(':'));
        }
        h = h.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || BridgeOptions.isLoopback(h) || names.contains(h);
    }

    /** Whether {@code origin} ({@code scheme://name[:port]}) is one of this bridge's own; an absent Origin is not a browser's. */
    boolean originAllowed(String origin) {
        if (origin == null) {
            return true;
        }
        try {
            URI u = URI.create(origin);
            return u.getHost() != null && hostAllowed(u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String strip(String host) {
        String h = host == null ? "" : host.trim().toLowerCase(Locale.ROOT);
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }
}
