package dev.accelbridge.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One version a lane runs at, declared once: the headless shell's Chromium major and onnxruntime-web (browser-runtime),
 * ONNX Runtime natively (native-runner). Found by {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.accelbridge.core.VersionAxis}) and listed by {@link VersionAxes}. A lane carries its
 * versions as values keyed by the axis's {@link #name()}; its dimension, its store column, its JSON field, its
 * {@code compare --by} value, the report's version section and {@code bisect-versions} follow from this declaration.
 */
@PublicApi
public interface VersionAxis {
    /**
     * The dimension its versions are: the name ({@code ortWebVersion}) keys a lane's versions, the JSON field and the
     * filter; the column holds it in the store; the flag ({@code --ort-web}) is the {@code run} option that sweeps it (null
     * when only {@code run --versions NAME=LIST} does). Built with {@link Dimension#version}.
     */
    Dimension<String> dimension();

    /** The axis's one name, its dimension's ({@code ortWebVersion}). */
    default String name() {
        return dimension().name();
    }

    /** What its versions are versions of, for a person ({@code onnxruntime-web}). */
    String subject();

    /**
     * The name its version is recorded under among a run's and a case's runtime versions ({@code onnxruntime-web}), or null
     * when those do not record it (a browser's major is its build, recorded as the browser's version).
     */
    default String recordedAs() {
        return null;
    }

    /**
     * The version every record of its side stored before this axis existed ran at, when that is known (onnxruntime-web's
     * engine: JSEP, the only one Accelbridge loaded then): a store gaining the axis's column fills it in once; null
     * (the default) leaves those records' version unknown.
     */
    default String olderRecordsTake() {
        return null;
    }

    /** The side whose lanes carry it. */
    LaneSide side();

    /** Its place among the axes, lowest first: the order of a lane's key and of the report's versions. */
    int order();

    /** Its short name, the first alias of its dimension ({@code ort-web}), else its name: what a lane's key and a column say. */
    default String shortName() {
        return dimension().aliases().isEmpty() ? name() : dimension().aliases().get(0);
    }

    /** The part of a lane's key that names version {@code v} ({@code +ort-web@1.22.0}). */
    default String keyPart(String v) {
        return "+" + shortName() + "@" + v;
    }

    /**
     * True when its option is the browser's own: its versions are written within it ({@code --browser chromium-shell@141})
     * and are a browser's, not swept apart from it.
     */
    default boolean withinBrowser() {
        return Dimensions.LANE.flag().equals(dimension().flag());
    }

    /**
     * Checks that {@code v} can be a version of this axis (after the lane's own check of what a version looks like).
     *
     * @throws AccelbridgeException naming what is wrong and the fix
     */
    default void check(String v) {
    }

    /**
     * The lane {@code lane} at version {@code v} of this axis: how a sweep or a bisection step takes a version. By default
     * the same lane with that version; an axis that only some browsers come at may change the browser or refuse.
     *
     * @throws AccelbridgeException when the lane cannot run at another version of this axis
     */
    default LaneId take(LaneId lane, String v) {
        return lane.with(this, v);
    }

    /** The version a lane runs at when a plan names none, or null when the lane finds it out when it opens. */
    default String pinned() {
        return null;
    }

    /**
     * A version lanes run at when a plan names none of this axis, and the backends they run there.
     *
     * @param version  the version
     * @param backends the backends lanes at it run, of those requested; empty: every one
     */
    record Default(String version, Set<BackendId> backends) {
        public Default {
            backends = Set.copyOf(backends);
        }

        /** {@code version} for every backend. */
        public static Default every(String version) {
            return new Default(version, Set.of());
        }

        /** Whether lanes at it run {@code backend}. */
        public boolean runs(BackendId backend) {
            return backends.isEmpty() || backends.contains(backend);
        }
    }

    /**
     * The versions lanes run at when a plan names none of this axis: the {@link #pinned()} one for every backend, or
     * none when there is no pinned one (the lane finds its version out). An axis may add versions for some backends only
     * (onnxruntime-web's native WebGPU EP beside JSEP, for WebGPU).
     */
    default List<Default> defaults() {
        return pinned() == null ? List.of() : List.of(Default.every(pinned()));
    }

    /**
     * Every version published, oldest first (what a version bisection walks).
     *
     * @throws AccelbridgeException when the registry cannot be asked
     */
    List<String> published();

    /** The versions this machine has without fetching (the build's, the cache's, the pinned ones), oldest first. */
    List<String> atHand();

    /** True when every published version counts as a release (a browser's majors); else pre-releases are left out unless asked. */
    default boolean onlyReleases() {
        return false;
    }

    /**
     * Which of {@code versions} can be had here, asked once for them all before anything runs: version → null when it can,
     * else why not (a repository can list a version whose files it does not serve). By default every version can.
     */
    default Map<String, String> obtainable(List<String> versions) {
        Map<String, String> out = new LinkedHashMap<>();
        versions.forEach(v -> out.put(v, null));
        return out;
    }
}
