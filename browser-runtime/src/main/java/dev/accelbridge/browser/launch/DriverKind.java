package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.AccelbridgeException;

import java.util.Locale;

/** How a browser was started; results keep it as {@code driver}. */
@PublicApi
public enum DriverKind {
    /** Playwright for Java (the default). */
    PLAYWRIGHT("playwright"),
    /** Selenium WebDriver with a local ChromeDriver (WebKitGTK's own WebDriver for WebKit). */
    SELENIUM("selenium"),
    /** Selenium RemoteWebDriver against a Grid ({@code --grid URL}). */
    GRID("grid"),
    /** A plain OS process with a fresh profile (Firefox, which has no driver here). */
    PROCESS("process"),
    /** A browser a person pointed at {@code accelbridge serve}'s URL. */
    MANUAL("manual");

    private final String id;

    DriverKind(String id) {
        this.id = id;
    }

    /** The id used on the command line, in results and in a stored plan. */
    @com.fasterxml.jackson.annotation.JsonValue
    public String id() {
        return id;
    }

    /** Parses {@code playwright}, {@code selenium}, {@code grid}, {@code process}. */
    @com.fasterxml.jackson.annotation.JsonCreator
    public static DriverKind parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (DriverKind k : values()) {
            if (k.id.equals(t)) {
                return k;
            }
        }
        throw new AccelbridgeException("Unknown driver '" + text + "'", "use playwright, selenium, grid or process");
    }

    @Override
    public String toString() {
        return id;
    }
}
