package dev.accelbridge.browser.launch;

import dev.accelbridge.core.AccelbridgeException;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The browsers Accelbridge can launch, by their command-line id. */
public enum BrowserKind {
    /** Debian's / the distribution's Chromium ({@code /usr/bin/chromium}). */
    CHROMIUM("chromium"),
    /** The Chromium headless shell from the npm package {@code @sparticuz/chromium} (has a WebNN backend). */
    CHROMIUM_SHELL("chromium-shell"),
    /** Google Chrome. */
    CHROME("chrome"),
    /** Firefox (ESR), launched as a plain process. */
    FIREFOX("firefox"),
    /** Microsoft Edge. */
    EDGE("edge");

    private final String id;

    BrowserKind(String id) {
        this.id = id;
    }

    /** The command-line id. */
    public String id() {
        return id;
    }

    /** Parses a command-line id. */
    public static BrowserKind parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (BrowserKind k : values()) {
            if (k.id.equals(t)) {
                return k;
            }
        }
        throw new AccelbridgeException("Unknown browser '" + text + "'", "use one of: "
                + Arrays.stream(values()).map(BrowserKind::id).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return id;
    }
}
