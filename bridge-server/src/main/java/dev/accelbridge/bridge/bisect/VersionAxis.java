package dev.accelbridge.bridge.bisect;

import dev.accelbridge.bridge.run.RunPlan;
import dev.accelbridge.bridge.run.Runtimes;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.RuntimeVersionProviders;
import dev.accelbridge.core.VersionOrder;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * What a version bisection walks: one of the lane's version dimensions, the versions published for it, and how a plan runs
 * at one of them. onnxruntime-web's releases come from the npm registry, the headless shell's majors from
 * {@code @sparticuz/chromium}'s releases, ONNX Runtime's from Maven Central.
 */
public enum VersionAxis {
    /** onnxruntime-web ({@code --ort-web GOOD..BAD}). */
    ORT_WEB(Dimensions.ORT_WEB_VERSION, "onnxruntime-web"),
    /** The headless shell's Chromium major ({@code --browser chromium-shell@GOOD..BAD}). */
    BROWSER(Dimensions.BROWSER_MAJOR, "Chromium (headless shell)"),
    /** ONNX Runtime natively ({@code --ort GOOD..BAD}). */
    ORT(Dimensions.ORT_VERSION, "ONNX Runtime");

    private final Dimension<String> dimension;
    private final String label;

    VersionAxis(Dimension<String> dimension, String label) {
        this.dimension = dimension;
        this.label = label;
    }

    /** The dimension bisected. */
    public Dimension<String> dimension() {
        return dimension;
    }

    /** {@code onnxruntime-web}: what its versions are versions of. */
    public String label() {
        return label;
    }

    /**
     * The versions to walk from {@code good} to {@code bad} (either may be the older), both included, oldest first: the
     * published releases ({@code includeDev}: and pre-releases), or with {@code cachedOnly} those this machine already has.
     *
     * @throws AccelbridgeException when an end is not among them, naming the nearest that are
     */
    public List<String> between(String good, String bad, boolean includeDev, boolean cachedOnly) {
        List<String> all = (cachedOnly ? cached() : published()).stream()
                .filter(v -> includeDev || VersionOrder.isRelease(v) || this == BROWSER).distinct().toList();
        for (String end : List.of(good, bad)) {
            if (!all.contains(end)) {
                throw new AccelbridgeException(label + " " + end + " is not among the " + (cachedOnly ? "versions this machine has" : "published "
                        + (includeDev ? "versions" : "releases")) + " (" + nearest(all, end) + ")",
                        "give versions from that list" + (cachedOnly ? ", or drop --cached-only to fetch others" : ""));
            }
        }
        boolean forward = VersionOrder.compare(good, bad) <= 0;
        List<String> span = VersionOrder.between(all, forward ? good : bad, forward ? bad : good);
        if (forward) {
            return span;
        }
        List<String> back = new java.util.ArrayList<>(span);
        java.util.Collections.reverse(back);
        return back;
    }

    /**
     * Checks that {@code v} can be a version of this axis, naming its option.
     *
     * @throws AccelbridgeException when it cannot
     */
    public void check(String v) {
        try {
            switch (this) {
                case ORT_WEB -> LaneId.of(BrowserKind.CHROMIUM).withRuntime(v);
                case BROWSER -> new LaneId(BrowserKind.CHROMIUM_SHELL, v, null);
                case ORT -> LaneId.nativeAt(v);
            }
        } catch (AccelbridgeException e) {
            throw new AccelbridgeException(dimension.flag() + ": " + e.getMessage(), e.fix());
        }
    }

    /**
     * Which of {@code versions} can be had here, asked once for them all before anything runs (found when tried: a bisection
     * probed 19 of 20 versions one by one that Maven Central's copy lists but does not serve): version → null when it can,
     * else why not. Versions at hand can always be had.
     */
    public java.util.Map<String, String> obtainable(List<String> versions, boolean cachedOnly) {
        if (this == ORT && !cachedOnly) {
            return ort().obtainable(versions);
        }
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        versions.forEach(v -> out.put(v, null));
        return out;
    }

    /** The plan {@code base} at {@code version} of this axis; {@code browser} is the browser of a browser axis's lane. */
    public RunPlan.Builder at(RunPlan.Builder base, String version, BrowserSpec browser, String ortWeb) {
        return switch (this) {
            case ORT_WEB -> base.targets(t -> t.optBrowserSpecs(List.of(browser)).optRuntimes(new Runtimes(List.of(version), List.of())));
            case BROWSER -> base.targets(t -> t.optBrowserSpecs(List.of(new BrowserSpec(BrowserKind.CHROMIUM_SHELL, version)))
                    .optRuntimes(new Runtimes(ortWeb == null ? List.of() : List.of(ortWeb), List.of())));
            case ORT -> base.targets(t -> t.optRuntimes(new Runtimes(List.of(), List.of(version))));
        };
    }

    /** Every version published, oldest first. */
    List<String> published() {
        return switch (this) {
            case ORT_WEB -> sorted(NpmRegistry.published(OrtWebBuild.PACKAGE));
            case BROWSER -> BrowserDiscovery.publishedShellMajors();
            case ORT -> sorted(ort().published());
        };
    }

    /** The versions this machine has without fetching (the build's, the cache's, the pinned ones), oldest first. */
    List<String> cached() {
        Set<String> out = new LinkedHashSet<>();
        switch (this) {
            case ORT_WEB -> {
                out.add(OrtWebBuild.pinned().version());
                out.addAll(NpmRegistry.installedVersions(OrtWebBuild.PACKAGE));
            }
            case BROWSER -> {
                BrowserDiscovery.find(BrowserKind.CHROMIUM_SHELL).ifPresent(b -> out.add(LaneId.majorOf(b.version())));
                NpmRegistry.installedVersions("@sparticuz/chromium").forEach(v -> out.add(LaneId.majorOf(v)));
            }
            case ORT -> out.addAll(ort().installed());
        }
        return sorted(out);
    }

    private static RuntimeVersionProviders ort() {
        return ServiceLoader.load(RuntimeVersionProviders.class).findFirst().orElseThrow(() -> new AccelbridgeException(
                "Nothing on the class path runs other ONNX Runtime versions", "rebuild with the native-runner module"));
    }

    private static List<String> sorted(java.util.Collection<String> vs) {
        return vs.stream().distinct().sorted(VersionOrder.ASCENDING).toList();
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
}
