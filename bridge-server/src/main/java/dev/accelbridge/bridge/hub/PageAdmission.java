package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.BridgeOptions;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * Who may join the bridge and call it: with a token configured, whoever presents it (compared in constant time);
 * without one (loopback only), a WebSocket without an Origin (not a browser page) or from this bridge's own loopback
 * origin.
 *
 * @param token the bridge's token, when it has one
 */
public record PageAdmission(Optional<String> token) {
    /**
     * Decides whether a WebSocket may connect.
     *
     * @return null when admitted, else the reason
     */
    String refusal(String presentedToken, String origin, String hostHeader) {
        if (token.isPresent()) {
            return tokenMatches(presentedToken) ? null : "missing or wrong token";
        }
        if (origin == null || origin.isBlank()) {
            return null;
        }
        try {
            URI o = URI.create(origin);
            String host = o.getHost();
            boolean sameHostPort = hostHeader != null && (o.getAuthority() != null && o.getAuthority().equalsIgnoreCase(hostHeader));
            if (sameHostPort && host != null && BridgeOptions.isLoopback(host)) {
                return null;
            }
        } catch (IllegalArgumentException e) {
            return "unparseable Origin '" + origin + "'";
        }
        return "page from origin " + origin + " is not this bridge's page and presented no token";
    }

    /** Whether {@code presented} is the token (true when the bridge has none). */
    public boolean tokenMatches(String presented) {
        if (token.isEmpty()) {
            return true;
        }
        if (presented == null) {
            return false;
        }
        return MessageDigest.isEqual(token.get().getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
    }
}
