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
 * Observes the onnxruntime-web sessions of a Playwright page the caller drives: {@link #install} adds the observer
 * script ({@code observer.js}) to the page before its scripts run, {@link #read} returns what it saw. Install before the
 * page navigates: a page already loaded is observed from its next navigation on. What the page says comes back as data
 * only, bounded in the page ({@link Observed}) and here (at most {@link #MAX_REPORT} characters of report).
 */
@dev.accelbridge.core.PublicApi
public final class PageObserver {
    /** The largest report read back from a page. */
    public static final int MAX_REPORT = 64 << 20;
    private static final String KEY = "globalThis[Symbol.for('accelbridge.observer')]";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCRIPT = script();

    private final Page page;

    private PageObserver(Page page) {
        this.page = page;
    }

    /** Installs the observer into {@code page}, for every document it loads from now on. */
    public static PageObserver install(Page page) {
        page.addInitScript(SCRIPT);
        return new PageObserver(page);
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
        Object r = page.evaluate("async () => { const o = " + KEY + "; return o ? JSON.stringify(await o.report()) : null; }");
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
        Object r = page.evaluate("id => { const o = " + KEY + "; return o ? o.model(id) : null; }", s.id());
        return r instanceof String b64 ? Optional.of(Base64.getDecoder().decode(b64)) : Optional.empty();
    }
}
