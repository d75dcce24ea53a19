package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.BrowserKind;

import java.nio.file.Path;

/**
 * A browser found on this machine.
 *
 * @param kind       which browser
 * @param executable the binary to start
 * @param version    its version as it reports it
 */
@PublicApi
public record InstalledBrowser(BrowserKind kind, Path executable, String version) {
}
