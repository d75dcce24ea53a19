package dev.accelbridge.bridge;

import dev.accelbridge.core.PublicApi;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the bridge listens and what it allows.
 *
 * @param host          bind address; loopback ({@code 127.0.0.1}) by default
 * @param port          port; 0 picks a free one
 * @param token         the token pages and API calls must present; required when {@code host} is not loopback
 * @param maxFrameBytes the largest WebSocket message a page may send (larger ones get an error frame)
 * @param jobTimeout    the default timeout of a case (load + warm-up + timed runs) when the request gives none
 * @param joinTimeout   how long a launched browser's page has to join
 * @param models        model files registered at start (more can be registered through {@link ModelRegistry})
 * @param advertise     the base URL browsers are given when it is not the bound address (a Grid node reaches the bridge
 *                      through a name, a NAT or a container network); its port 0 or none means the bound port
 * @param tls           HTTPS and WSS with this key and certificate instead of plain HTTP ({@code serve --tls})
 * @param maxResultBytes the most bytes a run job's outputs may total when the model does not declare their sizes
 */
@PublicApi
public record BridgeOptions(String host, int port, Optional<String> token, long maxFrameBytes, Duration jobTimeout,
                            Duration joinTimeout, List<Path> models, Optional<URI> advertise, Optional<TlsIdentity> tls,
                            long maxResultBytes) {
    public BridgeOptions {
        tls = tls == null ? Optional.empty() : tls;
        models = List.copyOf(models);
        advertise = advertise == null ? Optional.empty() : advertise;
        if (advertise.isPresent() && (advertise.get().getHost() == null
                || !List.of("http", "https").contains(String.valueOf(advertise.get().getScheme())))) {
            throw new BridgeServerException("The advertised URL '" + advertise.get() + "' is not an http(s) URL with a host",
                    "give the URL browsers reach the bridge at, e.g. --advertise http://10.0.0.5:8765");
        }
        token = token.filter(t -> !t.isBlank());
        if (port < 0 || port > 65535) {
            throw new BridgeServerException("Port " + port + " is out of range", "use 0 (a free port) or 1..65535");
        }
        if (maxFrameBytes < 1024) {
            throw new BridgeServerException("maxFrameBytes " + maxFrameBytes + " is too small", "allow at least 1 KiB");
        }
        if (!isLoopback(host) && token.isEmpty()) {
            throw new BridgeServerException("Binding the bridge to " + host + " without a token would let any machine that "
                    + "reaches it run jobs and read the run's models", "pass a token (--token SECRET) or bind 127.0.0.1");
        }
        if (!isLoopback(host) && weak(token.get())) {
            throw new BridgeServerException("The token is too weak to bind the bridge to " + host + " (" + token.get().length()
                    + " characters, " + token.get().chars().distinct().count() + " distinct; at least " + MIN_TOKEN_LENGTH
                    + " characters and 8 distinct are needed off loopback)", "make one with: openssl rand -hex 16");
        }
    }

    /** The shortest token accepted off loopback. */
    public static final int MIN_TOKEN_LENGTH = 16;

    /** True for a token too short or too repetitive to face a network. */
    static boolean weak(String token) {
        return token.length() < MIN_TOKEN_LENGTH || token.chars().distinct().count() < 8;
    }

    /** The defaults: 127.0.0.1, a free port, no token, 64 MiB frames, 120 s per case, 60 s to join. */
    public static BridgeOptions defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** True when {@code host} is a loopback address or {@code localhost}. */
    public static boolean isLoopback(String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!h.matches("[0-9.]+") && !h.contains(":")) {
            return false; // a name: do not resolve it here, treat as non-loopback
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** True when bound to loopback only. */
    public boolean loopback() {
        return isLoopback(host);
    }

    /** Builder for {@link BridgeOptions}. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private String token;
        private long maxFrameBytes = 64L << 20;
        private Duration jobTimeout = Duration.ofSeconds(120);
        private Duration joinTimeout = Duration.ofSeconds(60);
        private final List<Path> models = new ArrayList<>();
        private URI advertise;
        private TlsIdentity tls;
        private long maxResultBytes = OutputBudget.DEFAULT_CAP;

        public Builder host(String v) { this.host = v; return this; }
        public Builder port(int v) { this.port = v; return this; }
        public Builder token(String v) { this.token = v; return this; }
        public Builder maxFrameBytes(long v) { this.maxFrameBytes = v; return this; }
        public Builder jobTimeout(Duration v) { this.jobTimeout = v; return this; }
        public Builder joinTimeout(Duration v) { this.joinTimeout = v; return this; }
        public Builder model(Path v) { this.models.add(v); return this; }
        public Builder advertise(URI v) { this.advertise = v; return this; }
        public Builder tls(TlsIdentity v) { this.tls = v; return this; }
        public Builder maxResultBytes(long v) { this.maxResultBytes = v; return this; }

        public BridgeOptions build() {
            return new BridgeOptions(host, port, Optional.ofNullable(token), maxFrameBytes, jobTimeout, joinTimeout, models,
                    Optional.ofNullable(advertise), Optional.ofNullable(tls), maxResultBytes);
        }
    }
}
