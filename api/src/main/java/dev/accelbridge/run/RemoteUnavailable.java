package dev.accelbridge.run;

import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.Untrusted;

import java.util.List;
import java.util.Map;

/**
 * A remote browser (a Grid's, a Playwright server's) that could not be had: UNAVAILABLE, and the remote's, not this
 * machine's (found when tried: an unreachable or hostile Grid was stored as this host's Chromium FAILED, exit 0, though
 * nothing ran here).
 */
final class RemoteUnavailable extends BackendUnavailableException {
    private final transient HostInfo remote;
    private final boolean browserHad;

    /**
     * @param browserHad whether the remote gave a browser whose page then did not join: a lane that may start when tried
     *                   again (found when tried: a browser on a Playwright server lost its page's module requests to a
     *                   change of the server's network, and {@code --retries} did not start it again)
     */
    RemoteUnavailable(HostInfo remote, String evidence, String fix, boolean browserHad) {
        super(evidence, fix);
        this.remote = remote;
        this.browserHad = browserHad;
    }

    /** Whether starting the lane again may mend it: the remote gave a browser and its page did not join. */
    boolean mayStartAgain() {
        return browserHad;
    }

    /** The remote as a host of the store: what its address says, nothing more being known. */
    HostInfo remote() {
        return remote;
    }

    /** The host a Grid at {@code authority} is stored under when no node was reached (as a Grid without GraphQL is). */
    static HostInfo grid(String authority) {
        String name = "Grid " + authority;
        return host(name, "grid-" + HostInfo.fingerprintOf(java.util.Arrays.asList(name, null, null)), Map.of());
    }

    /** The host a Playwright server at {@code ws} is stored under when no browser of it was reached. */
    static HostInfo playwrightServer(java.net.URI ws) {
        String name = "playwright server " + ws.getAuthority();
        return host(name, "pw-" + HostInfo.fingerprintOf(List.of(name)), Map.of("playwright.server", ws.toString()));
    }

    private static HostInfo host(String name, String fingerprint, Map<String, String> facts) {
        return new HostInfo(Untrusted.bounded(name, 200), fingerprint, null, null, null, 0, 0, List.of(), 0,
                List.of(), null, facts);
    }
}
