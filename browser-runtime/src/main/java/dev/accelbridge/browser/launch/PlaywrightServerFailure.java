package dev.accelbridge.browser.launch;

import dev.accelbridge.core.Untrusted;

import java.net.URI;

/**
 * Why a Playwright browser server gave no browser, in one line with its fix: a server of another Playwright version, a
 * browser that refused the bridge's certificate (the server did not take the launch flags), or its own words.
 */
final class PlaywrightServerFailure {
    private PlaywrightServerFailure() {
    }

    /** A Playwright server's refusal, explained: another Playwright version, or a server that did not take the flags. */
    static BrowserLaunchException of(URI ws, Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null && all.length() < 4000; t = t.getCause() == t ? null : t.getCause()) {
            all.append(t.getMessage()).append(' ');
        }
        String why = Untrusted.bounded(all.toString(), 4000);
        String client = com.microsoft.playwright.Playwright.class.getPackage().getImplementationVersion();
        // Playwright answers another version's client "428 Precondition Required" with "Playwright version mismatch"; a
        // bare "428" anywhere (a port, a pid) is not that (found on a full run: a flaky refusal was called a version mismatch)
        if (why.contains("version mismatch") || why.contains("428 Precondition Required")) {
            java.util.regex.Matcher server = java.util.regex.Pattern.compile("server version: v?([0-9][0-9A-Za-z.-]*)").matcher(why);
            return new BrowserLaunchException("The Playwright server at " + ws + " runs Playwright " + (server.find() ? server.group(1)
                    : "of another version") + " and this client " + (client == null ? "another" : client) + ": Playwright's protocol "
                    + "needs both the same version",
                    "start the server of this version: 'npx playwright@" + (client == null ? "VERSION" : client) + " run-server --unsafe "
                            + "--port 3000', or from Java: 'java -cp <playwright jars> com.microsoft.playwright.CLI run-server --unsafe --port 3000'", e);
        }
        if (why.contains("ERR_CERT") || why.contains("CERT_")) {
            return new BrowserLaunchException("The browser on the Playwright server at " + ws + " refused the bridge's certificate ("
                    + Untrusted.bounded(LaunchSupport.firstLine(e), 200) + "): the server did not take Accelbridge's launch flags", "start the server with --unsafe, so a client may pass "
                    + "the browser its flags (the certificate's pin, WebGPU's), or give its browser --ignore-certificate-errors-spki-list "
                    + "with the pin 'run' prints", e);
        }
        return new BrowserLaunchException("The Playwright server at " + ws + " gave no browser: "
                + Untrusted.bounded(LaunchSupport.firstLine(e), 300),
                "check the server runs ('playwright run-server --port 3000 --unsafe') and that this machine reaches it", e);
    }
}
