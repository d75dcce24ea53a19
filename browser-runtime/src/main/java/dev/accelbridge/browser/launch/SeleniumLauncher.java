package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.Untrusted;

import org.openqa.selenium.Capabilities;
import org.openqa.selenium.PageLoadStrategy;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.chromium.ChromiumOptions;
import org.openqa.selenium.remote.RemoteWebDriver;

import java.net.MalformedURLException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Launches browsers through Selenium 4: a local ChromeDriver ({@link DriverKind#SELENIUM}; WebKitGTK through its own
 * WebDriver, {@link WebKitLauncher}) or a Selenium Grid through RemoteWebDriver ({@link DriverKind#GRID}).
 *
 * <p>Selenium Manager is never involved: the ChromeDriver executable is given explicitly
 * ({@code /usr/bin/chromedriver}, overridable with {@code -Daccelbridge.chromedriver} / {@code ACCELBRIDGE_CHROMEDRIVER})
 * and so is the browser binary, so nothing is looked up or downloaded from the network. ChromeDriver only drives
 * a browser of its own major version; a mismatch (ChromeDriver 156 with the 153 headless shell) is refused before
 * starting anything, with the fix. A WebDriver is used from one thread at a time (the bridge's orchestrator).
 */
final class SeleniumLauncher implements BrowserLauncher {
    private static final Map<Path, String> DRIVER_VERSIONS = new ConcurrentHashMap<>();
    /**
     * Selenium 4.49 bundles CDP bindings up to 153 and warns at every ChromeDriver start against a newer browser.
     * We never use Selenium's CDP (the page talks to the bridge over its own WebSocket), so that warning is noise.
     * Held in a field because java.util.logging keeps loggers weakly and would forget the level.
     */
    private static final java.util.logging.Logger CDP_VERSION_LOG = quietCdpWarning();
    /** Selenium's own INFO lines (the client it picked, a session's retries) are not the user's business. */
    private static final java.util.logging.Logger SELENIUM_LOG = quiet("org.openqa.selenium", java.util.logging.Level.WARNING);

    private final DriverKind kind;

    /** @param kind {@link DriverKind#SELENIUM} (local ChromeDriver) or {@link DriverKind#GRID} */
    public SeleniumLauncher(DriverKind kind) {
        if (kind != DriverKind.SELENIUM && kind != DriverKind.GRID) {
            throw new IllegalArgumentException("SeleniumLauncher implements selenium and grid, not " + kind);
        }
        this.kind = kind;
    }

    @Override
    public DriverKind driver() {
        return kind;
    }

    @Override
    public BrowserHandle launch(LaunchOptions options, URI url) {
        return kind == DriverKind.GRID ? launchOnGrid(options, url) : launchLocal(options, url);
    }

    private BrowserHandle launchLocal(LaunchOptions options, URI url) {
        if (options.browser() == BrowserKind.FIREFOX) {
            throw new BrowserLaunchException("Selenium needs geckodriver for Firefox and this machine has none",
                    "use --driver process for Firefox (its page joins the bridge without a driver)", null);
        }
        if (options.browser() == BrowserKind.WEBKIT) {
            return WebKitLauncher.launch(options, url); // WebKitGTK's own WebDriver, not ChromeDriver
        }
        InstalledBrowser b = LaunchSupport.resolve(options);
        Path chromedriver = chromedriver();
        String driverVersion = DRIVER_VERSIONS.computeIfAbsent(chromedriver, VersionProbe::version);
        if (LaunchSupport.major(driverVersion) != LaunchSupport.major(b.version())) {
            throw new BrowserLaunchException("ChromeDriver " + LaunchSupport.major(driverVersion) + " (" + chromedriver
                    + ") cannot drive " + b.kind() + " " + LaunchSupport.major(b.version()) + " (" + b.executable() + ")",
                    "use --driver playwright (or --driver process), or point -Daccelbridge.chromedriver / ACCELBRIDGE_CHROMEDRIVER "
                            + "at a ChromeDriver " + LaunchSupport.major(b.version()), null);
        }
        Path profile = Profiles.fresh(b.kind());
        ChromeOptions o = new ChromeOptions();
        o.setBinary(b.executable().toFile());
        o.addArguments(ChromiumFlags.forLaunch(b.kind(), DriverKind.SELENIUM, options));
        o.addArguments("--user-data-dir=" + profile);
        configure(o, options);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort()
                .withTimeout(options.launchTimeout())
                .withEnvironment(HeadlessSurfaces.environment(options)) // ChromeDriver hands its environment to Chrome
                .build();
        ChromeDriver driver = null;
        try {
            driver = new ChromeDriver(service, o);
            driver.get(url.toString());
            String version = Optional.ofNullable(driver.getCapabilities().getBrowserVersion()).filter(v -> !v.isBlank())
                    .orElse(b.version());
            ProcessHandle process = ProcessTrees.findBrowser("--user-data-dir=" + profile, Duration.ofSeconds(5)).orElse(null);
            return new LocalHandle(b, version, profile, process, driver, service);
        } catch (RuntimeException e) {
            if (driver != null) {
                LaunchSupport.quietly(driver::quit);
            }
            ProcessTrees.findBrowser("--user-data-dir=" + profile, Duration.ZERO)
                    .ifPresent(ph -> ProcessTrees.killTree(ph, Duration.ofSeconds(5)));
            LaunchSupport.quietly(service::stop);
            Profiles.delete(profile);
            throw LaunchSupport.failed(b, DriverKind.SELENIUM, e,
                    "run '" + chromedriver + " --version' and '" + b.executable() + " --version': ChromeDriver and browser must match");
        }
    }

    /**
     * A session on the Grid: the Grid checked, the session asked for, its node checked, then the page opened; each step
     * refuses with its own message, and a session the launch cannot use is ended before the refusal.
     */
    private BrowserHandle launchOnGrid(LaunchOptions options, URI url) {
        URI grid = options.gridUrl().orElseThrow(() -> new BrowserLaunchException("--driver grid needs the Grid's URL",
                "pass --grid http://host:4444", null));
        GridNodes.requireGrid(grid); // bounded in time and size: Selenium reads any answer whole, for up to 3 minutes
        GridRequest request = GridRequest.of(options, grid);
        RemoteWebDriver driver = newSession(grid, request, options);
        requirePlacedOnOffering(grid, driver, options, request.capabilities());
        open(grid, driver, url, options);
        String version = Optional.ofNullable(driver.getCapabilities().getBrowserVersion()).orElse("unknown");
        return new GridHandle(options.browser(), version, grid, driver,
                GridNodes.hostOf(grid, driver.getSessionId().toString(), driver.getCapabilities()));
    }

    /** The Grid's new session; the trusting profile's folder goes once it is asked for, whatever the answer. */
    private static RemoteWebDriver newSession(URI grid, GridRequest request, LaunchOptions options) {
        try {
            // the launch's bound for every answer (Selenium's default is 3 minutes)
            Duration bound = options.launchTimeout().plusSeconds(10);
            return new RemoteWebDriver(grid.toURL(), request.capabilities(), org.openqa.selenium.remote.http.ClientConfig.defaultConfig()
                    .baseUri(grid).connectionTimeout(Duration.ofSeconds(10)).readTimeout(bound));
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new BrowserLaunchException("The Grid URL '" + grid + "' is not a URL", "pass --grid http://host:4444", e);
        } catch (WebDriverException | java.io.UncheckedIOException e) {
            throw new BrowserLaunchException("The Selenium Grid at " + grid + " gave no " + options.browser() + " session: "
                    + said(e, options.launchTimeout().plusSeconds(10)), "check the Grid's console (" + grid + "/ui) for a node offering "
                    + options.browser(), e);
        } finally {
            if (request.trustDir() != null) {
                Profiles.delete(request.trustDir());
            }
        }
    }

    /** With capabilities asked for, a session the Grid placed on a node that does not offer them is ended and refused. */
    private static void requirePlacedOnOffering(URI grid, RemoteWebDriver driver, LaunchOptions options, Capabilities caps) {
        java.util.Optional<String> elsewhere = GridNodes.landedElsewhere(grid, driver.getSessionId().toString(), options.capabilities());
        if (elsewhere.isPresent()) {
            LaunchSupport.quietly(driver::quit);
            throw new BrowserLaunchException("The Selenium Grid at " + grid + " placed the session on a node that does not offer "
                    + options.capabilities() + ": " + elsewhere.get(), "give the nodes that should take it the capability in their "
                    + "stereotype, and no other node a slot for " + caps.getBrowserName(), null);
        }
    }

    /** The page opened in the Grid's browser, else the session ended and the failure said: the network's, or the Grid's. */
    private static void open(URI grid, RemoteWebDriver driver, URI url, LaunchOptions options) {
        try {
            driver.get(url.toString());
        } catch (WebDriverException e) {
            LaunchSupport.quietly(driver::quit);
            String why = said(e, options.launchTimeout());
            boolean network = why.contains("ERR_") || why.contains("neterror") || why.contains("did not answer");
            throw new BrowserLaunchException("The Grid browser could not open " + url + ": " + why, network
                    ? "the bridge must listen on an address the Grid node can reach (--bridge-host, --advertise)"
                    : "check that --grid names a Selenium Grid 4 hub, and its console (" + grid + "/ui)", e);
        }
    }

    /** What a Chromium launch sets on its options, locally and on a Grid. */
    static void configure(ChromiumOptions<?> o, LaunchOptions options) {
        // EAGER: get() returns at DOMContentLoaded; the page reports back over its WebSocket.
        o.setPageLoadStrategy(PageLoadStrategy.EAGER);
        o.setPageLoadTimeout(options.launchTimeout());
    }

    /** The ChromeDriver executable: the override, else /usr/bin/chromedriver, else chromedriver on PATH. */
    static Path chromedriver() {
        String explicit = System.getProperty("accelbridge.chromedriver", System.getenv("ACCELBRIDGE_CHROMEDRIVER"));
        if (explicit != null && !explicit.isBlank()) {
            return BrowserDiscovery.resolve(explicit).orElseThrow(() -> new BrowserLaunchException(
                    "The ChromeDriver configured by -Daccelbridge.chromedriver / ACCELBRIDGE_CHROMEDRIVER is not executable: " + explicit,
                    "point it at a chromedriver binary or unset it", null));
        }
        return BrowserDiscovery.resolve("/usr/bin/chromedriver").or(() -> BrowserDiscovery.resolve("chromedriver"))
                .orElseThrow(() -> new BrowserLaunchException("No ChromeDriver found (/usr/bin/chromedriver, PATH)",
                        "apt-get install chromium-driver, or use --driver playwright", null));
    }

    /**
     * What a Grid's failure says, as a reason may keep it: a timeout as the bound it met (Selenium's own message ends in
     * "null" then), anything else its first line, quoted and bounded.
     */
    static String said(RuntimeException e, Duration bound) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.util.concurrent.TimeoutException || t instanceof java.net.http.HttpTimeoutException
                    || t instanceof org.openqa.selenium.TimeoutException) {
                return "it did not answer within " + bound.toSeconds() + " s";
            }
        }
        return Untrusted.quote(LaunchSupport.firstLine(e));
    }

    private static java.util.logging.Logger quietCdpWarning() {
        return quiet("org.openqa.selenium.devtools.CdpVersionFinder", java.util.logging.Level.SEVERE);
    }

    private static java.util.logging.Logger quiet(String name, java.util.logging.Level level) {
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(name);
        log.setLevel(level);
        return log;
    }

    private static final class LocalHandle extends WebDriverHandle {
        private final ChromeDriverService service;

        LocalHandle(InstalledBrowser b, String version, Path profile, ProcessHandle process, ChromeDriver driver,
                    ChromeDriverService service) {
            super(b.kind(), version, b.executable(), profile, process, driver);
            this.service = service;
        }

        @Override
        void release() {
            LaunchSupport.quietly(service::stop);
        }
    }

    /** A browser on a Grid node: no local process, so liveness asks the session. */
    private static final class GridHandle implements BrowserHandle {
        private final BrowserKind browser;
        private final String version;
        private final URI grid;
        private final RemoteWebDriver driver;
        private final HostInfo node;
        private volatile boolean ended;

        GridHandle(BrowserKind browser, String version, URI grid, RemoteWebDriver driver, HostInfo node) {
            this.node = node;
            this.browser = browser;
            this.version = version;
            this.grid = grid;
            this.driver = driver;
        }

        @Override public BrowserKind browser() { return browser; }
        @Override public DriverKind driver() { return DriverKind.GRID; }
        @Override public String version() { return version; }
        @Override public String executable() { return grid.toString(); }
        @Override public OptionalLong pid() { return OptionalLong.empty(); }
        @Override public Optional<HostInfo> remoteHost() { return Optional.of(node); }

        @Override
        public boolean isAlive() {
            if (ended) {
                return false;
            }
            return WebDriverHandle.answers(driver);
        }

        /** Ends the remote session: the closest a client gets to killing a browser on another machine. */
        @Override
        public void kill() {
            close();
        }

        @Override
        public void close() {
            if (!ended) {
                ended = true;
                LaunchSupport.quietly(driver::quit);
            }
        }

        @Override
        public String toString() {
            return browser.id() + " " + version + " on " + node.hostname() + " of Grid " + grid + " (session " + driver.getSessionId() + ")";
        }
    }
}
