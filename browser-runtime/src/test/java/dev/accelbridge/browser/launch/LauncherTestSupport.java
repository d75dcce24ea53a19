package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Skips with a reason when a browser is not installed. */
final class LauncherTestSupport {
    private LauncherTestSupport() {
    }

    static InstalledBrowser requireInstalled(BrowserKind kind) {
        var b = BrowserDiscovery.find(kind);
        assumeTrue(b.isPresent(), () -> kind + " is not installed here (" + BrowserDiscovery.describeCandidates(kind) + "): "
                + BrowserDiscovery.installHint(kind));
        return b.get();
    }

    static String major(InstalledBrowser b) {
        return Integer.toString(LaunchSupport.major(b.version()));
    }
}
