package dev.accelbridge.run;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.fallback.FallbackPolicy;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a run runs and on which versions: the backends along their fallback chains, the browsers and how they are
 * launched (here, on a Grid, a Playwright server), the runtime releases, the lanes at once. A {@link RunPlan} group (JSON
 * read through its builder), whole near the size limit: its checks, views and builder share the same fields.
 *
 * @param backends the requested backends
 * @param chains   the fallback chain of every requested backend, in the order of {@code backends}
 * @param policy   when a run-time result moves on to the next hop
 * @param remeasureFallbacks a fallback that lands on a backend its lane runs the same case on runs that work again
 *                 ({@code --remeasure-fallbacks}); by default it is judged on that one measurement ({@link SharedMeasurements})
 * @param browsers the browsers of the browser backends, each at a major version or the one installed
 * @param versions the versions every case runs at, by {@link VersionAxis} name, in the axes' order ({@code --ort-web},
 *                 {@code --ort}, {@code --versions NAME=LIST}); an axis not named runs at its pinned version. A browser's
 *                 major is its {@code browsers} entry's.
 * @param driver   how browsers are launched
 * @param headless headless browsers (the default)
 * @param parallel browser lanes at once, each with its own browser and page
 * @param grid     a Selenium Grid for {@link DriverKind#GRID}
 * @param remote   Grid capabilities to route by and a Playwright browser server ({@code --grid-capability}, {@code --connect})
 * @param exposure where launched browsers reach the bridge ({@code --bridge-host}, {@code --advertise}) and its TLS
 * @param webGpuAdapter which WebGPU adapter a Chromium launched here gives its page ({@code --webgpu-adapter})
 */
@PublicApi
@JsonDeserialize(builder = Targets.Builder.class)
public record Targets(List<BackendId> backends, List<Chain> chains, FallbackPolicy policy, boolean remeasureFallbacks, List<BrowserSpec> browsers,
                      Map<String, List<String>> versions, DriverKind driver, boolean headless, int parallel, Optional<URI> grid,
                      RemoteBrowsers remote, Exposure exposure, WebGpuAdapter webGpuAdapter) {
    /** @throws AccelbridgeException naming the options that cannot go together */
    public Targets {
        backends = List.copyOf(backends).stream().distinct().toList();
        chains = List.copyOf(chains);
        browsers = List.copyOf(browsers).stream().distinct().toList();
        versions = checked(versions);
        webGpuAdapter = webGpuAdapter == null ? WebGpuAdapter.AUTO : webGpuAdapter;
        if (backends.isEmpty()) {
            throw new AccelbridgeException("No backend to run on", "give --backends with at least one of: " + BackendId.validIds());
        }
        if (backends.stream().anyMatch(BackendId::isBrowser) && browsers.isEmpty()) {
            throw new AccelbridgeException("Browser backends were asked for but no browser", "give --browser chromium");
        }
        if (parallel < 1 || parallel > 64) {
            throw new AccelbridgeException("--parallel must be 1..64, got " + parallel, "e.g. --parallel 2");
        }
        if (remote.connect().isPresent() && (grid.isPresent() || driver != DriverKind.PLAYWRIGHT)) {
            throw new AccelbridgeException("--connect runs browsers on a Playwright server; it cannot go with "
                    + (grid.isPresent() ? "--grid" : "--driver " + driver.id()), "give --connect or --grid, not both");
        }
        if (!remote.gridCapabilities().isEmpty() && grid.isEmpty()) {
            throw new AccelbridgeException("--grid-capability routes a Selenium Grid's sessions, and no --grid is given",
                    "give --grid URL, or drop --grid-capability");
        }
    }

    /** A builder: every field but the backends has its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** The browser lanes: each browser at each combination of the browser axes' versions (an axis not named: its pinned one). */
    public List<LaneId> browserLanes() {
        return LaneId.product(browsers.stream().map(BrowserSpec::lane).toList(), sweep(LaneSide.BROWSER));
    }

    /** The native lanes: each combination of the native axes' versions (an axis not named: its pinned one, this process's). */
    public List<LaneId> nativeLanes() {
        return LaneId.product(List.of(LaneId.NATIVE), sweep(LaneSide.NATIVE));
    }

    private Map<String, List<String>> sweep(LaneSide side) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (VersionAxis a : side.axes()) {
            List<String> given = versions.getOrDefault(a.name(), List.of());
            out.put(a.name(), given.isEmpty() ? a.defaults().stream().map(VersionAxis.Default::version).toList() : given);
        }
        return out;
    }

    /**
     * The requested backends that run on {@code lane}: its side's, less those a version it runs at by default does not
     * run ({@link VersionAxis#defaults()}: with no engine named, the native WebGPU EP's lanes run WebGPU alone).
     */
    public List<BackendId> backendsOn(LaneId lane) {
        List<BackendId> side = new ArrayList<>(switch (lane.side()) {
            case NATIVE -> nativeBackends();
            case BROWSER -> browserBackends();
        });
        for (VersionAxis a : lane.side().axes()) {
            if (versions.containsKey(a.name())) {
                continue;
            }
            String v = lane.version(a);
            a.defaults().stream().filter(d -> d.version().equals(v)).findFirst()
                    .ifPresent(d -> side.removeIf(b -> !d.runs(b)));
        }
        return List.copyOf(side);
    }

    /**
     * The versions by axis, in the axes' order, each list trimmed and without repeats, each version checked by its axis.
     *
     * @throws AccelbridgeException naming an axis that is not on the class path, a version that is not one, or a browser's
     *                              major given apart from its browser
     */
    private static Map<String, List<String>> checked(Map<String, List<String>> given) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Map<String, List<String>> in = given == null ? Map.of() : given;
        for (Map.Entry<String, List<String>> e : in.entrySet()) {
            VersionAxis a = VersionAxes.named(e.getKey()).orElseThrow(() -> new AccelbridgeException("No version axis is called "
                    + Untrusted.quote(e.getKey()), "give one of: " + VersionAxes.all().stream().map(VersionAxis::name).toList()));
            if (a.withinBrowser()) {
                throw new AccelbridgeException("A browser's " + a.dimension().label() + " is given with the browser", "give --browser NAME@VERSION");
            }
            List<String> vs = e.getValue() == null ? List.of() : e.getValue().stream().map(String::trim).distinct().toList();
            LaneId side = LaneId.anyOn(a.side());
            try {
                vs.forEach(v -> side.with(a, v)); // the lane's own check of a version, and the axis's
            } catch (AccelbridgeException x) {
                throw new AccelbridgeException((a.dimension().flag() == null ? a.name() : a.dimension().flag()) + ": " + x.getMessage(), x.fix());
            }
            if (!vs.isEmpty()) {
                out.merge(a.name(), vs, (x, y) -> java.util.stream.Stream.concat(x.stream(), y.stream()).distinct().toList());
            }
        }
        Map<String, List<String>> ordered = new LinkedHashMap<>();
        VersionAxes.all().forEach(a -> {
            if (out.containsKey(a.name())) {
                ordered.put(a.name(), out.get(a.name()));
            }
        });
        return java.util.Collections.unmodifiableMap(ordered);
    }

    /** The requested browser backends. */
    public List<BackendId> browserBackends() {
        return backends.stream().filter(BackendId::isBrowser).toList();
    }

    /**
     * The driver that starts {@code browser} on this plan: its {@link #driver()}, except on this machine (no Grid, no
     * Playwright server) for Firefox, which has no driver here (no geckodriver; Playwright cannot drive a distribution's
     * build) and runs as a plain process, and WebKit, which runs under WebKitGTK's own WebDriver through Selenium.
     */
    public DriverKind driverOf(BrowserKind browser) {
        boolean local = driver != DriverKind.GRID && remote.connect().isEmpty();
        if (local && browser == BrowserKind.FIREFOX) {
            return DriverKind.PROCESS;
        }
        return local && browser == BrowserKind.WEBKIT ? DriverKind.SELENIUM : driver;
    }

    /** The requested native backends. */
    public List<BackendId> nativeBackends() {
        return backends.stream().filter(b -> !b.isBrowser()).toList();
    }

    /** The chain of a requested backend (the backend alone when it has none). */
    public Chain chainOf(BackendId requested) {
        return chains.stream().filter(c -> c.requested() == requested).findFirst().orElseGet(() -> Chain.of(requested));
    }

    /** Builds {@link Targets}; what a stored plan's {@code targets} is read through. */
    @JsonPOJOBuilder(withPrefix = "opt")
    public static final class Builder {
        private List<BackendId> backends;
        private Chains chains = Chains.defaults();
        private FallbackPolicy policy = FallbackPolicy.ON_FAILURE;
        private boolean remeasureFallbacks;
        private List<BrowserSpec> browsers = List.of(BrowserSpec.of(BrowserKind.CHROMIUM));
        private final Map<String, List<String>> versions = new LinkedHashMap<>();
        private DriverKind driver = PlanDefaults.driver();
        private boolean headless = true;
        private int parallel = 1;
        private URI grid;
        private RemoteBrowsers remote = RemoteBrowsers.NONE;
        private WebGpuAdapter webGpuAdapter = WebGpuAdapter.AUTO;
        private Exposure exposure = Exposure.LOOPBACK;

        private Builder() {
        }

        /** Required: the backends to request (at least one). */
        @JsonProperty("backends")
        public Builder setBackends(List<BackendId> b) {
            this.backends = b;
            return this;
        }

        /** The fallback chains (default {@link Chains#defaults()}). */
        @JsonIgnore
        public Builder optChains(Chains c) {
            this.chains = c == null ? Chains.defaults() : c;
            return this;
        }

        /** Chains over the defaults, each for its requested backend (a stored plan's). */
        @JsonProperty("chains")
        public Builder optChainList(List<Chain> c) {
            this.chains = Chains.defaults().with(c == null ? List.of() : c);
            return this;
        }

        /** When a run-time result moves on to the next hop. */
        public Builder optPolicy(FallbackPolicy p) {
            this.policy = p == null ? FallbackPolicy.ON_FAILURE : p;
            return this;
        }

        /**
         * Whether a fallback that lands on a backend its lane runs the same case on runs that work again (default false: it is
         * judged on that cell's measurement, its figures named as that cell's).
         */
        public Builder optRemeasureFallbacks(boolean r) {
            this.remeasureFallbacks = r;
            return this;
        }

        /** The browsers for the browser backends, at the version installed (default: chromium). */
        @JsonIgnore
        public Builder optBrowsers(List<BrowserKind> b) {
            return optBrowserSpecs(b == null ? null : b.stream().map(BrowserSpec::of).toList());
        }

        /** The browsers for the browser backends, each at a major version or the one installed ({@code chromium-shell@141}). */
        @JsonProperty("browsers")
        public Builder optBrowserSpecs(List<BrowserSpec> b) {
            this.browsers = b == null ? List.of(BrowserSpec.of(BrowserKind.CHROMIUM)) : b;
            return this;
        }

        /** The versions to run at, by axis name or alias (default: each axis's pinned one); replaces what was given. */
        public Builder optVersions(Map<String, List<String>> v) {
            this.versions.clear();
            if (v != null) {
                this.versions.putAll(v);
            }
            return this;
        }

        /** The versions of one axis ({@code ortWebVersion}, or an alias: {@code ort-web}) to run at; null or empty: its pinned one. */
        @JsonIgnore
        public Builder optVersions(String axis, List<String> v) {
            if (v == null || v.isEmpty()) {
                this.versions.remove(axis);
            } else {
                this.versions.put(axis, v);
            }
            return this;
        }

        /**
         * The lane {@code lane}: its browser at its major (or native), and its other versions as the only ones of their axes.
         * What a bisection step runs.
         */
        @JsonIgnore
        public Builder optLane(LaneId lane) {
            if (lane.browser() != null) {
                optBrowserSpecs(List.of(BrowserSpec.of(lane)));
            }
            lane.versions().forEach((axis, v) -> {
                if (VersionAxes.named(axis).filter(a -> !a.withinBrowser()).isPresent()) {
                    optVersions(axis, List.of(v));
                }
            });
            return this;
        }

        /** How browsers are launched (default: playwright). */
        public Builder optDriver(DriverKind d) {
            this.driver = d == null ? PlanDefaults.driver() : d;
            return this;
        }

        /** Headless browsers (default true). */
        public Builder optHeadless(boolean h) {
            this.headless = h;
            return this;
        }

        /** Browser lanes at once (default 1). */
        public Builder optParallel(int n) {
            this.parallel = n;
            return this;
        }

        /** A Selenium Grid; implies the grid driver. */
        public Builder optGrid(URI url) {
            this.grid = url;
            return this;
        }

        /** Grid capabilities to route by, and a Playwright browser server to run lanes on. */
        public Builder optRemote(RemoteBrowsers r) {
            this.remote = r == null ? RemoteBrowsers.NONE : r;
            return this;
        }

        /** Which WebGPU adapter a Chromium launched here gives its page (default auto: the GPU's where the host has one). */
        public Builder optWebGpuAdapter(WebGpuAdapter a) {
            this.webGpuAdapter = a;
            return this;
        }

        /** Where launched browsers reach the bridge, and its TLS ({@link Exposure#of}; default loopback). */
        public Builder optExposure(Exposure e) {
            this.exposure = e == null ? Exposure.LOOPBACK : e;
            return this;
        }

        /**
         * The targets.
         *
         * @throws AccelbridgeException naming the option that makes them impossible and the fix
         */
        public Targets build() {
            List<BackendId> b = backends == null ? List.of() : backends.stream().distinct().toList();
            DriverKind d = grid != null ? DriverKind.GRID : driver;
            return new Targets(b, b.stream().map(chains::forBackend).toList(), policy, remeasureFallbacks, browsers, versions, d, headless, parallel,
                    Optional.ofNullable(grid), remote, exposure, webGpuAdapter);
        }
    }
}
