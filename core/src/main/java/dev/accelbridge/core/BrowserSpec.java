package dev.accelbridge.core;

/**
 * A browser a run asks for: a kind, at a major version or at the one this machine has ({@code --browser chromium},
 * {@code --browser chromium-shell@141}). The headless shell of any major is fetched from the npm registry at first use;
 * another kind runs only at the version installed, which a major given here must match.
 *
 * @param kind  the browser
 * @param major its major version ({@code 141}), or null for the one installed (the pinned shell for {@code chromium-shell})
 */
public record BrowserSpec(BrowserKind kind, String major) {
    public BrowserSpec {
        java.util.Objects.requireNonNull(kind, "kind");
        if (major != null && (major.isEmpty() || major.length() > 6 || !major.chars().allMatch(Character::isDigit))) {
            throw new AccelbridgeException("A browser's version is its major version, e.g. chromium-shell@141, got '" + major + "'",
                    "give NAME@MAJOR with a whole number");
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

    /** The lane this browser opens with onnxruntime-web {@code ortWebVersion} (its major filled in when it launches). */
    public LaneId lane(String ortWebVersion) {
        return new LaneId(kind, major, ortWebVersion);
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
