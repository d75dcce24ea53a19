package dev.accelbridge.bridge.cli;

import dev.accelbridge.bridge.server.BridgeOptions;
import picocli.CommandLine.Option;

/** Where a server listens and the token it asks for: the options {@code serve} and {@code dashboard} share. */
final class BindArgs {
    @Option(names = "--host", description = "Address to bind (default 127.0.0.1). Anything but loopback needs --token.")
    String host = "127.0.0.1";

    @Option(names = "--port", description = "Port (default 0: a free one).")
    int port = 0;

    @Option(names = "--token", description = "Token that pages and API calls must present (required off loopback).")
    String token;

    /** The bridge options these stand for; the builder refuses an unsafe or impossible binding. */
    BridgeOptions.Builder options() {
        BridgeOptions.Builder b = BridgeOptions.builder().host(host).port(port);
        if (token != null) {
            b.token(token);
        }
        return b;
    }
}
