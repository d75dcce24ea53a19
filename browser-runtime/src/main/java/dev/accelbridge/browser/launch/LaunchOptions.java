package dev.accelbridge.browser.launch;

import dev.accelbridge.core.TrustedCertificate;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.BrowserKind;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What to launch and how, in the manner of Playwright's {@code LaunchOptions}.
 *
 * @param browser        which browser
 * @param driver         which launcher
 * @param headless       headless (the default) or headed
 * @param executable     an explicit executable; empty = discovered ({@link BrowserDiscovery})
 * @param gridUrl        the Selenium Grid for {@link DriverKind#GRID}
 * @param extraArgs      more command-line flags
 * @param launchTimeout  how long to wait for the browser to start
 * @param firefoxPrefs   more Firefox preferences, over {@link FirefoxPrefs#PREFS} (Playwright's {@code firefoxUserPrefs})
 * @param trust          the bridge's certificate, which the browser trusts by its key alone (an HTTPS bridge)
 * @param capabilities   extra capabilities a Grid session asks for, matched against its nodes' stereotypes
 *                       ({@code accelbridge:gpu=hardware}), as Grid users route to GPU pools
 * @param connect        a Playwright browser server to run the browser on ({@code playwright run-server}'s WebSocket)
 * @param webGpuAdapter  which WebGPU adapter a Chromium launched here gives its page
 * @param environment    environment variables a browser launched here gets beside this process's own (Playwright's
 *                       {@code env}; by Playwright, ChromeDriver and a plain process, not by WebKitGTK's driver or a remote
 *                       host); the headless-surface layer's, where {@link HeadlessSurfaces} decides it, come on top
 */
@PublicApi
public record LaunchOptions(BrowserKind browser, DriverKind driver, boolean headless, Optional<Path> executable,
                            Optional<URI> gridUrl, List<String> extraArgs, Duration launchTimeout,
                            Map<String, Object> firefoxPrefs, Optional<TrustedCertificate> trust, Map<String, String> capabilities,
                            Optional<URI> connect, WebGpuAdapter webGpuAdapter, Map<String, String> environment) {
    public LaunchOptions {
        extraArgs = List.copyOf(extraArgs);
        firefoxPrefs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(firefoxPrefs));
        trust = trust == null ? Optional.empty() : trust;
        capabilities = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(capabilities == null ? Map.of() : capabilities));
        connect = connect == null ? Optional.empty() : connect;
        webGpuAdapter = webGpuAdapter == null ? WebGpuAdapter.AUTO : webGpuAdapter;
        environment = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(environment == null ? Map.of() : environment));
    }

    /** The same options, trusting {@code certificate}. */
    public LaunchOptions withTrust(TrustedCertificate certificate) {
        return new LaunchOptions(browser, driver, headless, executable, gridUrl, extraArgs, launchTimeout, firefoxPrefs,
                Optional.ofNullable(certificate), capabilities, connect, webGpuAdapter, environment);
    }

    /** The same options with {@code args} after the extra arguments (a WebGPU adapter's flag set). */
    public LaunchOptions withArgs(List<String> args) {
        List<String> all = new ArrayList<>(extraArgs);
        all.addAll(args);
        return new LaunchOptions(browser, driver, headless, executable, gridUrl, all, launchTimeout, firefoxPrefs, trust, capabilities,
                connect, webGpuAdapter, environment);
    }

    /** The extra Chromium flags with the trusted certificate's pin. */
    public List<String> chromiumArgs() {
        List<String> out = new ArrayList<>(extraArgs);
        trust.ifPresent(t -> out.add(t.chromiumFlag()));
        return out;
    }

    /** The preferences a Firefox profile gets: {@link FirefoxPrefs#PREFS}, then these options' own. */
    public Map<String, Object> allFirefoxPrefs() {
        Map<String, Object> all = new java.util.LinkedHashMap<>(FirefoxPrefs.PREFS);
        all.putAll(firefoxPrefs);
        return all;
    }

    /** Headless Chromium through Playwright. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builder with the defaults: headless Chromium through Playwright, 60 s launch timeout. */
    public static final class Builder {
        private BrowserKind browser = BrowserKind.CHROMIUM;
        private DriverKind driver = DriverKind.PLAYWRIGHT;
        private boolean headless = true;
        private Path executable;
        private URI gridUrl;
        private final List<String> extraArgs = new ArrayList<>();
        private Duration launchTimeout = Duration.ofSeconds(60);
        private final Map<String, Object> firefoxPrefs = new java.util.LinkedHashMap<>();
        private TrustedCertificate trust;
        private final Map<String, String> capabilities = new java.util.LinkedHashMap<>();
        private URI connect;
        private WebGpuAdapter webGpuAdapter = WebGpuAdapter.AUTO;
        private final Map<String, String> environment = new java.util.TreeMap<>();

        public Builder browser(BrowserKind v) { this.browser = v; return this; }
        public Builder driver(DriverKind v) { this.driver = v; return this; }
        public Builder headless(boolean v) { this.headless = v; return this; }
        public Builder executable(Path v) { this.executable = v; return this; }
        public Builder gridUrl(URI v) { this.gridUrl = v; return this; }
        public Builder addArgs(List<String> v) { this.extraArgs.addAll(v); return this; }
        public Builder launchTimeout(Duration v) { this.launchTimeout = v; return this; }
        /** More Firefox preferences (Boolean, Integer or String values), over the quiet defaults. */
        public Builder optFirefoxPrefs(Map<String, Object> v) { this.firefoxPrefs.putAll(v); return this; }

        /** The certificate the browser trusts (an HTTPS bridge's). */
        public Builder trust(TrustedCertificate v) { this.trust = v; return this; }
        /** Extra capabilities a Grid session asks for ({@code accelbridge:gpu} → {@code hardware}). */
        public Builder capabilities(Map<String, String> v) { this.capabilities.putAll(v); return this; }
        /** A Playwright browser server's WebSocket endpoint to run the browser on. */
        public Builder connect(URI v) { this.connect = v; return this; }
        /** Which WebGPU adapter a Chromium gives its page ({@link WebGpuAdapter}; default auto). */
        public Builder webGpuAdapter(WebGpuAdapter v) { this.webGpuAdapter = v; return this; }
        /** Environment variables the browser gets beside this process's own ({@code VK_DRIVER_FILES}, ...). */
        public Builder environment(Map<String, String> v) { this.environment.putAll(v); return this; }

        public LaunchOptions build() {
            return new LaunchOptions(browser, driver, headless, Optional.ofNullable(executable), Optional.ofNullable(gridUrl),
                    extraArgs, launchTimeout, firefoxPrefs, Optional.ofNullable(trust), capabilities, Optional.ofNullable(connect),
                    webGpuAdapter, environment);
        }
    }
}
