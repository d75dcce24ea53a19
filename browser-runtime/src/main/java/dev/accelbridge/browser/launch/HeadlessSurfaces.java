package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.fetch.CacheEntryException;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one owner of the {@link HeadlessSurface} decision: every launcher asks {@link #of} for the environment a browser
 * process gets, a lane's provenance asks it what its browser got, and {@code detect} asks {@link #onThisHost}.
 */
@PublicApi
public final class HeadlessSurfaces {
    /** What the probe said, one process for each Vulkan environment: drivers do not come and go within a run. */
    private static final Map<Map<String, String>, VulkanHost> PROBED = new ConcurrentHashMap<>();

    private HeadlessSurfaces() {
    }

    /** The decision for a browser launched with {@code options}, the layer's files verified again now. */
    public static HeadlessSurface of(LaunchOptions options) {
        Optional<String> notAsked = notAsked(options);
        if (notAsked.isPresent()) {
            return new HeadlessSurface.NotAsked(notAsked.get());
        }
        Map<String, String> env = new TreeMap<>(System.getenv());
        env.putAll(options.environment());
        if ("1".equals(env.get(HeadlessSurface.OFF))) {
            return new HeadlessSurface.SwitchedOff();
        }
        HeadlessSurfaceLayer.Built built = HeadlessSurfaceLayer.built();
        if (built instanceof HeadlessSurfaceLayer.Absent a) {
            return new HeadlessSurface.Unavailable(a.why(), a.fix());
        }
        HeadlessSurfaceLayer.Unpacked layer;
        try {
            layer = HeadlessSurfaceLayer.unpack((HeadlessSurfaceLayer.Made) built);
        } catch (CacheEntryException e) {
            return new HeadlessSurface.Unavailable("the layer's files could not be had intact: " + e.getMessage(), e.fix());
        }
        Map<String, String> key = new TreeMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("VK_") || k.equals("XDG_DATA_DIRS") || k.equals("LD_LIBRARY_PATH")) {
                key.put(k, v);
            }
        });
        VulkanHost host = PROBED.computeIfAbsent(key, k -> VulkanHost.probe(layer.probe(), options.environment()));
        return decide(host, layer);
    }

    /** The decision for a local Chromium seeking the GPU's adapter on this host, as {@code detect} shows it. */
    public static HeadlessSurface onThisHost() {
        return of(LaunchOptions.builder().webGpuAdapter(WebGpuAdapter.HARDWARE).build());
    }

    /** Why a browser launched with {@code options} seeks no GPU adapter here, or empty when it does. */
    static Optional<String> notAsked(LaunchOptions options) {
        if (!options.browser().chromium()) {
            return Optional.of(options.browser().id() + " is not a Chromium build");
        }
        if (options.connect().isPresent() || options.gridUrl().isPresent()) {
            return Optional.of("the browser runs on another host, whose Vulkan is its own");
        }
        if (options.webGpuAdapter().on(WebGpuAdapter.hostHasGpu()) == WebGpuAdapter.SOFTWARE) {
            return Optional.of("the browser seeks no GPU adapter (--webgpu-adapter " + options.webGpuAdapter().id()
                    + (options.webGpuAdapter() == WebGpuAdapter.AUTO ? " on a host without a GPU" : "") + ")");
        }
        return Optional.empty();
    }

    /** The decision on what the probe said, for a verified layer. */
    static HeadlessSurface decide(VulkanHost host, HeadlessSurfaceLayer.Unpacked layer) {
        if (!host.loader() || host.devices().isEmpty()) {
            return new HeadlessSurface.NoDevice(host.problem().orElse("no device"));
        }
        if (host.offersHeadlessSurface()) {
            return new HeadlessSurface.Offered(host.devices());
        }
        return new HeadlessSurface.Layered(layer.share(), layer.layerSha256(), host.devices(), layer.note());
    }

    /** The environment a browser launched with {@code options} gets on top of this process's: its own, then the layer's. */
    static Map<String, String> environment(LaunchOptions options) {
        Map<String, String> env = new TreeMap<>(options.environment());
        env.putAll(of(options).environment(env));
        return env;
    }
}
