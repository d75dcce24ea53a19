package dev.accelbridge.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where a case executes, as a dimension of the matrix: natively, or in a typed browser, each at the versions of its
 * {@link VersionAxis version axes} (the browser's major, onnxruntime-web's; ONNX Runtime's natively). The versions are part
 * of the identity ("which upgrade broke my model"), so an upgrade starts new cells, and a comparison by version pairs them
 * cell by cell. The browser's full build ({@code 156.0.8078.73}) stays provenance: a patch release does not cut a cell's
 * history.
 *
 * <p>The lane is its own dimension ({@link Dimensions#LANE}) and each axis one of its own; a version not known (a record
 * from before versions were dimensions that its provenance could not name) is absent.
 *
 * @param browser  the browser, or null for the native lane
 * @param versions each known version by its axis's {@linkplain VersionAxis#name() name}; never holds a null
 */
public record LaneId(BrowserKind browser, Map<String, String> versions) {
    /** The native lane, its versions unknown: what a record without one reads as. */
    public static final LaneId NATIVE = new LaneId(null, Map.of());

    /** What a version may look like: {@code 1.22.0}, {@code 1.22.0-dev.20250409-89f8206ba4}, {@code 153}. */
    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z.+_-]{0,79}");

    /** @throws AccelbridgeException naming a version that is not one, or one of an axis the other side carries */
    public LaneId {
        Map<String, String> v = new TreeMap<>();
        if (versions != null) {
            versions.forEach((axis, value) -> {
                if (value != null) {
                    v.put(axis, value);
                }
            });
        }
        for (Map.Entry<String, String> e : v.entrySet()) {
            Optional<VersionAxis> axis = VersionAxes.named(e.getKey());
            String what = axis.map(VersionAxis::subject).orElse(e.getKey());
            if (!VERSION.matcher(e.getValue()).matches()) {
                throw new AccelbridgeException("The " + what + " version " + Untrusted.quote(e.getValue()) + " is not a version",
                        "give a version such as 1.22.0");
            }
            if (axis.isPresent()) {
                if (axis.get().side() != sideOf(browser)) {
                    throw new AccelbridgeException((browser == null ? "The native lane" : "A browser lane") + " has no " + what + " version, got "
                            + Untrusted.quote(e.getValue()), browser == null ? "give a browser with its version" : "give it to the native lane");
                }
                axis.get().check(e.getValue());
            }
        }
        versions = Collections.unmodifiableMap(v);
    }

    /** A lane on {@code side}, what a version of that side's axes is checked on (Chromium for the browser side). */
    public static LaneId anyOn(LaneSide side) {
        return switch (side) {
            case NATIVE -> NATIVE;
            case BROWSER -> of(BrowserKind.CHROMIUM);
        };
    }

    /** The lane of one browser, its versions not known yet. */
    public static LaneId of(BrowserKind browser) {
        return browser == null ? NATIVE : new LaneId(browser, Map.of());
    }

    /** The side this lane is on: native (no browser) or a browser's. */
    public LaneSide side() {
        return sideOf(browser);
    }

    /** The side of a lane in {@code browser} (null: natively); the constructor asks it before the field is set. */
    private static LaneSide sideOf(BrowserKind browser) {
        return browser == null ? LaneSide.NATIVE : LaneSide.BROWSER;
    }

    /** The browser's id ({@code chromium}), or null on the native side: what a result's provenance names. */
    public String browserId() {
        return browser == null ? null : browser.id();
    }

    /** {@code native} or the browser id ({@code chromium}): the {@link Dimensions#LANE} dimension's value. */
    public String id() {
        return browser == null ? "native" : browser.id();
    }

    /** The version of the axis called {@code axis}, or null when not known or not this side's. */
    public String version(String axis) {
        return versions.get(axis);
    }

    /** The version of {@code axis}, or null. */
    public String version(VersionAxis axis) {
        return versions.get(axis.name());
    }

    /**
     * The same lane at version {@code v} of {@code axis} (null: unknown).
     *
     * @throws AccelbridgeException when {@code v} is not a version of it or the axis is the other side's
     */
    public LaneId with(VersionAxis axis, String v) {
        return with(axis.name(), v);
    }

    /** The same lane at version {@code v} of the axis called {@code axis} (null: unknown). */
    public LaneId with(String axis, String v) {
        Map<String, String> m = new TreeMap<>(versions);
        m.put(axis, v);
        return new LaneId(browser, m);
    }

    /**
     * This lane with {@code planned}'s versions where it knows none: what a lane reports of itself (its browser's build,
     * the runtime its page loaded) wins, and an axis its runtime cannot report keeps the version the plan gave it.
     */
    public LaneId withVersionsOf(LaneId planned) {
        if (!Objects.equals(browser, planned.browser)) {
            return this;
        }
        Map<String, String> m = new TreeMap<>(planned.versions);
        m.putAll(versions);
        return new LaneId(browser, m);
    }

    /**
     * The versions outside the browser (the runtime's release and engine; an axis not on this class path included): what
     * two builds of one browser engine share when they run the same work.
     */
    public Map<String, String> outsideBrowser() {
        Map<String, String> out = new TreeMap<>();
        versions.forEach((axis, v) -> {
            if (VersionAxes.named(axis).map(a -> !a.withinBrowser()).orElse(true)) {
                out.put(axis, v);
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /** The same lane without a version of {@code axis}: what two lanes compared by that axis must share. */
    public LaneId without(VersionAxis axis) {
        return with(axis.name(), null);
    }

    /**
     * The lane with every version: {@code chromium-shell@153+ort-web@1.22.0}, {@code native+ort@1.29.0}; a version not
     * known is left out ({@code chromium}). Unique per lane, readable, what a case's key and labels use.
     */
    public String key() {
        StringBuilder s = new StringBuilder(id());
        for (Map.Entry<String, String> e : ordered().entrySet()) {
            s.append(VersionAxes.named(e.getKey()).map(a -> a.keyPart(e.getValue())).orElse("+" + e.getKey() + "@" + e.getValue()));
        }
        return s.toString();
    }

    /** The versions in axis order, then those of axes not on this class path by name. */
    public Map<String, String> ordered() {
        Map<String, String> out = new LinkedHashMap<>();
        VersionAxes.all().forEach(a -> {
            if (versions.containsKey(a.name())) {
                out.put(a.name(), versions.get(a.name()));
            }
        });
        versions.forEach(out::putIfAbsent);
        return out;
    }

    /**
     * The {@code accelbridge run} options that run this lane again ({@code --browser chromium-shell@153 --ort-web 1.22.0},
     * {@code --ort 1.19.0}; "" for the native lane at an unknown version), the options its dimensions declare.
     */
    public String runOptions() {
        return runOptions(List.of(this));
    }

    /**
     * The {@code accelbridge run} options that run all of {@code lanes} in one run ({@code --browser chromium-shell@141,
     * chromium-shell@153 --ort-web 1.17.0,1.18.0}; a run sweeps each option's values against the others'). An axis whose
     * flag is the browser's is written within it ({@code chromium-shell@141}); one without a flag of its own is
     * {@code --versions NAME=LIST}.
     */
    public static String runOptions(List<LaneId> lanes) {
        String browsers = lanes.stream().filter(l -> l.side() == LaneSide.BROWSER).map(l -> l.id() + VersionAxes.all().stream()
                        .filter(a -> a.withinBrowser() && l.version(a) != null)
                        .map(a -> a.keyPart(l.version(a))).collect(Collectors.joining())).distinct().collect(Collectors.joining(","));
        List<String> out = new ArrayList<>();
        if (!browsers.isEmpty()) {
            out.add(Dimensions.LANE.flag() + " " + browsers);
        }
        for (VersionAxis a : VersionAxes.all()) {
            if (a.withinBrowser()) {
                continue;
            }
            String values = lanes.stream().map(l -> l.version(a)).filter(Objects::nonNull).distinct().collect(Collectors.joining(","));
            if (!values.isEmpty()) {
                out.add(a.dimension().flag() == null ? "--versions " + a.name() + "=" + values : a.dimension().flag() + " " + values);
            }
        }
        return String.join(" ", out);
    }

    /**
     * True when {@code other} is this lane or one of its versions: a lane whose versions are not given stands for every
     * version of its browser ({@code LaneId.of(CHROMIUM)} covers {@code chromium@156+ort-web@1.30.0}).
     */
    public boolean covers(LaneId other) {
        return Objects.equals(browser, other.browser)
                && versions.entrySet().stream().allMatch(e -> e.getValue().equals(other.versions.get(e.getKey())));
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

    /**
     * Every lane of {@code bases} at each combination of {@code sweep}'s versions (axis name → versions; none given: the lane
     * as it is); an axis of the other side leaves a lane as it is.
     */
    public static List<LaneId> product(List<LaneId> bases, Map<String, List<String>> sweep) {
        List<LaneId> out = new ArrayList<>(bases);
        for (Map.Entry<String, List<String>> e : sweep.entrySet()) {
            if (e.getValue() == null || e.getValue().isEmpty()) {
                continue;
            }
            Optional<VersionAxis> axis = VersionAxes.named(e.getKey());
            out = out.stream().flatMap(l -> axis.isPresent() && axis.get().side() != l.side() ? Stream.of(l)
                    : e.getValue().stream().map(v -> axis.map(a -> a.take(l, v)).orElseGet(() -> l.with(e.getKey(), v)))).toList();
        }
        return out;
    }

    @Override
    public String toString() {
        return key();
    }
}
