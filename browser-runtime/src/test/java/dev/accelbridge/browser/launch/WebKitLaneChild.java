package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

/**
 * A process that launches a WebKit lane and waits to be stopped, for {@link LaunchLeasesTest}: it prints its profile folder
 * and every process of the launch, one pid a line, then "ready".
 */
public final class WebKitLaneChild {
    private WebKitLaneChild() {
    }

    public static void main(String[] args) throws Exception {
        BrowserHandle h;
        try {
            h = BrowserLaunchers.launch(LaunchOptions.builder().browser(BrowserKind.WEBKIT).driver(DriverKind.SELENIUM).build(),
                    java.net.URI.create("about:blank"));
        } catch (dev.accelbridge.core.AccelbridgeException e) {
            // the fix carries what WebKitWebDriver said (found when tried: the message alone, "Timeout when executing request
            // (POST .../url)" after 70 s of an idle machine, could not say where WebKit stopped)
            e.printStackTrace();
            System.err.println(e.oneLine()); // problem and fix, last, so the test's tail of this output keeps it
            System.exit(1);
            return;
        }
        LocalBrowserHandle local = (LocalBrowserHandle) h;
        System.out.println("profile " + local.profile());
        long self = ProcessHandle.current().pid();
        ProcessHandle.current().descendants().forEach(d -> System.out.println("pid " + d.pid() + " "
                + d.info().command().orElse("?")));
        System.out.println("ready " + self);
        System.out.flush();
        Thread.sleep(120_000);
    }
}
