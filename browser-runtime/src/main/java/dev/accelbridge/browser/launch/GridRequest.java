package dev.accelbridge.browser.launch;

import dev.accelbridge.core.TrustedCertificate;
import dev.accelbridge.core.BrowserKind;
import org.openqa.selenium.Capabilities;
import org.openqa.selenium.MutableCapabilities;
import org.openqa.selenium.PageLoadStrategy;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.chromium.ChromiumOptions;
import org.openqa.selenium.edge.EdgeOptions;
import org.openqa.selenium.firefox.FirefoxOptions;
import org.openqa.selenium.firefox.FirefoxProfile;

import java.net.URI;
import java.nio.file.Path;

/**
 * What {@link SeleniumLauncher} asks a Selenium Grid for: the browser's capabilities (its options, and the capabilities
 * the user asked for, which a node must offer), and the folder of the Firefox profile that trusts the bridge's
 * certificate, when there is one. The folder is read when the session is asked for; the launcher deletes it after.
 *
 * @param capabilities what the new session asks for
 * @param trustDir     the trusting Firefox profile's folder, or null
 */
record GridRequest(Capabilities capabilities, Path trustDir) {
    /**
     * The request for {@code options}' browser; with capabilities asked for, a Grid none of whose nodes offers them is
     * refused before the session is asked for.
     */
    static GridRequest of(LaunchOptions options, URI grid) {
        Capabilities caps;
        Path trustDir = null;
        if (options.browser() == BrowserKind.WEBKIT) {
            throw new BrowserLaunchException("A WebKit session on a Selenium Grid is not asked for yet",
                    "run WebKit on this machine (--driver selenium), or Chromium and Firefox on the Grid", null);
        }
        if (options.browser() == BrowserKind.FIREFOX) {
            FirefoxOptions f = new FirefoxOptions();
            if (options.headless()) {
                f.addArguments("-headless");
            }
            f.addArguments(options.extraArgs());
            // the quiet prefs; FirefoxPrefs.ENV cannot travel (Selenium's FirefoxOptions has no environment), so a Grid
            // node's Firefox still polls remote settings unless the node sets MOZ_REMOTE_SETTINGS_DEVTOOLS itself
            options.allFirefoxPrefs().forEach(f::addPreference);
            if (options.trust().isPresent()) {
                trustDir = trustingProfile(options.trust().get());
                f.setProfile(new FirefoxProfile(trustDir.toFile()));
            }
            options.executable().ifPresent(p -> f.setBinary(p.toString()));
            f.setPageLoadStrategy(PageLoadStrategy.EAGER);
            caps = f;
        } else {
            ChromiumOptions<?> c = options.browser() == BrowserKind.EDGE ? new EdgeOptions() : new ChromeOptions();
            // The Grid node's own ChromeDriver makes the profile; the binary only when given (it is a path on the node).
            c.addArguments(ChromiumFlags.forLaunch(options.browser(), DriverKind.GRID, options));
            options.executable().ifPresent(p -> c.setBinary(p.toFile()));
            SeleniumLauncher.configure(c, options);
            caps = c;
        }
        if (!options.capabilities().isEmpty()) {
            GridNodes.requireOffered(grid, caps.getBrowserName(), options.capabilities());
            MutableCapabilities asked = new MutableCapabilities(caps);
            options.capabilities().forEach(asked::setCapability);
            caps = asked;
        }
        return new GridRequest(caps, trustDir);
    }

    /**
     * The model of a Firefox profile, shipped to the node, that trusts the bridge's certificate by its fingerprint; the
     * folder is read when the session is asked for, and can go after.
     */
    private static Path trustingProfile(TrustedCertificate t) {
        try {
            Path dir = java.nio.file.Files.createTempDirectory("accelbridge-ff-trust");
            t.writeFirefoxOverrides(dir);
            return dir;
        } catch (java.io.IOException e) {
            throw new BrowserLaunchException("Cannot make a Firefox profile that trusts the bridge's certificate: " + e.getMessage(),
                    "check free space in " + System.getProperty("java.io.tmpdir"), e);
        }
    }
}
