package dev.accelbridge.bridge.bisect;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.LaneId;

import java.util.ArrayList;
import java.util.List;

/**
 * What a version bisection is asked: the axis and its two ends, and where the other parts of the lane stay (the browser of
 * an onnxruntime-web bisection, the onnxruntime-web of a browser bisection).
 *
 * @param axis    what is bisected
 * @param good    the end whose verdict the others are judged against
 * @param bad     the other end
 * @param browser the browser the cases run in (a browser bisection: the headless shell, its major walked)
 * @param ortWeb  onnxruntime-web's version when it is not what is bisected (null: the pinned one)
 */
public record VersionRange(VersionAxis axis, String good, String bad, BrowserSpec browser, String ortWeb) {
    /**
     * Reads {@code --ort-web}, {@code --browser} and {@code --ort} as given (a range is {@code GOOD..BAD}; the browser's
     * is {@code chromium-shell@GOOD..BAD}) for {@code backend}.
     *
     * @throws AccelbridgeException unless exactly one is a range, and the backend and browser can run under it
     */
    public static VersionRange parse(String ortWebArg, String browserArg, String ortArg, BackendId backend) {
        String browserName = browserArg != null && browserArg.contains("@") ? browserArg.substring(0, browserArg.indexOf('@')) : browserArg;
        String[] byOrtWeb = ends(ortWebArg);
        String[] byBrowser = browserArg != null && browserArg.contains("@") ? ends(browserArg.substring(browserArg.indexOf('@') + 1)) : null;
        String[] byOrt = ends(ortArg);
        List<String[]> given = new ArrayList<>();
        for (String[] r : new String[][]{byOrtWeb, byBrowser, byOrt}) {
            if (r != null) {
                given.add(r);
            }
        }
        if (given.size() != 1) {
            throw new AccelbridgeException("Give exactly one range to bisect, got " + given.size(),
                    "e.g. --ort-web 1.17.0..1.30.0, --browser chromium-shell@141..153 or --ort 1.20.0..1.29.0");
        }
        VersionAxis axis = byOrtWeb != null ? VersionAxis.ORT_WEB : byBrowser != null ? VersionAxis.BROWSER : VersionAxis.ORT;
        if (axis == VersionAxis.ORT == backend.isBrowser()) {
            throw new AccelbridgeException("--backend " + backend + " does not run under " + axis.label(),
                    axis == VersionAxis.ORT ? "bisect --ort with a native backend (cpu)" : "bisect a browser backend (wasm, webgpu, webnn-*)");
        }
        BrowserKind kind = browserName != null ? BrowserKind.parse(browserName) : backend.isWebnn() ? BrowserKind.CHROMIUM_SHELL : BrowserKind.CHROMIUM;
        if (axis == VersionAxis.BROWSER && kind != BrowserKind.CHROMIUM_SHELL) {
            throw new AccelbridgeException("Only the headless shell comes at any Chromium major, not " + kind,
                    "bisect --browser chromium-shell@GOOD..BAD");
        }
        String ortWeb = axis == VersionAxis.ORT_WEB || ortWebArg == null ? null : LaneId.of(kind).withRuntime(ortWebArg.trim()).runtimeVersion();
        BrowserSpec browser = axis == VersionAxis.BROWSER || browserArg == null ? BrowserSpec.of(kind) : BrowserSpec.parse(browserArg);
        String[] ends = given.get(0);
        for (String end : ends) {
            axis.check(end); // before any registry is asked: a bad end is named with its option
        }
        return new VersionRange(axis, ends[0], ends[1], browser, ortWeb);
    }

    /** {@code GOOD..BAD} as its two ends, or null when it is not a range. */
    private static String[] ends(String text) {
        int i = text == null ? -1 : text.indexOf("..");
        return i < 0 ? null : new String[]{text.substring(0, i).trim(), text.substring(i + 2).trim()};
    }

    /** {@code onnxruntime-web 1.17.0..1.30.0}. */
    @Override
    public String toString() {
        return axis.label() + " " + good + ".." + bad;
    }
}
