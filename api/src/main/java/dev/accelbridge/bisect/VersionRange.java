package dev.accelbridge.bisect;

import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.core.VersionOrder;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a version bisection is asked: the {@link VersionAxis} and its two ends, and the lane the cases run in, whose other
 * versions stay where they are (the browser of an onnxruntime-web bisection, the onnxruntime-web of a browser one).
 *
 * @param axis what is bisected
 * @param good the end whose verdict the others are judged against
 * @param bad  the other end
 * @param lane the lane every step runs in, at the bisected axis's version of the step ({@link #at})
 */
@PublicApi
public record VersionRange(VersionAxis axis, String good, String bad, LaneId lane) {
    /**
     * Reads the options as given: {@code byAxis} maps an axis's option ({@code --ort-web}) or name ({@code ortWebVersion})
     * to a range {@code GOOD..BAD} or, for an axis not bisected, the one version it stays at; a browser's major range is
     * in {@code browserArg} ({@code chromium-shell@GOOD..BAD}).
     *
     * @throws AccelbridgeException unless exactly one is a range, and the backend and browser can run under it
     */
    public static VersionRange parse(Map<String, String> byAxis, String browserArg, BackendId backend) {
        Map<VersionAxis, String> given = new LinkedHashMap<>();
        byAxis.forEach((k, text) -> {
            if (text != null) {
                VersionAxis a = VersionAxes.byFlag(k).or(() -> VersionAxes.named(k)).orElseThrow(() -> new AccelbridgeException(
                        "No version axis is called " + k, "give one of: " + VersionAxes.all().stream().map(VersionAxis::name).toList()));
                given.put(a, text.trim());
            }
        });
        String browserName = browserArg;
        if (browserArg != null && browserArg.contains("@")) {
            browserName = browserArg.substring(0, browserArg.indexOf('@'));
            VersionAxes.withinBrowser().ifPresent(a -> given.put(a, browserArg.substring(browserArg.indexOf('@') + 1).trim()));
        }
        List<VersionAxis> ranges = given.entrySet().stream().filter(e -> e.getValue().contains("..")).map(Map.Entry::getKey).toList();
        if (ranges.size() != 1) {
            throw new AccelbridgeException("Give exactly one range to bisect, got " + ranges.size(),
                    "e.g. --ort-web 1.17.0..1.30.0, --browser chromium-shell@141..153 or --ort 1.20.0..1.29.0");
        }
        VersionAxis axis = ranges.get(0);
        if (axis.side() != LaneSide.of(backend)) {
            throw new AccelbridgeException("--backend " + backend + " does not run under " + axis.subject(),
                    axis.side() == LaneSide.BROWSER ? "bisect a browser backend (wasm, webgpu, webnn-*)" : "bisect " + flag(axis) + " with a native backend (cpu)");
        }
        BrowserKind kind = browserName != null ? BrowserKind.parse(browserName) : backend.isWebnn() ? BrowserKind.CHROMIUM_SHELL : BrowserKind.CHROMIUM;
        LaneId lane = backend.isBrowser() ? LaneId.of(kind) : LaneId.NATIVE;
        for (Map.Entry<VersionAxis, String> e : given.entrySet()) {
            if (e.getKey() != axis && e.getKey().side() == LaneSide.of(backend)) {
                LaneId before = lane; // an axis not bisected stays at the version given
                lane = checked(e.getKey(), () -> before.with(e.getKey(), e.getValue()));
            }
        }
        for (VersionAxis other : LaneSide.of(backend).axes()) {
            // an axis neither bisected nor given stays at its pinned version: one lane a step (with no engine named, a plan
            // would also run WebGPU on the native EP, and the step's case would be either)
            if (other != axis && !given.containsKey(other) && !other.withinBrowser() && other.pinned() != null && lane.version(other) == null) {
                lane = lane.with(other, other.pinned());
            }
        }
        String text = given.get(axis);
        String[] ends = {text.substring(0, text.indexOf("..")).trim(), text.substring(text.indexOf("..") + 2).trim()};
        LaneId at = lane;
        for (String end : ends) {
            checked(axis, () -> axis.take(at, end)); // before any registry is asked: a bad end is named with its option
        }
        return new VersionRange(axis, ends[0], ends[1], lane);
    }

    /** The plan {@code base} at {@code version} of the axis: the lane, taken to that version. */
    public RunPlan.Builder at(RunPlan.Builder base, String version) {
        LaneId l = axis.take(lane, version);
        return base.targets(t -> t.optLane(l));
    }

    /**
     * The versions to walk from {@code good} to {@code bad} (either may be the older), both included, oldest end first: the
     * published releases ({@code includeDev}: and pre-releases), or with {@code cachedOnly} those this machine already has.
     *
     * @throws AccelbridgeException when an end is not among them, naming the nearest that are
     */
    public List<String> walk(boolean includeDev, boolean cachedOnly) {
        List<String> all = (cachedOnly ? axis.atHand() : axis.published()).stream()
                .filter(v -> includeDev || axis.onlyReleases() || VersionOrder.isRelease(v)).distinct().sorted(VersionOrder.ASCENDING).toList();
        for (String end : List.of(good, bad)) {
            if (!all.contains(end)) {
                throw new AccelbridgeException(axis.subject() + " " + end + " is not among the " + (cachedOnly ? "versions this machine has"
                        : "published " + (includeDev ? "versions" : "releases")) + " (" + nearest(all, end) + ")",
                        "give versions from that list" + (cachedOnly ? ", or drop --cached-only to fetch others" : ""));
            }
        }
        boolean forward = VersionOrder.compare(good, bad) <= 0;
        List<String> span = new ArrayList<>(VersionOrder.between(all, forward ? good : bad, forward ? bad : good));
        if (!forward) {
            Collections.reverse(span);
        }
        return span;
    }

    /** The browser every step runs in, or null natively. */
    public BrowserSpec browser() {
        return lane.browser() == null ? null : BrowserSpec.of(lane);
    }

    private static String flag(VersionAxis a) {
        return a.dimension().flag() == null ? "--axis " + a.name() + "=GOOD..BAD" : a.dimension().flag();
    }

    private static LaneId checked(VersionAxis a, Supplier<LaneId> take) {
        try {
            return take.get();
        } catch (AccelbridgeException e) {
            throw new AccelbridgeException(flag(a) + ": " + e.getMessage(), e.fix());
        }
    }

    private static String nearest(List<String> all, String v) {
        if (all.isEmpty()) {
            return "none";
        }
        String below = all.stream().filter(x -> VersionOrder.compare(x, v) < 0).reduce((a, b) -> b).orElse(null);
        String above = all.stream().filter(x -> VersionOrder.compare(x, v) > 0).findFirst().orElse(null);
        return "nearest: " + (below == null ? "" : below) + (below != null && above != null ? ", " : "") + (above == null ? "" : above)
                + "; " + all.size() + " in all, " + all.get(0) + " to " + all.get(all.size() - 1);
    }

    /** {@code onnxruntime-web 1.17.0..1.30.0}. */
    @Override
    public String toString() {
        return axis.subject() + " " + good + ".." + bad;
    }
}
