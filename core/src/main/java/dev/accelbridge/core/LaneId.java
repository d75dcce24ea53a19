package dev.accelbridge.core;

import java.util.regex.Pattern;

/**
 * Where a case executes, as a dimension of the matrix: natively in a process with one ONNX Runtime, or in a typed browser
 * of one major version with one onnxruntime-web. The versions are part of the identity ("which upgrade broke
 * my model"), so a browser or runtime upgrade starts new cells, and a comparison by version pairs them cell by cell. The
 * browser's full build ({@code 156.0.8078.73}) stays provenance: a patch release does not cut a cell's history.
 *
 * <p>Each part is one dimension of its own ({@link Dimensions#LANE}, {@link Dimensions#BROWSER_MAJOR},
 * {@link Dimensions#ORT_WEB_VERSION}, {@link Dimensions#ORT_VERSION}); a version Accelbridge does not know (a record from
 * before versions were dimensions that its provenance could not name) is null.
 *
 * @param browser        the browser, or null for the native lane
 * @param browserMajor   the browser's major version ({@code 153}), or null natively or when unknown
 * @param runtimeVersion the runtime that ran the case: onnxruntime-web's version in a browser, ONNX Runtime's natively;
 *                       null when unknown
 */
public record LaneId(BrowserKind browser, String browserMajor, String runtimeVersion) {
    /** The native lane, its ONNX Runtime version unknown: what a record without one reads as. */
    public static final LaneId NATIVE = new LaneId(null, null, null);

    /** What a version may look like: {@code 1.22.0}, {@code 1.22.0-dev.20250409-89f8206ba4}, {@code 153}. */
    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z.+_-]{0,79}");

    public LaneId {
        if (browser == null && browserMajor != null) {
            throw new AccelbridgeException("The native lane has no browser version, got " + Untrusted.quote(browserMajor), "give a browser with its version");
        }
        checkVersion("browser version", browserMajor);
        checkVersion(browser == null ? "ONNX Runtime version" : "onnxruntime-web version", runtimeVersion);
        if (browserMajor != null && !browserMajor.chars().allMatch(Character::isDigit)) {
            throw new AccelbridgeException("A browser's version in a lane is its major version (153), got " + Untrusted.quote(browserMajor),
                    "give the major version, e.g. chromium-shell@153");
        }
    }

    /** The lane of one browser, its versions not known yet. */
    public static LaneId of(BrowserKind browser) {
        return browser == null ? NATIVE : new LaneId(browser, null, null);
    }

    /** The native lane with ONNX Runtime {@code ortVersion}. */
    public static LaneId nativeAt(String ortVersion) {
        return new LaneId(null, null, ortVersion);
    }

    /** True for the native lane. */
    public boolean isNative() {
        return browser == null;
    }

    /** {@code native} or the browser id ({@code chromium}): the {@link Dimensions#LANE} dimension's value. */
    public String id() {
        return browser == null ? "native" : browser.id();
    }

    /** onnxruntime-web's version in a browser lane, null natively. */
    public String ortWebVersion() {
        return browser == null ? null : runtimeVersion;
    }

    /** ONNX Runtime's version in the native lane, null in a browser. */
    public String ortVersion() {
        return browser == null ? runtimeVersion : null;
    }

    /** The same lane with browser major {@code major} (null: unknown). */
    public LaneId withBrowserMajor(String major) {
        return new LaneId(browser, browser == null ? null : major, runtimeVersion);
    }

    /** The same lane with runtime version {@code v} (null: unknown). */
    public LaneId withRuntime(String v) {
        return new LaneId(browser, browserMajor, v);
    }

    /**
     * The lane with every version: {@code chromium-shell@153+ort-web@1.22.0}, {@code native+ort@1.29.0}; a version not
     * known is left out ({@code chromium}). Unique per lane, readable, what a case's key and labels use.
     */
    public String key() {
        StringBuilder s = new StringBuilder(id());
        if (browserMajor != null) {
            s.append('@').append(browserMajor);
        }
        if (runtimeVersion != null) {
            s.append(browser == null ? "+ort@" : "+ort-web@").append(runtimeVersion);
        }
        return s.toString();
    }

    /**
     * The {@code accelbridge run} options that run this lane again ({@code --browser chromium-shell@153 --ort-web 1.22.0},
     * {@code --ort 1.19.0}; "" for the native lane at an unknown version), the options its dimensions declare.
     */
    public String runOptions() {
        return runOptions(java.util.List.of(this));
    }

    /**
     * The {@code accelbridge run} options that run all of {@code lanes} in one run ({@code --browser chromium-shell@141,
     * chromium-shell@153 --ort-web 1.17.0,1.18.0}; a run sweeps each option's values against the others').
     */
    public static String runOptions(java.util.List<LaneId> lanes) {
        java.util.function.Function<java.util.function.Function<LaneId, String>, String> values = f -> lanes.stream().map(f)
                .filter(java.util.Objects::nonNull).distinct().collect(java.util.stream.Collectors.joining(","));
        String browsers = values.apply(l -> l.browser == null ? null : l.id() + (l.browserMajor == null ? "" : "@" + l.browserMajor));
        String ortWeb = values.apply(LaneId::ortWebVersion);
        String ort = values.apply(LaneId::ortVersion);
        return java.util.stream.Stream.of(browsers.isEmpty() ? null : Dimensions.LANE.flag() + " " + browsers,
                        ortWeb.isEmpty() ? null : Dimensions.ORT_WEB_VERSION.flag() + " " + ortWeb,
                        ort.isEmpty() ? null : Dimensions.ORT_VERSION.flag() + " " + ort)
                .filter(java.util.Objects::nonNull).collect(java.util.stream.Collectors.joining(" "));
    }

    /**
     * True when {@code other} is this lane or one of its versions: a lane whose versions are not given (null) stands for
     * every version of its browser ({@code LaneId.of(CHROMIUM)} covers {@code chromium@156+ort-web@1.30.0}).
     */
    public boolean covers(LaneId other) {
        return java.util.Objects.equals(browser, other.browser)
                && (browserMajor == null || browserMajor.equals(other.browserMajor))
                && (runtimeVersion == null || runtimeVersion.equals(other.runtimeVersion));
    }

    /** Reads {@link #id()}; null, empty and {@code native} are the native lane. The versions are read by their own dimensions. */
    public static LaneId parse(String id) {
        if (id == null || id.isBlank() || id.equals("native")) {
            return NATIVE;
        }
        return of(BrowserKind.fromName(id));
    }

    /** The major version of a dotted version ({@code 156} of {@code 156.0.8078.73}, {@code 153} of {@code 153.7.0esr}), or null. */
    public static String majorOf(String version) {
        if (version == null) {
            return null;
        }
        int i = 0;
        while (i < version.length() && Character.isDigit(version.charAt(i))) {
            i++;
        }
        return i == 0 ? null : version.substring(0, i);
    }

    private static void checkVersion(String what, String v) {
        if (v != null && !VERSION.matcher(v).matches()) {
            throw new AccelbridgeException("The " + what + " " + Untrusted.quote(v) + " is not a version", "give a version such as 1.22.0");
        }
    }

    @Override
    public String toString() {
        return key();
    }
}
