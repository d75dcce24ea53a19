package dev.accelbridge.core;

/**
 * A browser a run asks for: a kind, at a major version or at the one this machine has ({@code --browser chromium},
 * {@code --browser chromium-shell@141}). The headless shell of any major is fetched from the npm registry at first use;
 * another kind runs only at the version installed, which a major given here must match.
 *
 * @param kind  the browser
 * @param major its release ({@link BrowserKind#release}: the major version {@code 141}; WebKitGTK's {@code 2.50}), or null for
 *              the one installed (the pinned shell for {@code chromium-shell})
 */
public record BrowserSpec(BrowserKind kind, String major) {
    public BrowserSpec {
        java.util.Objects.requireNonNull(kind, "kind");
        if (major != null && !kind.isRelease(major)) {
            throw new AccelbridgeException("A browser's version is its release: its major version (chromium-shell@141), WebKitGTK's "
                    + "major.minor (webkit@2.50); got " + Untrusted.quote(major), "give NAME@RELEASE, e.g. " + kind.id()
                    + (kind == BrowserKind.WEBKIT ? "@2.50" : "@141"));
        }
    }

    /** The browser at the version installed. */
    public static BrowserSpec of(BrowserKind kind) {
        return new BrowserSpec(kind, null);
    }

    /**
     * Reads {@code NAME} or {@code NAME@MAJOR} ({@code chromium-shell@141}).
     *
     * @throws AccelbridgeException naming the browsers Accelbridge launches, or the version's form
     */
    public static BrowserSpec parse(String text) {
        String t = text == null ? "" : text.trim();
        int at = t.indexOf('@');
        return at < 0 ? of(BrowserKind.parse(t)) : new BrowserSpec(BrowserKind.parse(t.substring(0, at)), t.substring(at + 1).trim());
    }

    /**
     * The lane this browser opens, at its major when one is given (else filled in when it launches): the major is the
     * version of the axis whose option is the browser's own ({@code --browser chromium-shell@141}).
     */
    public LaneId lane() {
        LaneId l = LaneId.of(kind);
        return major == null ? l : VersionAxes.withinBrowser().map(a -> l.with(a, major)).orElse(l);
    }

    /** The browser of {@code lane}, at the major of the axis written within the browser's option, if it has one. */
    public static BrowserSpec of(LaneId lane) {
        return new BrowserSpec(lane.browser(), VersionAxes.withinBrowser().map(lane::version).orElse(null));
    }

    /** {@code chromium-shell@141}, or {@code chromium}. */
    public String id() {
        return major == null ? kind.id() : kind.id() + "@" + major;
    }

    @Override
    public String toString() {
        return id();
    }
}
