package dev.accelbridge.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The browsers of a lane, by their command-line id. The first six can be launched by Accelbridge; {@link #SAFARI}
 * and {@link #OTHER} only name pages that joined by hand (from their user agent).
 */
public enum BrowserKind {
    /** Debian's / the distribution's Chromium ({@code /usr/bin/chromium}). */
    CHROMIUM("chromium", true),
    /** The Chromium headless shell from the npm package {@code @sparticuz/chromium} (has a WebNN backend). */
    CHROMIUM_SHELL("chromium-shell", true),
    /** Google Chrome. */
    CHROME("chrome", true),
    /** Firefox (ESR), launched as a plain process. */
    FIREFOX("firefox", true),
    /** Microsoft Edge. */
    EDGE("edge", true),
    /**
     * WebKitGTK's MiniBrowser, driven by WebKitGTK's own WebDriver ({@code WebKitWebDriver}) through Selenium: Safari's
     * engine (WebKit, JavaScriptCore) on Linux.
     */
    WEBKIT("webkit", true),
    /** Safari: only as a page that joined by hand. */
    SAFARI("safari", false),
    /** A browser whose user agent Accelbridge does not recognise (a page that joined by hand). */
    OTHER("other", false);

    private final String id;
    private final boolean launchable;

    BrowserKind(String id, boolean launchable) {
        this.id = id;
        this.launchable = launchable;
    }

    /** The command-line id. */
    public String id() {
        return id;
    }

    /** Whether {@code v} is written as one of this browser's releases ({@link #release}'s form: {@code 141}; {@code 2.50}). */
    public boolean isRelease(String v) {
        return v != null && v.matches(this == WEBKIT ? "\\d{1,3}\\.\\d{1,4}" : "\\d{1,6}");
    }

    /** True for the Chromium builds (Blink and V8: they take Chromium's flags). */
    public boolean chromium() {
        return this == CHROMIUM || this == CHROMIUM_SHELL || this == CHROME || this == EDGE;
    }

    /** True when Accelbridge can start this browser itself. */
    public boolean launchable() {
        return launchable;
    }

    /**
     * The part of a version that names a release of this browser, as a lane's browser version: the major for Chromium
     * and Firefox ({@code 156} of {@code 156.0.8078.79}); major and minor for WebKitGTK, whose releases all share the major
     * 2 ({@code 2.50} of {@code 2.50.6}); null when the version is.
     */
    public String release(String version) {
        String major = LaneId.majorOf(version);
        if (this != WEBKIT || major == null) {
            return major;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+\\.\\d+)").matcher(version);
        return m.find() ? m.group(1) : major;
    }

    /**
     * Parses a command-line id of a browser Accelbridge can launch.
     *
     * @throws AccelbridgeException naming the valid ids
     */
    public static BrowserKind parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (BrowserKind k : values()) {
            if (k.launchable && k.id.equals(t)) {
                return k;
            }
        }
        throw new AccelbridgeException("Unknown browser '" + text + "'", "use one of: " + validIds());
    }

    /** The browser a stored or user-agent name stands for; {@link #OTHER} when it is none of ours. */
    public static BrowserKind fromName(String name) {
        String t = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        if (t.equals("chrome-headless") || t.equals("headlesschrome")) {
            return CHROME;
        }
        for (BrowserKind k : values()) {
            if (k.id.equals(t)) {
                return k;
            }
        }
        return OTHER;
    }

    /** The launchable ids, comma-separated, for help and error messages. */
    public static String validIds() {
        return Arrays.stream(values()).filter(k -> k.launchable).map(BrowserKind::id).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id;
    }
}
