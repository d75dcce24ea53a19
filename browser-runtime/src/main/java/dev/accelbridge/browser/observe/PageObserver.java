package dev.accelbridge.browser.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Page;
import dev.accelbridge.core.AccelbridgeException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Observes the onnxruntime-web sessions of a page the caller drives, a Playwright page or a Selenium WebDriver's:
 * {@link #install} adds the observer script ({@code observer.js}) to the page before its scripts run (Playwright's init
 * script; WebDriver BiDi's preload script), {@link #read} returns what it saw. Install before the page navigates: a page
 * already loaded is observed from its next navigation on. What the page says comes back as data
 * only, bounded in the page ({@link Observed}) and here (at most {@link #MAX_REPORT} characters of report).
 */
@dev.accelbridge.core.PublicApi
public final class PageObserver {
    /** The largest report read back from a page. */
    public static final int MAX_REPORT = 64 << 20;
    private static final String KEY = "globalThis[Symbol.for('accelbridge.observer')]";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCRIPT = script();

    /** How a driver runs the two questions the observer answers in the page. */
    private interface Asker {
        /** The report as JSON, or null where the page has no observer. */
        Object report();

        /** Session {@code id}'s model as base64, or null. */
        Object model(int id);
    }

    private final Asker page;

    private PageObserver(Asker page) {
        this.page = page;
    }

    /** Installs the observer into {@code page}, for every document it loads from now on. */
    public static PageObserver install(Page page) {
        page.addInitScript(SCRIPT);
        return new PageObserver(new Asker() {
            @Override
            public Object report() {
                return page.evaluate("async () => { const o = " + KEY + "; return o ? JSON.stringify(await o.report()) : null; }");
            }

            @Override
            public Object model(int id) {
                return page.evaluate("id => { const o = " + KEY + "; return o ? o.model(id) : null; }", id);
            }
        });
    }

    /**
     * Installs the observer into the pages of a Selenium {@code driver} with WebDriver BiDi ({@code webSocketUrl} asked for
     * when the session was made: {@code ChromeOptions.enableBiDi()}), as a preload script that runs before any script
     * of every document from now on.
     *
     * @throws AccelbridgeException when the driver's session has no BiDi connection
     */
    public static PageObserver install(org.openqa.selenium.WebDriver driver) {
        if (!(driver instanceof org.openqa.selenium.bidi.HasBiDi bidi) || bidi.maybeGetBiDi().isEmpty()) {
            throw new AccelbridgeException("this WebDriver session has no BiDi connection, so nothing can be put into its pages "
                    + "before their scripts", "make the session with BiDi on (ChromeOptions.enableBiDi(), FirefoxOptions.enableBiDi())");
        }
        // the preload script stays the browser's once added; the module is only the connection's listener, closed at once
        try (org.openqa.selenium.bidi.module.Script script = new org.openqa.selenium.bidi.module.Script(driver)) {
            script.addPreloadScript("() => {\n" + SCRIPT + "\n}");
        }
        org.openqa.selenium.JavascriptExecutor js = (org.openqa.selenium.JavascriptExecutor) driver;
        return new PageObserver(new Asker() {
            @Override
            public Object report() {
                return js.executeAsyncScript("const done = arguments[arguments.length - 1]; const o = " + KEY + ";"
                        + " if (!o) { done(null); } else { o.report().then(r => done(JSON.stringify(r)), () => done(null)); }");
            }

            @Override
            public Object model(int id) {
                return js.executeScript("const o = " + KEY + "; return o ? o.model(arguments[0]) : null;", id);
            }
        });
    }

    /** The observer script itself, for a driver that installs it its own way (a WebDriver BiDi preload script). */
    public static String script() {
        try (InputStream in = PageObserver.class.getResourceAsStream("observer.js")) {
            if (in == null) {
                throw new AccelbridgeException("the observer script is not on the classpath", "rebuild browser-runtime");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What the observer saw in the page's current document.
     *
     * @throws AccelbridgeException when the page has no observer (installed after it loaded) or its report is over the bound
     */
    public Observed read() {
        Object r = page.report();
        if (!(r instanceof String json)) {
            throw new AccelbridgeException("the page has no Accelbridge observer: it was loaded before the observer was installed",
                    "install the observer before the page navigates (PageObserver.install), or reload the page");
        }
        if (json.length() > MAX_REPORT) {
            throw new AccelbridgeException("the page's observer report is " + json.length() + " characters, above the bound of "
                    + MAX_REPORT, "observe fewer sessions in one document");
        }
        try {
            return JSON.readValue(json, Observed.class);
        } catch (IOException e) {
            throw new AccelbridgeException("the page's observer report could not be read: " + dev.accelbridge.core.Untrusted.bounded(
                    e.getMessage(), 300), "report it: the observer and this reader disagree");
        }
    }

    /** The bytes of session {@code s}'s model, when the observer kept them (at most 64 MiB of models a page). */
    public Optional<byte[]> model(Observed.Session s) {
        Object r = page.model(s.id());
        return r instanceof String b64 ? Optional.of(Base64.getDecoder().decode(b64)) : Optional.empty();
    }
}
