package dev.accelbridge.browser.launch;

import java.util.List;
import java.util.Optional;

/**
 * Finds the browsers installed on this machine (path and version), for {@code detect} and for launching.
 * Implemented by the launcher work; this placeholder signature is the contract.
 */
public final class BrowserDiscovery {
    private BrowserDiscovery() {
    }

    /** Every browser found. */
    public static List<InstalledBrowser> findAll() {
        throw new UnsupportedOperationException("BrowserDiscovery.findAll is being implemented");
    }

    /** The browser of one kind, when installed. */
    public static Optional<InstalledBrowser> find(BrowserKind kind) {
        throw new UnsupportedOperationException("BrowserDiscovery.find is being implemented");
    }
}
