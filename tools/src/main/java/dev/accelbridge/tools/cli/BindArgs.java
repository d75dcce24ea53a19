package dev.accelbridge.tools.cli;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.TlsIdentity;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.NamedFile;
import dev.accelbridge.run.Exposure;
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

    @Option(names = "--tls", description = "Serve HTTPS/WSS with a self-signed certificate made at start (its fingerprint is "
            + "printed): a device on the LAN gets a secure context, where WebGPU and WebNN exist.")
    boolean tls;

    @Option(names = "--tls-keystore", paramLabel = "PATH", description = "Serve HTTPS/WSS with this PKCS#12 or JKS keystore "
            + "(one key and its certificate) instead of a self-signed certificate.")
    Path tlsKeystore;

    @Option(names = "--tls-keystore-password-file", paramLabel = "PATH",
            description = "The keystore's password, on the first line of this file (else ACCELBRIDGE_TLS_PASSWORD).")
    Path tlsPasswordFile;

    /** The bridge options these stand for; the builder refuses an unsafe or impossible binding. */
    BridgeOptions.Builder options() {
        BridgeOptions.Builder b = BridgeOptions.builder().host(host).port(port);
        token().ifPresent(b::token);
        tlsIdentity().ifPresent(b::tls);
        return b;
    }

    /** The TLS identity asked for: the keystore, a fresh self-signed one for {@code --tls}, or none. */
    java.util.Optional<TlsIdentity> tlsIdentity() {
        if (tlsKeystore == null && !tls) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Exposure.Tls(false, java.util.Optional.ofNullable(tlsKeystore),
                java.util.Optional.ofNullable(tlsPasswordFile)).identity(java.util.List.of()));
    }

    /** Prints how to check and pin the TLS certificate, when there is one. */
    static void describeTls(BridgeOptions options, java.io.PrintWriter out) {
        options.tls().ifPresent(t -> {
            out.println("TLS certificate SHA-256 fingerprint: " + t.fingerprint()
                    + (t.certificate().getSubjectX500Principal().getName().contains("self-signed") ? " (self-signed, made now)" : ""));
            out.println("Chromium trusts exactly this key with: --ignore-certificate-errors-spki-list=" + t.spkiPin());
            // the names people type: the bound host unless it is every interface, and the advertised one
            java.util.List<String> names = new java.util.ArrayList<>();
            options.advertise().map(java.net.URI::getHost).ifPresentOrElse(names::add, () -> names.add(options.host()));
            if (names.contains("127.0.0.1") || names.contains("::1")) {
                names.add("localhost");
            }
            t.warnings(names, java.time.Instant.now()).forEach(w -> out.println("Warning: " + w));
        });
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
            return java.util.Optional.of(NamedFile.firstLine(tokenFile, "--token-file"));
        }
        return java.util.Optional.ofNullable(System.getenv("ACCELBRIDGE_TOKEN")).map(String::trim).filter(t -> !t.isEmpty());
    }
}
