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
        BrowserHandle h = BrowserLaunchers.launch(LaunchOptions.builder().browser(BrowserKind.WEBKIT).driver(DriverKind.SELENIUM).build(),
                java.net.URI.create("about:blank"));
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
