package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;
import java.net.URI;

/** Starts a browser on a URL. One implementation per {@link DriverKind}. */
@PublicApi
public interface BrowserLauncher {
    /** The driver this launcher implements. */
    DriverKind driver();

    /**
     * Starts the browser of {@code options} and opens {@code url}.
     *
     * @throws BrowserLaunchException naming the browser, its path and the fix when it cannot start
     */
    BrowserHandle launch(LaunchOptions options, URI url);
}
