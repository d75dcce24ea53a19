package dev.accelbridge.bridge;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;
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
 * @param notes what loading noticed that a person should be told (the key chosen among several)
 */
@PublicApi
public record TlsIdentity(KeyStore keyStore, char[] password, X509Certificate certificate, List<String> notes) {
    static final String ALIAS = "accelbridge";

    public TlsIdentity {
        notes = List.copyOf(notes);
    }

    /** An identity with nothing noticed at loading. */
    public TlsIdentity(KeyStore keyStore, char[] password, X509Certificate certificate) {
        this(keyStore, password, certificate, List.of());
    }

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
     * The user's keystore (PKCS#12 or JKS): its key under {@link #ALIAS}, else its only key, with its certificate chain.
     * The bridge serves a store holding that one key alone, so the key it presents is the one whose fingerprint and pin
     * are printed (Jetty would pick any of several).
     *
     * @throws BridgeServerException naming the file when it cannot be read, the password is wrong, or it holds no key or
     *                               several keys none of which is {@link #ALIAS}
     */
    public static TlsIdentity load(Path file, char[] password) {
        KeyStore ks = read(file, password);
        try {
            List<String> keys = new java.util.ArrayList<>();
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias) && ks.getCertificate(alias) instanceof X509Certificate) {
                    keys.add(alias);
                }
            }
            if (keys.isEmpty()) {
                throw new BridgeServerException("The keystore " + file + " holds no private key with a certificate",
                        "make one with: keytool -genkeypair -alias accelbridge -keyalg EC -storetype PKCS12 -keystore " + file);
            }
            if (keys.size() > 1 && !keys.contains(ALIAS)) {
                throw new BridgeServerException("The keystore " + file + " holds " + keys.size() + " keys ("
                        + Untrusted.bounded(String.join(", ", keys), 200) + ") and none is called " + ALIAS
                        + ": which one would be served is not said", "name the key to serve " + ALIAS
                        + " (keytool -changealias -destalias " + ALIAS + ") or keep one key in the file");
            }
            String alias = keys.contains(ALIAS) ? ALIAS : keys.get(0);
            KeyStore one = KeyStore.getInstance("PKCS12");
            one.load(null, null);
            one.setKeyEntry(ALIAS, ks.getKey(alias, password), password, ks.getCertificateChain(alias));
            List<String> notes = keys.size() > 1 ? List.of("the keystore holds " + keys.size() + " keys; serving the one called " + ALIAS)
                    : List.of();
            return new TlsIdentity(one, password, (X509Certificate) ks.getCertificate(alias), notes);
        } catch (IOException | GeneralSecurityException e) {
            throw new BridgeServerException("Cannot use the key in the TLS keystore " + file + ": " + why(e),
                    "give a PKCS#12 or JKS file with one private key and its certificate", e);
        }
    }

    /** The keystore as PKCS#12, else as JKS; when both fail, both reasons (an empty or foreign file says so). */
    private static KeyStore read(Path file, char[] password) {
        try {
            return read(file, "PKCS12", password);
        } catch (IOException | GeneralSecurityException asPkcs12) {
            try {
                return read(file, "JKS", password);
            } catch (IOException | GeneralSecurityException asJks) {
                throw new BridgeServerException("Cannot read the TLS keystore " + file + ": as PKCS#12, " + why(asPkcs12) + "; as JKS, "
                        + why(asJks), "check the file and --tls-keystore-password-file (a PKCS#12 or JKS file with the key and its "
                        + "certificate)", asJks);
            }
        }
    }

    private static KeyStore read(Path file, String type, char[] password) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore ks = KeyStore.getInstance(type);
            ks.load(in, password);
            return ks;
        }
    }

    private static String why(Exception e) {
        Throwable t = e.getCause() != null && e.getMessage() != null && e.getMessage().contains(e.getCause().getClass().getName()) ? e.getCause() : e;
        String m = t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName() + " (the file ended early: empty or cut short)"
                : t.getMessage();
        return Untrusted.bounded(m, 200);
    }

    /**
     * What a person serving this certificate should know before a browser refuses it: expired or not yet valid, made for
     * none of the names the bridge is reached by ({@code names}; none given: not checked), and what loading noticed.
     */
    public List<String> warnings(java.util.Collection<String> names, java.time.Instant now) {
        List<String> w = new java.util.ArrayList<>(notes);
        if (now.isAfter(certificate.getNotAfter().toInstant())) {
            w.add("the certificate expired on " + certificate.getNotAfter().toInstant() + ": browsers refuse it");
        } else if (now.isBefore(certificate.getNotBefore().toInstant())) {
            w.add("the certificate is valid only from " + certificate.getNotBefore().toInstant() + ": browsers refuse it until then");
        }
        List<String> sans = subjectNames();
        List<String> wanted = names.stream().filter(n -> n != null && !n.isBlank() && !n.equals("0.0.0.0") && !n.equals("::")).toList();
        if (!wanted.isEmpty() && wanted.stream().noneMatch(n -> sans.stream().anyMatch(san -> matches(san, n)))) {
            w.add("the certificate is for " + (sans.isEmpty() ? "no DNS name or address" : Untrusted.bounded(
                    String.join(", ", sans), 200)) + ", not " + String.join(", ", wanted) + ": browsers refuse it at that name");
        }
        return w;
    }

    private List<String> subjectNames() {
        try {
            java.util.Collection<List<?>> alt = certificate.getSubjectAlternativeNames();
            return alt == null ? List.of() : alt.stream().filter(l -> l.size() > 1 && (Integer.valueOf(2).equals(l.get(0))
                    || Integer.valueOf(7).equals(l.get(0)))).map(l -> String.valueOf(l.get(1))).toList();
        } catch (java.security.cert.CertificateParsingException e) {
            return List.of();
        }
    }

    private static boolean matches(String san, String name) {
        String s = san.toLowerCase(Locale.ROOT);
        String n = name.toLowerCase(Locale.ROOT);
        if (s.startsWith("*.")) {
            int dot = n.indexOf('.');
            return dot > 0 && n.substring(dot).equals(s.substring(1));
        }
        return s.equals(n);
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
