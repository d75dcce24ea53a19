package dev.accelbridge.browser.bridge;

import dev.accelbridge.core.PublicApi;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The bridge's TLS key and certificate ({@code serve --tls}): a self-signed one made at start for this machine's names
 * and addresses, or the user's keystore. A device on the LAN needs HTTPS for a secure context ({@code navigator.gpu},
 * {@code navigator.ml} and cross-origin isolation exist only there); the printed fingerprint lets a person check the
 * certificate their browser shows, and the SPKI pin lets Chromium trust exactly this key
 * ({@code --ignore-certificate-errors-spki-list}).
 *
 * @param keyStore the key and certificate chain under {@link #ALIAS} (or the keystore's first key entry)
 * @param password the keystore's and key's password
 * @param certificate the leaf certificate the bridge presents
 */
@PublicApi
public record TlsIdentity(KeyStore keyStore, char[] password, X509Certificate certificate) {
    static final String ALIAS = "accelbridge";

    /**
     * A self-signed certificate for {@code localhost}, loopback, this host's name and every address of its interfaces
     * (so a device that opens any of them sees a certificate for what it typed), valid for 30 days, EC P-256.
     */
    public static TlsIdentity selfSigned() {
        return selfSigned(List.of());
    }

    /**
     * A self-signed certificate as {@link #selfSigned()}, also for {@code names}: the names and addresses a bridge is
     * advertised at ({@code host.docker.internal}, {@code accelbridge.ci.svc}, {@code 10.213.7.1}).
     */
    public static TlsIdentity selfSigned(java.util.Collection<String> alsoFor) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(256, new SecureRandom());
            KeyPair kp = g.generateKeyPair();
            Set<String> dns = new LinkedHashSet<>(List.of("localhost"));
            Set<String> ips = new LinkedHashSet<>(List.of("127.0.0.1", "::1"));
            try {
                dns.add(InetAddress.getLocalHost().getHostName());
            } catch (IOException e) {
                // no resolvable host name: the addresses still identify the machine
            }
            for (String n : alsoFor) {
                String h = n.startsWith("[") && n.endsWith("]") ? n.substring(1, n.length() - 1) : n;
                if (h.matches("[0-9.]+") || h.contains(":")) {
                    ips.add(h);
                } else if (h.matches("[A-Za-z0-9.-]{1,253}")) {
                    dns.add(h);
                }
            }
            for (java.net.NetworkInterface nif : Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                    ips.add(a.getHostAddress().replaceFirst("%.*$", ""));
                }
            }
            List<GeneralName> names = new ArrayList<>();
            dns.forEach(d -> names.add(new GeneralName(GeneralName.dNSName, d)));
            ips.forEach(i -> names.add(new GeneralName(GeneralName.iPAddress, i)));
            Instant now = Instant.now();
            X500Name subject = new X500Name("CN=Accelbridge bridge (self-signed)");
            JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, new BigInteger(64, new SecureRandom()),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(30))), subject, kp.getPublic());
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            X509Certificate cert = new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(kp.getPrivate())));
            char[] pw = HexFormat.of().formatHex(SecureRandom.getSeed(16)).toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry(ALIAS, kp.getPrivate(), pw, new Certificate[] {cert});
            return new TlsIdentity(ks, pw, cert);
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new BridgeServerException("Could not make a self-signed TLS certificate: " + e.getMessage(),
                    "give your own with --tls-keystore", e);
        }
    }

    /**
     * The user's keystore (PKCS#12 or JKS) holding one private key and its certificate chain.
     *
     * @throws BridgeServerException naming the file when it cannot be read, the password is wrong or it holds no key
     */
    public static TlsIdentity load(Path file, char[] password) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType().equals("jks") ? "JKS" : "PKCS12");
            try {
                ks.load(in, password);
            } catch (IOException e) {
                try (InputStream again = Files.newInputStream(file)) {
                    ks = KeyStore.getInstance("JKS");
                    ks.load(again, password);
                }
            }
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias) && ks.getCertificate(alias) instanceof X509Certificate c) {
                    return new TlsIdentity(ks, password, c);
                }
            }
            throw new BridgeServerException("The keystore " + file + " holds no private key with a certificate",
                    "make one with: keytool -genkeypair -alias accelbridge -keyalg EC -storetype PKCS12 -keystore " + file);
        } catch (IOException | GeneralSecurityException e) {
            throw new BridgeServerException("Cannot read the TLS keystore " + file + ": " + e.getMessage(),
                    "check the path and --tls-keystore-password-file (a PKCS#12 or JKS file with the key and its certificate)", e);
        }
    }

    /** The certificate's SHA-256 fingerprint, {@code AB:CD:…}, as browsers show it. */
    public String fingerprint() {
        try {
            String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()))
                    .toUpperCase(Locale.ROOT);
            return String.join(":", hex.split("(?<=\\G..)"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The base64 SHA-256 of the certificate's public key (SPKI): Chromium's {@code --ignore-certificate-errors-spki-list}. */
    public String spkiPin() {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(certificate.getPublicKey().getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
