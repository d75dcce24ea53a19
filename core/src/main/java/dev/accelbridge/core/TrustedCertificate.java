package dev.accelbridge.core;

import dev.accelbridge.core.PublicApi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one certificate a launched browser is told to trust: the bridge's own, made at start (a self-signed one for the
 * names it is reached at) or the user's. A page off loopback must be a secure context, or the browser hides WebGPU and
 * WebNN and refuses the cross-origin isolation wasm threads need; a certificate no CA signed is trusted here by its key
 * alone, never by turning certificate errors off: Chromium by the SPKI pin ({@code --ignore-certificate-errors-spki-list},
 * honoured with a profile of its own, which every launch has), Firefox by a certificate override for each address the
 * bridge is reached at (its profile's {@code cert_override.txt}, the form Firefox itself writes).
 *
 * @param spkiPin           base64 SHA-256 of the certificate's public key (Chromium's pin)
 * @param sha256Fingerprint the certificate's SHA-256 fingerprint, {@code AB:CD:…} (Firefox's override)
 * @param hostPorts         where the bridge is reached ({@code 10.213.7.1:18765}): the addresses Firefox's override names
 */
@PublicApi
public record TrustedCertificate(String spkiPin, String sha256Fingerprint, List<String> hostPorts) {
    private static final Pattern PIN = Pattern.compile("[A-Za-z0-9+/]{43}=");
    private static final Pattern FINGERPRINT = Pattern.compile("([0-9A-F]{2}:){31}[0-9A-F]{2}");

    public TrustedCertificate {
        if (!PIN.matcher(spkiPin).matches() || !FINGERPRINT.matcher(sha256Fingerprint).matches()) {
            throw new IllegalArgumentException("not a certificate's SPKI pin and SHA-256 fingerprint");
        }
        hostPorts = List.copyOf(hostPorts);
    }

    /** Chromium's flag that trusts this key alone. */
    public String chromiumFlag() {
        return "--ignore-certificate-errors-spki-list=" + spkiPin;
    }

    /** Writes Firefox's certificate overrides of every address into the profile folder {@code profile}. */
    public void writeFirefoxOverrides(Path profile) throws IOException {
        StringBuilder b = new StringBuilder("# PSM Certificate Override Settings file\n# This is a generated file!  Do not edit.\n");
        for (String hp : hostPorts) {
            // host:port:originAttributes, the SHA-256 OID, the fingerprint, and (no longer used) override bits
            b.append(hp).append(":\tOID.2.16.840.1.101.3.4.2.1\t").append(sha256Fingerprint).append("\t\n");
        }
        Files.writeString(profile.resolve("cert_override.txt"), b.toString(), StandardCharsets.US_ASCII);
    }
}
