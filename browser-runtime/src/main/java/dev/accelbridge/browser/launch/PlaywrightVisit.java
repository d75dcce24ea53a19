package dev.accelbridge.browser.launch;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import dev.accelbridge.core.PublicApi;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A Chromium build launched through Playwright for a caller that drives the page itself (the observer of a user's app,
 * the JUnit extension's observed page): launched as every Playwright lane's browser is ({@link PlaywrightLauncher}: the
 * executable resolved and checked by {@link LaunchSupport}, the command line {@link ChromiumFlags} gives for the
 * {@link LaunchOptions}, Playwright's driver on the system's Node.js, a fresh profile by which its process is found), but
 * on the caller's thread with the page handed over before it goes anywhere. {@link #kill} ends its process tree from
 * any thread, which also unblocks a Playwright call stuck on a page that never answers.
 */
@PublicApi
public final class PlaywrightVisit implements AutoCloseable {
    private final Playwright playwright;
    private final BrowserContext context;
    private final Page page;
    private final InstalledBrowser browser;
    private final Path profile;
    private final Optional<ProcessHandle> process;
    private volatile boolean killed;

    private PlaywrightVisit(Playwright playwright, BrowserContext context, Page page, InstalledBrowser browser, Path profile,
                            Optional<ProcessHandle> process) {
        this.playwright = playwright;
        this.context = context;
        this.page = page;
        this.browser = browser;
        this.profile = profile;
        this.process = process;
    }

    /**
     * Launches the Chromium build {@code options} names, with its flags, on a blank page.
     *
     * @throws BrowserLaunchException when it is not a Chromium build, is not installed, or does not start (with the fix)
     */
    public static PlaywrightVisit open(LaunchOptions options) {
        if (!options.browser().chromium() || options.connect().isPresent() || options.gridUrl().isPresent()) {
            throw new BrowserLaunchException("A page is driven here in a local Chromium build, not " + options.browser().id()
                    + (options.connect().isPresent() || options.gridUrl().isPresent() ? " on another host" : ""), "use --browser chromium", null);
        }
        InstalledBrowser b = LaunchSupport.resolve(options);
        Path profile = Profiles.fresh(b.kind());
        Playwright pw = null;
        try {
            PlaywrightDriver.Taken taken = PlaywrightDriver.take();
            pw = taken.playwright();
            BrowserContext ctx;
            try {
                ctx = launch(pw, b, profile, options);
            } catch (PlaywrightException e) {
                if (!taken.reused() || !driverGone(e)) {
                    throw e;
                }
                // a driver handed back earlier that has ended since: not the browser's failure, so once more on a new one
                LaunchSupport.quietly(pw::close);
                pw = null; // closed: not again below if the new one does not start
                pw = PlaywrightDriver.start();
                ctx = launch(pw, b, profile, options);
            }
            Page page = ctx.pages().isEmpty() ? ctx.newPage() : ctx.pages().get(0);
            return new PlaywrightVisit(pw, ctx, page, b, profile,
                    ProcessTrees.findBrowser("--user-data-dir=" + profile, Duration.ofSeconds(5)));
        } catch (PlaywrightException e) {
            if (pw != null) {
                pw.close();
            }
            Profiles.delete(profile);
            throw LaunchSupport.failed(b, DriverKind.PLAYWRIGHT, e,
                    "run '" + b.executable() + " --headless=new --no-sandbox about:blank' to see the browser's own error");
        } catch (RuntimeException e) {
            if (pw != null) {
                pw.close();
            }
            Profiles.delete(profile);
            throw e;
        }
    }

    /** Whether {@code e} says Playwright's driver is gone (its pipe closed), as its transport words it. */
    private static boolean driverGone(PlaywrightException e) {
        String m = String.valueOf(e.getMessage());
        return m.contains("Playwright connection closed") || m.contains("pipe closed");
    }

    private static BrowserContext launch(Playwright pw, InstalledBrowser b, Path profile, LaunchOptions options) {
        return pw.chromium().launchPersistentContext(profile, new BrowserType.LaunchPersistentContextOptions()
                .setExecutablePath(b.executable()).setHeadless(options.headless())
                .setArgs(ChromiumFlags.forLaunch(b.kind(), DriverKind.PLAYWRIGHT, options))
                .setEnv(LaunchSupport.playwrightEnvironment(options))
                .setTimeout(options.launchTimeout().toMillis()));
    }

    /** The page, blank until the caller sends it somewhere. */
    public Page page() {
        return page;
    }

    /** The browser launched: its kind, executable and version. */
    public InstalledBrowser browser() {
        return browser;
    }

    /** The browser's main process, when it was found by its profile. */
    Optional<ProcessHandle> process() {
        return process;
    }

    /** Ends the browser's process tree now, from any thread: a Playwright call waiting on it then fails. */
    public void kill() {
        killed = true;
        endTree();
    }

    private void endTree() {
        process.ifPresent(p -> ProcessTrees.killTree(p, Duration.ofSeconds(5)));
    }

    /**
     * Closes the browser and deletes the profile; Playwright's driver is handed back for the next visit when the browser
     * closed cleanly, else closed (a visit whose browser was killed or would not close leaves no driver in doubt behind).
     */
    @Override
    public void close() {
        boolean clean = false;
        try {
            context.close();
            clean = !killed;
        } catch (RuntimeException e) {
            // cleanup after a failure: the driver goes with it
        } finally {
            endTree(); // whatever the close left, before the driver can start another visit's browser
            if (clean) {
                PlaywrightDriver.handBack(playwright);
            } else {
                LaunchSupport.quietly(playwright::close);
            }
            Profiles.delete(profile);
        }
    }
}
