package dev.accelbridge.browser.launch;

import java.nio.file.Files;
import java.nio.file.Path;

/** Small pieces every launcher needs. */
final class LaunchSupport {
    private LaunchSupport() {
    }

    /**
     * The environment Playwright gives a local browser: this process's with the options' and the headless-surface layer's
     * on top ({@link HeadlessSurfaces}), or null (Playwright's default, this process's own) when there is nothing to add.
     * Playwright's {@code env} replaces the whole environment, so the whole is passed.
     */
    static java.util.Map<String, String> playwrightEnvironment(LaunchOptions options) {
        java.util.Map<String, String> extra = HeadlessSurfaces.environment(options);
        if (extra.isEmpty()) {
            return null;
        }
        java.util.Map<String, String> all = new java.util.HashMap<>(System.getenv());
        all.putAll(extra);
        return all;
    }

    /**
     * The browser to start: the explicit executable of the options (its version asked once), else discovery. A headless
     * shell Accelbridge unpacked into its cache is verified again first, every launch ({@link ChromiumShell#beforeLaunch}).
     */
    static InstalledBrowser resolve(LaunchOptions options) {
        InstalledBrowser b;
        if (options.executable().isPresent()) {
            Path p = options.executable().get();
            if (!Files.isExecutable(p) || Files.isDirectory(p)) {
                throw new BrowserLaunchException("The " + options.browser() + " executable " + p + " is not an executable file",
                        "pass the browser binary itself (e.g. /usr/lib/chromium/chromium)", null);
            }
            Path verified = ChromiumShell.beforeLaunch(p);
            return new InstalledBrowser(options.browser(), verified, VersionProbe.version(verified));
        }
        b = BrowserDiscovery.require(options.browser());
        Path verified = ChromiumShell.beforeLaunch(b.executable());
        return verified.equals(b.executable()) ? b : new InstalledBrowser(b.kind(), verified, b.version());
    }

    /** Runs a cleanup step after a failure, its own failure dropped: the original error is what matters. */
    static void quietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException ignored) {
            // cleanup after a failure
        }
    }

    /** The one-line failure every launcher reports, naming browser, version, path and driver. */
    static BrowserLaunchException failed(InstalledBrowser b, DriverKind driver, Throwable cause, String fix) {
        String why = cause == null ? "" : ": " + firstLine(cause);
        return new BrowserLaunchException("Could not start " + b.kind() + " " + b.version() + " (" + b.executable() + ") through "
                + driver + why, fix, cause);
    }

    static String firstLine(Throwable t) {
        Throwable root = t;
        while ((root instanceof java.util.concurrent.ExecutionException || root instanceof java.util.concurrent.CompletionException)
                && root.getCause() != null) {
            root = root.getCause();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        m = m.strip();
        // Playwright's errors are a block, "Error {\n  message='what happened'\n  name=...": its message is what says why
        boolean block = m.startsWith("Error {");
        if (block) {
            int at = m.indexOf("message='");
            m = at < 0 ? m.substring("Error {".length()).strip() : m.substring(at + "message='".length());
        }
        int nl = m.indexOf('\n');
        String line = nl < 0 ? m : m.substring(0, nl);
        return block && line.endsWith("'") ? line.substring(0, line.length() - 1) : line;
    }

    /** The major version ({@code 156} of {@code 156.0.8078.79}), or -1. */
    static int major(String version) {
        int dot = version.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Opens the inference page in a fresh Playwright page, up to its commit. A navigation Chromium aborts with
     * {@code net::ERR_NETWORK_CHANGED} is made again (at most three times): Chromium aborts requests in flight when a network
     * interface comes or goes, as one does on a host where another namespace is being set up beside it (seen on CI: a
     * browser on a Playwright server in another network namespace gave no page).
     */
    static void navigate(com.microsoft.playwright.Page page, java.net.URI url, double timeoutMs) {
        for (int attempt = 1; ; attempt++) {
            try {
                page.navigate(url.toString(), new com.microsoft.playwright.Page.NavigateOptions().setTimeout(timeoutMs)
                        .setWaitUntil(com.microsoft.playwright.options.WaitUntilState.COMMIT));
                return;
            } catch (com.microsoft.playwright.PlaywrightException e) {
                if (attempt >= 3 || e.getMessage() == null || !e.getMessage().contains("net::ERR_NETWORK_CHANGED")) {
                    throw e;
                }
                try {
                    Thread.sleep(250L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
