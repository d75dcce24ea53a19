package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import org.openqa.selenium.Capabilities;
import org.openqa.selenium.MutableCapabilities;
import org.openqa.selenium.remote.RemoteWebDriver;
import org.openqa.selenium.remote.http.ClientConfig;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * WebKitGTK's MiniBrowser through WebKitGTK's own WebDriver ({@code WebKitWebDriver}, a W3C WebDriver server Selenium's
 * {@link RemoteWebDriver} speaks to; Selenium has no WebKitGTK class of its own). MiniBrowser has no headless mode, so a
 * headless launch (or one on a machine with no display) gets an {@link VirtualDisplay} of its own. The browser's state
 * (caches, data) goes to the launch's fresh profile folder through the XDG variables, so nothing is shared between
 * launches or left behind. WebKitGTK's WebGPU is a preview feature: it is switched on ({@code --features=+WebGPU}) so
 * that the page's probe says whether this build has it.
 */
final class WebKitLauncher {
    /** WebKitGTK's switches for the automation session: driven, and its WebGPU asked for. */
    static final List<String> ARGS = List.of("--automation", "--features=+WebGPU");

    private WebKitLauncher() {
    }

    /** Starts MiniBrowser on {@code url} (its page joins the bridge by itself). */
    static BrowserHandle launch(LaunchOptions options, URI url) {
        if (options.trust().isPresent()) {
            throw new BrowserLaunchException("WebKitGTK cannot be told to trust the bridge's own certificate by its key",
                    "run WebKit against a loopback bridge (the default), not an HTTPS one", null);
        }
        InstalledBrowser b = LaunchSupport.resolve(options);
        Path webDriver = webDriver().orElseThrow(() -> new BrowserLaunchException("No WebKitWebDriver found ("
                + overrideName() + ", PATH)", "apt-get install webkit2gtk-driver xvfb (./setup.sh does)", null));
        // what an earlier run of this user killed outright left running is ended first (and said)
        LaunchLeases.reapOrphans();
        Path profile = Profiles.fresh(BrowserKind.WEBKIT);
        VirtualDisplay display = null;
        Process server = null;
        RemoteWebDriver driver = null;
        // the display, the driver, MiniBrowser and the profile outlive no run: a lease for the shutdown hook and the next run
        LaunchLeases.Lease lease = LaunchLeases.take("webkit", profile);
        try {
            display = VirtualDisplay.needed(options.headless(), System.getenv()) ? VirtualDisplay.start(options.launchTimeout()) : null;
            if (display != null) {
                lease.add(display.handle());
            }
            int port = freePort();
            ProcessBuilder pb = new ProcessBuilder(webDriver.toString(), "--port=" + port, "--host=local")
                    .redirectErrorStream(true).redirectOutput(profile.resolve("webdriver.log").toFile());
            pb.environment().putAll(environment(profile, display == null ? null : display.name()));
            server = pb.start();
            lease.add(server.toHandle());
            server.getOutputStream().close();
            URI base = URI.create("http://127.0.0.1:" + port);
            DriverStatus.awaitReady(base, server, options.launchTimeout(), profile.resolve("webdriver.log"));
            driver = new RemoteWebDriver(base.toURL(), capabilities(options, b.executable()), ClientConfig.defaultConfig().baseUri(base)
                    .connectionTimeout(Duration.ofSeconds(10)).readTimeout(options.launchTimeout().plusSeconds(10)));
            driver.get(url.toString());
            String version = Optional.ofNullable(driver.getCapabilities().getBrowserVersion()).filter(v -> !v.isBlank()).orElse(b.version());
            ProcessHandle browser = server.descendants().filter(ph -> ph.info().command().map(c -> c.endsWith("MiniBrowser")
                    || c.equals(b.executable().toString())).orElse(false)).findFirst().orElse(server.toHandle());
            lease.add(server.toHandle()); // MiniBrowser and its WebKit processes, now that the session started them
            return new Handle(b, version, profile, browser, driver, server, display, lease);
        } catch (RuntimeException | IOException e) {
            if (driver != null) {
                LaunchSupport.quietly(driver::quit);
            }
            if (server != null) {
                ProcessTrees.killTree(server.toHandle(), Duration.ofSeconds(5));
            }
            if (display != null) {
                display.close();
            }
            String log = DriverStatus.tail(profile.resolve("webdriver.log"));
            Profiles.delete(profile);
            lease.close();
            if (e instanceof BrowserLaunchException ble && server == null) {
                throw ble;
            }
            throw LaunchSupport.failed(b, DriverKind.SELENIUM, e, "run '" + webDriver + " --port=4444' and '" + b.executable()
                    + " --version' in a shell" + (log.isEmpty() ? "" : "; WebKitWebDriver said: " + log));
        }
    }

    /** The new session's capabilities: the browser binary and its switches, the page loaded up to DOMContentLoaded. */
    static Capabilities capabilities(LaunchOptions options, Path binary) {
        List<String> args = new ArrayList<>(ARGS);
        args.addAll(options.extraArgs());
        MutableCapabilities c = new MutableCapabilities();
        c.setCapability("webkitgtk:browserOptions", Map.of("binary", binary.toString(), "args", args));
        c.setCapability("pageLoadStrategy", "eager");
        return c;
    }

    /** The driver process's environment: the display, and every XDG folder inside the profile. */
    static Map<String, String> environment(Path profile, String display) {
        Map<String, String> env = new HashMap<>();
        if (display != null) {
            env.put("DISPLAY", display);
            env.put("GDK_BACKEND", "x11"); // the virtual display, even on a Wayland desktop
        }
        for (String dir : List.of("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME")) {
            env.put(dir, profile.resolve(dir.toLowerCase(java.util.Locale.ROOT)).toString());
        }
        return env;
    }

    /** WebKitGTK's WebDriver: the override ({@code -Daccelbridge.webkitwebdriver} / {@code ACCELBRIDGE_WEBKITWEBDRIVER}), else on PATH. */
    static Optional<Path> webDriver() {
        String explicit = System.getProperty("accelbridge.webkitwebdriver", System.getenv("ACCELBRIDGE_WEBKITWEBDRIVER"));
        if (explicit != null && !explicit.isBlank()) {
            return BrowserDiscovery.resolve(explicit.strip());
        }
        return BrowserDiscovery.resolve("WebKitWebDriver");
    }

    static String overrideName() {
        return "-Daccelbridge.webkitwebdriver / ACCELBRIDGE_WEBKITWEBDRIVER";
    }

    /**
     * MiniBrowser's version ({@code WebKitGTK 2.50.6}); it answers {@code --version} only with a display, so a virtual one is
     * started for the question (never the user's: found when tried, a display that did not answer cost a run 148 s), and its
     * caches (GStreamer's registry) go to a throw-away folder, not the user's home.
     */
    static String version(Path miniBrowser) {
        Path scratch = Profiles.fresh(BrowserKind.WEBKIT);
        try {
            return VirtualDisplay.with(Duration.ofSeconds(10), d -> {
                Map<String, String> env = new HashMap<>(environment(scratch, d));
                return VersionProbe.version(miniBrowser, env);
            });
        } finally {
            Profiles.delete(scratch);
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** MiniBrowser under its driver (and its display): close quits the session, then ends the driver and the display. */
    private static final class Handle extends WebDriverHandle {
        private final Process server;
        private final VirtualDisplay display;
        private final LaunchLeases.Lease lease;

        Handle(InstalledBrowser b, String version, Path profile, ProcessHandle browser, RemoteWebDriver driver, Process server,
               VirtualDisplay display, LaunchLeases.Lease lease) {
            super(BrowserKind.WEBKIT, version, b.executable(), profile, browser, driver);
            this.server = server;
            this.display = display;
            this.lease = lease;
        }

        @Override
        void release() {
            ProcessTrees.killTree(server.toHandle(), Duration.ofSeconds(3));
            if (display != null) {
                display.close();
            }
            lease.close(); // what is left, the profile, the handle's close deletes now
        }

        @Override
        public String toString() {
            return super.toString() + (display == null ? "" : " on " + display);
        }
    }
}
