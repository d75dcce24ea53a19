package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.HostInfo;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Launches Chromium builds through Playwright for Java (the default driver).
 *
 * <p><b>Threading.</b> Playwright objects are not thread-safe and must be used from the thread that created
 * them. This launcher therefore owns one Playwright instance (created on first launch: the node driver starts
 * once, not per browser) on one dedicated daemon thread, and every Playwright call of its launches and handles
 * runs there. Callers may use the launcher and its handles from any thread. {@link BrowserHandle#kill()} does
 * not go through that thread: it kills the OS process tree, which also unblocks a Playwright call stuck on a
 * hung browser.
 *
 * <p>Browsers cannot be downloaded here, so Playwright gets {@code PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1} and the
 * discovered executable. Playwright rejects {@code --user-data-dir} in the arguments, so every launch is a
 * {@code launchPersistentContext} on a fresh temporary profile, which also lets us find the browser's process by
 * that folder in its command line. One job, driving browsers through the one Playwright instance its thread owns: the local
 * and server launches and their handles share that thread and instance, so it stays whole near the size limit.
 */
public final class PlaywrightLauncher implements BrowserLauncher, AutoCloseable {
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "accelbridge-playwright");
        t.setDaemon(true);
        return t;
    });
    /**
     * How long "is the browser still connected?" may wait for the Playwright thread: a busy thread on a loaded machine is
     * not a dead browser, and a browser wrongly called dead is relaunched (on CI a remote lane took a new launch slot right
     * after a passing case, and that new page did not join).
     */
    private static final Duration ALIVE_ANSWER = Duration.ofSeconds(10);
    private Playwright playwright; // touched only on `thread`
    private volatile boolean closed;

    @Override
    public DriverKind driver() {
        return DriverKind.PLAYWRIGHT;
    }

    @Override
    public BrowserHandle launch(LaunchOptions options, URI url) {
        if (closed) {
            throw new IllegalStateException("this PlaywrightLauncher is closed");
        }
        if (options.browser() == BrowserKind.WEBKIT) {
            throw new BrowserLaunchException("Playwright drives only its own patched WebKit build, which cannot be downloaded or "
                    + "run here", "use --driver selenium for WebKit (WebKitGTK's own WebDriver)", null);
        }
        if (options.connect().isPresent()) {
            return launchOnServer(options, url);
        }
        if (options.browser() == BrowserKind.FIREFOX) {
            throw new BrowserLaunchException("Playwright cannot drive this machine's Firefox (it needs Playwright's own patched "
                    + "Firefox build, which cannot be downloaded here)", "use --driver process for Firefox", null);
        }
        InstalledBrowser b = LaunchSupport.resolve(options);
        List<String> args = ChromiumFlags.forLaunch(b.kind(), DriverKind.PLAYWRIGHT, options);
        Path profile = Profiles.fresh(b.kind());
        double timeoutMs = options.launchTimeout().toMillis();
        Future<Object[]> started = thread.submit(() -> {
            BrowserContext ctx = playwright().chromium().launchPersistentContext(profile,
                    new BrowserType.LaunchPersistentContextOptions()
                            .setExecutablePath(b.executable())
                            .setHeadless(options.headless())
                            .setArgs(args)
                            .setEnv(LaunchSupport.playwrightEnvironment(options))
                            .setTimeout(timeoutMs));
            try {
                Page page = ctx.pages().isEmpty() ? ctx.newPage() : ctx.pages().get(0);
                PageWatch watch = PageWatch.on(page);
                // COMMIT: the launcher's job ends when the page is on its way; the page reports back over its
                // WebSocket, and an unreachable URL still fails here.
                LaunchSupport.navigate(page, url, timeoutMs);
                String version = ctx.browser() != null ? ctx.browser().version() : b.version();
                return new Object[] {ctx, version, watch};
            } catch (RuntimeException e) {
                ctx.close();
                throw e;
            }
        });
        Object[] result;
        try {
            result = started.get(options.launchTimeout().toMillis() + 10_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            started.cancel(true);
            ProcessTrees.findBrowser("--user-data-dir=" + profile, Duration.ZERO)
                    .ifPresent(ph -> ProcessTrees.killTree(ph, Duration.ofSeconds(5)));
            Profiles.delete(profile);
            if (e.getCause() instanceof BrowserLaunchException driverDown) {
                throw driverDown; // the driver, not the browser: its own message and fix
            }
            throw LaunchSupport.failed(b, DriverKind.PLAYWRIGHT, e,
                    "run '" + b.executable() + " --headless=new --no-sandbox about:blank' to see the browser's own error");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Profiles.delete(profile);
            throw new BrowserLaunchException("Interrupted while starting " + b.kind(), null, e);
        }
        BrowserContext ctx = (BrowserContext) result[0];
        ProcessHandle process = ProcessTrees.findBrowser("--user-data-dir=" + profile, Duration.ofSeconds(5)).orElse(null);
        return new Handle(b, (String) result[1], profile, process, ctx, (PageWatch) result[2]);
    }

    /**
     * A browser on a Playwright browser server ({@code playwright run-server}, as Playwright's docs describe for Java):
     * connected with Accelbridge's launch options in the {@code x-playwright-launch-options} header (its flags, the pin
     * of the bridge's certificate, the executable when one is given), which the server honours only when started with
     * {@code --unsafe}; without them the browser refuses the bridge's certificate and the message says so. Firefox runs as
     * the server's own Playwright Firefox, with the quiet preferences; its profile cannot take a certificate override from
     * here, so its context is told to accept the bridge's certificate (Playwright's {@code ignoreHTTPSErrors}), for that
     * context only.
     */
    private BrowserHandle launchOnServer(LaunchOptions options, URI url) {
        URI ws = options.connect().get();
        com.fasterxml.jackson.databind.node.ObjectNode launch = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        boolean firefox = options.browser() == BrowserKind.FIREFOX;
        launch.put("headless", options.headless());
        if (firefox) {
            launch.putPOJO("firefoxUserPrefs", options.allFirefoxPrefs());
        } else {
            launch.putPOJO("args", ChromiumFlags.forLaunch(options.browser(), DriverKind.PLAYWRIGHT, options));
        }
        options.executable().ifPresent(p -> launch.put("executablePath", p.toString()));
        double timeoutMs = options.launchTimeout().toMillis();
        // through a hop that bounds each of the server's messages: Playwright reads them whole
        ServerRelay relay = ServerRelay.start(ws, Map.of("x-playwright-launch-options", launch.toString()));
        Future<Object[]> started = thread.submit(() -> {
            com.microsoft.playwright.Browser browser = (firefox ? playwright().firefox() : playwright().chromium()).connect(
                    relay.uri().toString(), new BrowserType.ConnectOptions().setTimeout(timeoutMs));
            try {
                BrowserContext ctx = browser.newContext(new com.microsoft.playwright.Browser.NewContextOptions()
                        .setIgnoreHTTPSErrors(firefox && options.trust().isPresent()));
                Page page = ctx.newPage();
                PageWatch watch = PageWatch.on(page);
                LaunchSupport.navigate(page, url, timeoutMs);
                return new Object[] {browser, watch};
            } catch (RuntimeException e) {
                browser.close();
                throw e;
            }
        });
        try {
            Object[] r = started.get(options.launchTimeout().toMillis() + 10_000, TimeUnit.MILLISECONDS);
            com.microsoft.playwright.Browser browser = (com.microsoft.playwright.Browser) r[0];
            return new ServerHandle(options.browser(), onThread(browser::version, Duration.ofSeconds(10)), ws, browser, (PageWatch) r[1],
                    relay);
        } catch (ExecutionException | TimeoutException e) {
            started.cancel(true);
            relay.close();
            throw relayed(ws, relay, e);
        } catch (InterruptedException e) {
            relay.close();
            Thread.currentThread().interrupt();
            throw new BrowserLaunchException("Interrupted while connecting to the Playwright server at " + ws, null, e);
        } catch (Exception e) {
            relay.close();
            throw relayed(ws, relay, e);
        }
    }

    /** Why the server gave no browser: what the relay saw of it first (a message over the bound, its handshake's answer). */
    private static BrowserLaunchException relayed(URI ws, ServerRelay relay, Exception e) {
        if (relay.refused().isPresent()) {
            return new BrowserLaunchException(relay.refused().get(), "check that --connect names a Playwright server ('playwright "
                    + "run-server'); a message that large is not one of Playwright's answers to Accelbridge", e);
        }
        return PlaywrightServerFailure.of(ws, relay.failed().<Throwable>map(f -> new IllegalStateException(f, e)).orElse(e));
    }

    /** What a watched page said, asked on the Playwright thread; empty when the thread does not answer in time. */
    private java.util.Optional<String> watched(PageWatch watch) {
        try {
            return java.util.Optional.of(onThread(watch::describe, Duration.ofSeconds(5)));
        } catch (Exception e) {
            return java.util.Optional.empty();
        }
    }

    /** Runs {@code task} on the Playwright thread and waits up to {@code timeout}. */
    private <T> T onThread(Callable<T> task, Duration timeout) throws Exception {
        Future<T> f = thread.submit(task);
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
    }

    /**
     * Starts Playwright's driver now, on the launcher's thread, without waiting: a caller that will launch soon (a run
     * about to start its bridge) overlaps the driver's start (≈1 s) with its own work.
     */
    public void prewarm() {
        if (!closed) {
            thread.submit(this::playwright);
        }
    }

    /** Called on {@code thread} only. */
    private Playwright playwright() {
        if (playwright == null) {
            playwright = PlaywrightDriver.start();
        }
        return playwright;
    }

    /** Closes the Playwright driver (browsers still open are ended with it). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            onThread(() -> {
                if (playwright != null) {
                    playwright.close();
                    playwright = null;
                }
                return null;
            }, Duration.ofSeconds(10));
        } catch (Exception e) {
            // the driver process dies with the JVM anyway
        } finally {
            thread.shutdown();
        }
    }

    /** A browser on a Playwright server: another machine's, so no process or memory of it is seen here. */
    private final class ServerHandle implements BrowserHandle {
        private final BrowserKind kind;
        private final String version;
        private final URI ws;
        private final com.microsoft.playwright.Browser browser;
        private final PageWatch watch;
        private final ServerRelay relay;
        private volatile boolean ended;

        ServerHandle(BrowserKind kind, String version, URI ws, com.microsoft.playwright.Browser browser, PageWatch watch, ServerRelay relay) {
            this.kind = kind;
            this.version = version;
            this.ws = ws;
            this.browser = browser;
            this.watch = watch;
            this.relay = relay;
        }

        @Override
        public java.util.Optional<String> pageEvidence() {
            return relay.refused().or(() -> ended ? java.util.Optional.empty() : watched(watch));
        }

        @Override public BrowserKind browser() { return kind; }
        @Override public DriverKind driver() { return DriverKind.PLAYWRIGHT; }
        @Override public String version() { return version; }
        @Override public String executable() { return ws.toString(); }
        @Override public java.util.OptionalLong pid() { return java.util.OptionalLong.empty(); }

        @Override
        public java.util.Optional<HostInfo> remoteHost() {
            String name = "playwright server " + ws.getAuthority();
            return java.util.Optional.of(new HostInfo(name, "pw-" + HostInfo.fingerprintOf(
                    List.of(name, version)), null, null, null, 0, 0, List.of(), 0, List.of(), null, Map.of("playwright.server", ws.toString())));
        }

        @Override
        public boolean isAlive() {
            try {
                return !ended && onThread(browser::isConnected, ALIVE_ANSWER);
            } catch (Exception e) {
                return false;
            }
        }

        @Override
        public void kill() {
            close();
        }

        @Override
        public void close() {
            if (!ended) {
                ended = true;
                try {
                    onThread(() -> {
                        browser.close();
                        return null;
                    }, Duration.ofSeconds(10));
                } catch (Exception e) {
                    // the server ends the browser when the connection goes
                }
                relay.close();
            }
        }
    }

    private final class Handle extends LocalBrowserHandle {
        private final BrowserContext ctx;
        private final PageWatch watch;

        Handle(InstalledBrowser b, String version, Path profile, ProcessHandle process, BrowserContext ctx, PageWatch watch) {
            super(b.kind(), DriverKind.PLAYWRIGHT, version, b.executable(), profile, process);
            this.ctx = ctx;
            this.watch = watch;
        }

        @Override
        public java.util.Optional<String> pageEvidence() {
            return watched(watch);
        }

        @Override
        boolean aliveWithoutPid() {
            try {
                return onThread(() -> ctx.browser() != null && ctx.browser().isConnected(), ALIVE_ANSWER);
            } catch (Exception e) {
                return false;
            }
        }

        @Override
        void closeGracefully() throws Exception {
            onThread(() -> {
                ctx.close();
                return null;
            }, GRACE);
        }
    }
}
