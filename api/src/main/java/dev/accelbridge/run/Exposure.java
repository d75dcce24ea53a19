package dev.accelbridge.run;

import dev.accelbridge.bridge.TlsIdentity;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.NamedFile;
import dev.accelbridge.core.PublicApi;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the bridge listens for the browsers it launches. By default on loopback, which a browser on a Grid node on
 * another machine cannot reach; exposed, the bridge binds the asked address, hands browsers the advertised URL, requires
 * a token (one made for the run) on every HTTP and WebSocket request, and serves HTTPS and WSS: a page off loopback must
 * be a secure context, or the browser hides WebGPU and WebNN and refuses the cross-origin isolation that wasm threads need
 * (found when tried: every WebGPU case of a Grid node on another host fell back to wasm, and its wasm ran on one thread).
 *
 * @param bindHost  the address to bind ({@code --bridge-host}); empty: the advertised host, else 127.0.0.1
 * @param advertise the base URL browsers are given ({@code --advertise}); empty: the bound address
 * @param tls       the certificate an exposed bridge serves ({@code --tls-keystore}, {@code --no-tls})
 */
@PublicApi
public record Exposure(Optional<String> bindHost, Optional<URI> advertise, Tls tls) {
    /** Loopback, nothing advertised. */
    public static final Exposure LOOPBACK = new Exposure(Optional.empty(), Optional.empty(), Tls.AUTO);

    /**
     * The certificate of an exposed bridge.
     *
     * @param plainHttp    serve plain HTTP anyway ({@code --no-tls}): behind a proxy that terminates TLS, say; a page that
     *                     lands off loopback without a secure context is then told so by its cases
     * @param keystore     the user's PKCS#12 or JKS keystore ({@code --tls-keystore}); empty: a self-signed certificate made
     *                     at start for the advertised and bound names, which the browsers Accelbridge launches trust by key
     * @param passwordFile the keystore's password on its first line ({@code --tls-keystore-password-file}); empty:
     *                     {@code ACCELBRIDGE_TLS_PASSWORD}
     */
    public record Tls(boolean plainHttp, Optional<Path> keystore, Optional<Path> passwordFile) {
        /** A certificate made at start when the bridge is exposed. */
        public static final Tls AUTO = new Tls(false, Optional.empty(), Optional.empty());

        public Tls {
            keystore = keystore == null ? Optional.empty() : keystore;
            passwordFile = passwordFile == null ? Optional.empty() : passwordFile;
            if (plainHttp && keystore.isPresent()) {
                throw new AccelbridgeException("--no-tls and --tls-keystore ask for opposite things", "give one of them");
            }
        }

        /**
         * The identity a bridge serves: the keystore's, else a self-signed one for {@code names}.
         *
         * @throws AccelbridgeException when the keystore or its password cannot be read
         */
        public TlsIdentity identity(List<String> names) {
            if (keystore.isEmpty()) {
                return TlsIdentity.selfSigned(names);
            }
            NamedFile.check(keystore.get(), "--tls-keystore", NamedFile.MAX_KEYSTORE);
            String pw = passwordFile.isPresent() ? NamedFile.firstLine(passwordFile.get(), "--tls-keystore-password-file")
                    : System.getenv("ACCELBRIDGE_TLS_PASSWORD");
            if (pw == null) {
                throw new AccelbridgeException("--tls-keystore needs the keystore's password",
                        "give --tls-keystore-password-file PATH or set ACCELBRIDGE_TLS_PASSWORD");
            }
            return TlsIdentity.load(keystore.get(), pw.toCharArray());
        }
    }

    public Exposure {
        tls = tls == null ? Tls.AUTO : tls;
    }

    /**
     * The exposure {@code --bridge-host} and {@code --advertise} ask for (either may be null).
     *
     * @throws AccelbridgeException naming the option that is not valid
     */
    public static Exposure of(String bridgeHost, URI advertise) {
        if (advertise != null && (advertise.getHost() == null || !List.of("http", "https").contains(String.valueOf(advertise.getScheme())))) {
            throw new AccelbridgeException("--advertise '" + advertise + "' is not an http URL with a host",
                    "give the URL a Grid node reaches this machine at, e.g. --advertise https://10.0.0.5:8765");
        }
        if (bridgeHost != null && bridgeHost.isBlank()) {
            throw new AccelbridgeException("--bridge-host is empty", "give an address of this machine, e.g. --bridge-host 0.0.0.0");
        }
        return new Exposure(Optional.ofNullable(bridgeHost), Optional.ofNullable(advertise), Tls.AUTO);
    }

    /** The same exposure with {@code t} as its certificate. */
    public Exposure withTls(Tls t) {
        return new Exposure(bindHost, advertise, t);
    }

    /** True when browsers on other machines are meant to reach the bridge. */
    public boolean exposed() {
        return bindHost.isPresent() || advertise.isPresent();
    }

    /** True when the bridge serves HTTPS: exposed, unless {@code --no-tls}. */
    public boolean secure() {
        return exposed() && !tls.plainHttp();
    }

    /**
     * The URL browsers are given: the advertised one, made {@code https} when the bridge serves HTTPS (a page is a
     * secure context only over HTTPS off loopback).
     */
    public Optional<URI> advertisedUrl() {
        return advertise.map(a -> secure() && "http".equals(a.getScheme()) ? URI.create("https" + a.toString().substring(4)) : a);
    }

    /** The names a self-signed certificate is made for: the advertised host and the bound one (this machine's own are added). */
    public List<String> names() {
        List<String> out = new ArrayList<>();
        advertise.map(URI::getHost).ifPresent(out::add);
        bindHost.filter(h -> !h.equals("0.0.0.0") && !h.equals("::")).ifPresent(out::add);
        return out;
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
