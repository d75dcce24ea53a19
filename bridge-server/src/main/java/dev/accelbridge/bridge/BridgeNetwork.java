package dev.accelbridge.bridge;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/** Where the bridge listens on the network: its HTTPS connector, and the addresses other machines reach it at. */
final class BridgeNetwork {
    private static final Logger LOG = LoggerFactory.getLogger(BridgeNetwork.class);

    private BridgeNetwork() {
    }

    /** The only connector when TLS is on: HTTPS (and WSS) on the bridge's host and port, no plain HTTP. */
    static org.eclipse.jetty.server.Connector httpsConnector(org.eclipse.jetty.server.Server server,
                                                            org.eclipse.jetty.server.HttpConfiguration http, TlsIdentity tls,
                                                            String host, int port) {
        org.eclipse.jetty.server.SecureRequestCustomizer src = new org.eclipse.jetty.server.SecureRequestCustomizer();
        src.setSniHostCheck(false); // a device may open the bridge by an address the certificate names as an IP
        http.addCustomizer(src);
        org.eclipse.jetty.util.ssl.SslContextFactory.Server ssl = new org.eclipse.jetty.util.ssl.SslContextFactory.Server();
        ssl.setKeyStore(tls.keyStore());
        ssl.setKeyStorePassword(new String(tls.password()));
        ssl.setKeyManagerPassword(new String(tls.password()));
        org.eclipse.jetty.server.ServerConnector c = new org.eclipse.jetty.server.ServerConnector(server,
                new org.eclipse.jetty.server.SslConnectionFactory(ssl, "http/1.1"), new org.eclipse.jetty.server.HttpConnectionFactory(http));
        c.setHost(host);
        c.setPort(port);
        return c;
    }

    /**
     * The hosts other machines reach a bridge bound to {@code host} at: this machine's non-loopback, non-link-local
     * addresses when bound to every interface, else the bound address itself.
     */
    static List<String> remoteHosts(String host) {
        List<String> hosts = new java.util.ArrayList<>();
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            try {
                for (java.net.NetworkInterface nif : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
                    if (!nif.isUp() || nif.isLoopback()) {
                        continue;
                    }
                    for (java.net.InetAddress a : java.util.Collections.list(nif.getInetAddresses())) {
                        if (a instanceof java.net.Inet4Address || host.contains(":")) {
                            if (!a.isLinkLocalAddress()) {
                                String h = a.getHostAddress().replaceAll("%.*$", "");
                                hosts.add(h.contains(":") ? "[" + h + "]" : h);
                            }
                        }
                    }
                }
            } catch (java.net.SocketException e) {
                LOG.debug("cannot list network interfaces: {}", e.toString());
            }
        } else {
            hosts.add(host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host);
        }
        return hosts;
    }
}
