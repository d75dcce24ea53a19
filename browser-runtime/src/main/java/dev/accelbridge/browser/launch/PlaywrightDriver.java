package dev.accelbridge.browser.launch;

import com.microsoft.playwright.Playwright;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Playwright's driver (a Node.js program): started with the system's Node.js where there is one, or said why not. */
final class PlaywrightDriver {
    private PlaywrightDriver() {
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
