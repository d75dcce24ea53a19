package dev.accelbridge.browser.launch;

/** The launcher for a driver. Implemented by the launcher work; this signature is the contract. */
public final class BrowserLaunchers {
    private BrowserLaunchers() {
    }

    /** The launcher implementing {@code driver}. */
    public static BrowserLauncher forDriver(DriverKind driver) {
        throw new UnsupportedOperationException("BrowserLaunchers.forDriver is being implemented");
    }
}
