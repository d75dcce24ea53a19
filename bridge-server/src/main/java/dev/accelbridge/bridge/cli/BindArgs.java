package dev.accelbridge.bridge.cli;

import dev.accelbridge.bridge.server.BridgeOptions;
import dev.accelbridge.core.AccelbridgeException;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where a server listens and the token it asks for: the options {@code serve} and {@code dashboard} share. */
final class BindArgs {
    @Option(names = "--host", description = "Address to bind (default 127.0.0.1). Anything but loopback needs --token.")
    String host = "127.0.0.1";

    @Option(names = "--port", description = "Port (default 0: a free one).")
    int port = 0;

    @Option(names = "--token", description = "Token that pages and API calls must present (required off loopback; visible "
            + "in ps: prefer --token-file or ACCELBRIDGE_TOKEN).")
    String token;

    @Option(names = "--token-file", paramLabel = "PATH", description = "Read the token from the first line of this file.")
    Path tokenFile;

    /** The bridge options these stand for; the builder refuses an unsafe or impossible binding. */
    BridgeOptions.Builder options() {
        BridgeOptions.Builder b = BridgeOptions.builder().host(host).port(port);
        token().ifPresent(b::token);
        return b;
    }

    /**
     * The token: {@code --token}, else the first line of {@code --token-file}, else {@code ACCELBRIDGE_TOKEN}.
     *
     * @throws AccelbridgeException when the file cannot be read or is empty
     */
    java.util.Optional<String> token() {
        if (token != null) {
            return java.util.Optional.of(token);
        }
        if (tokenFile != null) {
            try {
                String t = Files.readAllLines(tokenFile).stream().findFirst().orElse("").trim();
                if (t.isEmpty()) {
                    throw new AccelbridgeException("The token file " + tokenFile + " is empty", "write the token on its first line");
                }
                return java.util.Optional.of(t);
            } catch (java.io.IOException e) {
                throw new AccelbridgeException("Cannot read the token file " + tokenFile + ": " + e.getMessage(),
                        "give a readable file to --token-file");
            }
        }
        return java.util.Optional.ofNullable(System.getenv("ACCELBRIDGE_TOKEN")).map(String::trim).filter(t -> !t.isEmpty());
    }
}
