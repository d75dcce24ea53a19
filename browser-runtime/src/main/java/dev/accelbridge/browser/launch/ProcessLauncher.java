package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a browser as a plain OS process with a fresh profile, pointed at the URL. No driver is needed because
 * the page itself connects back to the bridge; this is how Firefox runs here (no geckodriver, and Playwright only
 * drives its own patched Firefox). Also works for every Chromium build. The browser's output goes to
 * {@code browser.log} inside the profile folder; its tail is quoted when the browser dies at start.
 */
final class ProcessLauncher implements BrowserLauncher {
    /** How long to watch for an immediate crash (bad flag, missing library) before handing the process over. */
    private static final long EARLY_EXIT_MS = 300;

    @Override
    public DriverKind driver() {
        return DriverKind.PROCESS;
    }

    @Override
    public BrowserHandle launch(LaunchOptions options, URI url) {
        if (options.browser() == BrowserKind.WEBKIT) {
            throw new BrowserLaunchException("WebKit is started by its own WebDriver here, not as a plain process",
                    "use --driver selenium for WebKit", null);
        }
        InstalledBrowser b = LaunchSupport.resolve(options);
        Path profile = Profiles.fresh(b.kind());
        List<String> cmd = command(b, options, profile, url);
        Path log = profile.resolve("browser.log");
        Process process;
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            if (b.kind() == BrowserKind.FIREFOX) {
                pb.environment().putAll(FirefoxPrefs.ENV);
            }
            pb.environment().putAll(HeadlessSurfaces.environment(options));
            process = pb.start();
            process.getOutputStream().close();
            if (process.waitFor(EARLY_EXIT_MS, TimeUnit.MILLISECONDS)) {
                String out = tail(log);
                Profiles.delete(profile);
                throw LaunchSupport.failed(b, DriverKind.PROCESS, null,
                        "it exited at once with code " + process.exitValue() + "; its output: " + out);
            }
        } catch (IOException e) {
            Profiles.delete(profile);
            throw LaunchSupport.failed(b, DriverKind.PROCESS, e, "check that " + b.executable() + " starts from a shell");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Profiles.delete(profile);
            throw new BrowserLaunchException("Interrupted while starting " + b.kind(), null, e);
        }
        return new Handle(b, profile, process);
    }

    /** The command line: Firefox with {@code --profile} and {@code user.js}; Chromium with {@link ChromiumFlags}. */
    static List<String> command(InstalledBrowser b, LaunchOptions options, Path profile, URI url) {
        List<String> cmd = new ArrayList<>();
        cmd.add(b.executable().toString());
        if (b.kind() == BrowserKind.FIREFOX) {
            FirefoxPrefs.writeProfile(profile, options);
            if (options.headless()) {
                cmd.add("--headless");
            }
            cmd.addAll(List.of("--no-remote", "--profile", profile.toString()));
            cmd.addAll(options.extraArgs());
        } else {
            cmd.addAll(ChromiumFlags.forLaunch(b.kind(), DriverKind.PROCESS, options));
            cmd.add("--user-data-dir=" + profile);
        }
        cmd.add(url.toString());
        return cmd;
    }

    private static String tail(Path log) {
        try {
            String s = Files.readString(log, StandardCharsets.UTF_8).strip();
            return s.isEmpty() ? "(nothing)" : s.length() > 800 ? "…" + s.substring(s.length() - 800) : s;
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static final class Handle extends LocalBrowserHandle {
        private final Process process;

        Handle(InstalledBrowser b, Path profile, Process process) {
            super(b.kind(), DriverKind.PROCESS, b.version(), b.executable(), profile, process.toHandle());
            this.process = process;
        }

        @Override
        void closeGracefully() throws InterruptedException {
            process.destroy(); // SIGTERM: both Chromium and Firefox shut down cleanly on it
            process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
