package dev.accelbridge.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The version axes on the class path, found once by {@link ServiceLoader} and kept in {@link VersionAxis#order()}. What
 * iterates a lane's versions (its key, the dimensions, the store, the report, the bisection) asks here instead of naming
 * an axis.
 */
@PublicApi
public final class VersionAxes {
    private static volatile List<VersionAxis> all;

    private VersionAxes() {
    }

    /** Every axis, in order. */
    public static List<VersionAxis> all() {
        List<VersionAxis> a = all;
        if (a == null) {
            synchronized (VersionAxes.class) {
                if (all == null) {
                    all = load(ServiceLoader.load(VersionAxis.class, VersionAxes.class.getClassLoader()));
                }
                a = all;
            }
        }
        return a;
    }

    /** The axis called {@code name} (its name, or an alias of its dimension: {@code ort-web}). */
    public static Optional<VersionAxis> named(String name) {
        return all().stream().filter(x -> x.dimension().isCalled(name)).findFirst();
    }

    /** The axis whose {@code run} option is {@code flag} ({@code --ort-web}). */
    public static Optional<VersionAxis> byFlag(String flag) {
        return all().stream().filter(x -> flag.equals(x.dimension().flag())).findFirst();
    }

    /** The axis written within the browser's option ({@code --browser chromium-shell@141}): a browser's major. */
    public static Optional<VersionAxis> withinBrowser() {
        return all().stream().filter(VersionAxis::withinBrowser).findFirst();
    }

    /** {@code runtimeVersions} with the lane's own version of each axis that records one ({@link VersionAxis#recordedAs}). */
    public static Map<String, String> recorded(Map<String, String> runtimeVersions, LaneId lane) {
        Map<String, String> out = new LinkedHashMap<>(runtimeVersions);
        for (VersionAxis a : all()) {
            String v = lane.version(a.name());
            if (v != null && a.recordedAs() != null) {
                out.put(a.recordedAs(), v);
            }
        }
        return out;
    }

    /** The axes' dimensions, in order. */
    public static List<Dimension<String>> dimensions() {
        return all().stream().map(VersionAxis::dimension).toList();
    }

    /**
     * Orders and checks what was found: two axes may not share a name or a column.
     *
     * @throws AccelbridgeException naming the axes that collide
     */
    static List<VersionAxis> load(Iterable<VersionAxis> found) {
        List<VersionAxis> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (VersionAxis x : found) {
            if (!names.add(x.name()) || !names.add("column:" + x.dimension().column())) {
                throw new AccelbridgeException("Two version axes are called " + x.name() + " (" + x.getClass().getName() + ")",
                        "give each axis its own name and column");
            }
            out.add(x);
        }
        out.sort(Comparator.comparingInt(VersionAxis::order).thenComparing(VersionAxis::name));
        return List.copyOf(out);
    }
}
