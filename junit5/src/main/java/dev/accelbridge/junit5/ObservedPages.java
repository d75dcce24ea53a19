package dev.accelbridge.junit5;

import com.microsoft.playwright.Page;
import dev.accelbridge.api.Accelbridge;
import dev.accelbridge.api.ObservedPage;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.PlaywrightVisit;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.browser.observe.ObserverBrowser;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test's observed page: a headless Chromium of its own and one Playwright {@link Page} with the observer in it, the
 * {@link ObservedPage} of the same page beside it, both the parameters of one test method and closed after it.
 */
final class ObservedPages {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ObservedPages.class);

    /** What a test method holds: closed by JUnit when the method's context ends. */
    record Held(PlaywrightVisit browser, Page page, ObservedPage observed) implements AutoCloseable {
        @Override
        public void close() {
            try {
                observed.close();
            } finally {
                browser.close();
            }
        }
    }

    private ObservedPages() {
    }

    static Held of(ExtensionContext context) {
        return context.getStore(NS).computeIfAbsent("page", k -> open(), Held.class);
    }

    private static Held open() {
        BrowserDiscovery.find(BrowserKind.CHROMIUM).orElseThrow(() -> new AccelbridgeException(
                "No Chromium is installed for an observed page", "install it (./setup.sh does)"));
        PlaywrightVisit browser = PlaywrightVisit.open(ObserverBrowser.options(BrowserKind.CHROMIUM, WebGpuAdapter.AUTO));
        try {
            Page page = browser.page();
            return new Held(browser, page, Accelbridge.observe(page));
        } catch (RuntimeException e) {
            browser.close();
            throw e;
        }
    }
}
