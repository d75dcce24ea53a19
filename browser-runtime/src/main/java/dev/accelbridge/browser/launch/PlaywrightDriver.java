package dev.accelbridge.browser.launch;

import com.microsoft.playwright.Playwright;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Playwright's driver (a Node.js program): started with the system's Node.js where there is one, or said why not. A
 * caller that drives its page on its own thread ({@link PlaywrightVisit}) may hand its driver back when done: the next
 * such caller takes it instead of starting one (≈0.4 s a start here). Playwright is not thread-safe; a driver handed
 * back is used by one caller at a time, the hand-over synchronized here.
 */
final class PlaywrightDriver {
    /** A started driver no caller is using: at most one is kept. */
    private static Playwright idle;

    private PlaywrightDriver() {
    }

    /**
     * A driver handed over: the one handed back last when there is one ({@code reused}), else a new one.
     *
     * @param playwright the driver, the caller's alone until {@link #handBack} or its close
     * @param reused     whether it was handed back by an earlier caller (it may have ended since)
     */
    record Taken(Playwright playwright, boolean reused) {
    }

    /** The idle driver, or a new one started now. */
    static Taken take() {
        Playwright p;
        synchronized (PlaywrightDriver.class) {
            p = idle;
            idle = null;
        }
        return p != null ? new Taken(p, true) : new Taken(start(), false);
    }

    /** Keeps {@code playwright}, whose browsers are closed, for the next {@link #take}; closes it when one is kept already. */
    static void handBack(Playwright playwright) {
        synchronized (PlaywrightDriver.class) {
            if (idle == null) {
                idle = playwright;
                return;
            }
        }
        LaunchSupport.quietly(playwright::close);
    }

    /**
     * A new Playwright, its driver started. A system Node spares Playwright unpacking its bundled one (measured 2.1-2.3 s
     * -> 0.8-1.3 s per create).
     *
     * @throws BrowserLaunchException when the driver does not start, with the fix
     */
    static Playwright start() {
        Map<String, String> env = new HashMap<>();
        env.put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
        Optional<Path> node = BrowserDiscovery.resolve("node").filter(Files::isExecutable);
        node.ifPresent(n -> env.put("PLAYWRIGHT_NODEJS_PATH", n.toString()));
        try {
            return Playwright.create(new Playwright.CreateOptions().setEnv(env));
        } catch (RuntimeException e) {
            // found when tried: on a host with no Node.js (the offline bundle carries none) this said "Failed to create driver"
            throw new BrowserLaunchException("Playwright's driver did not start: " + LaunchSupport.firstLine(e) + (node.isEmpty()
                    ? " (it runs on Node.js: none is on PATH, and Playwright's own is not on the class path)" : ""),
                    "use --driver process (or selenium), or install Node.js", e);
        }
    }
}
