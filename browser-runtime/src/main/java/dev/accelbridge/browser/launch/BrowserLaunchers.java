package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;

/**
 * The launcher for a driver.
 *
 * <p>{@link DriverKind#PLAYWRIGHT} returns one shared {@link PlaywrightLauncher} per JVM (its node driver starts
 * once and is closed at JVM exit); it confines Playwright to its own thread, so it is safe to share. The other
 * launchers hold no state and are created per call. Create a {@code new PlaywrightLauncher()} to own its lifecycle.
 */
@PublicApi
public final class BrowserLaunchers {
    private static volatile PlaywrightLauncher shared;

    private BrowserLaunchers() {
    }

    /** The launcher implementing {@code driver}. */
    public static BrowserLauncher forDriver(DriverKind driver) {
        return switch (driver) {
            case PLAYWRIGHT -> sharedPlaywright();
            case SELENIUM, GRID -> new SeleniumLauncher(driver);
            case PROCESS -> new ProcessLauncher();
            case MANUAL -> throw new BrowserLaunchException("A manual browser is not launched: a person opens the page's URL",
                    "run 'accelbridge serve' and open the printed URL in any browser", null);
        };
    }

    /** Starts what the driver needs before its first launch in the background (Playwright's driver); a no-op otherwise. */
    public static void prewarm(DriverKind driver) {
        if (driver == DriverKind.PLAYWRIGHT) {
            sharedPlaywright().prewarm();
        }
    }

    /** Starts the browser of {@code options} with the launcher of {@code options.driver()}. */
    public static BrowserHandle launch(LaunchOptions options, java.net.URI url) {
        return forDriver(options.driver()).launch(options, url);
    }

    private static PlaywrightLauncher sharedPlaywright() {
        PlaywrightLauncher p = shared;
        if (p == null) {
            synchronized (BrowserLaunchers.class) {
                p = shared;
                if (p == null) {
                    p = new PlaywrightLauncher();
                    PlaywrightLauncher toClose = p;
                    Runtime.getRuntime().addShutdownHook(new Thread(toClose::close, "accelbridge-playwright-close"));
                    shared = p;
                }
            }
        }
        return p;
    }
}
