package dev.accelbridge.browser.launch;

import dev.accelbridge.core.PublicApi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a browser process gets Accelbridge's headless-surface Vulkan layer, decided once for every way a browser is
 * launched here (a run's lanes, {@code observe}, the JUnit extension: each launcher asks {@link HeadlessSurfaces#of}). ANGLE's headless
 * display refuses to start without {@code VK_EXT_headless_surface}, which NVIDIA's driver (and Mesa's lavapipe) lacks,
 * and without ANGLE on Vulkan a headless Chromium's WebGPU never reaches the GPU. The layer offers the extension; it is
 * given to a browser process only (its environment, never this process's or the system's), and only where that process
 * would seek the GPU's adapter on a driver that lacks the extension. The kinds are closed:
 * <ul>
 *   <li>{@link NotAsked}: the browser seeks no GPU adapter here (a software adapter, not Chromium, another host);
 *   <li>{@link SwitchedOff}: {@code ACCELBRIDGE_HEADLESS_SURFACE_OFF=1} in the browser's environment;
 *   <li>{@link Unavailable}: this build carries no layer, or its files could not be had intact;
 *   <li>{@link NoDevice}: Vulkan gives no device (no loader, no driver);
 *   <li>{@link Offered}: the driver offers the extension itself;
 *   <li>{@link Layered}: the layer is on for the browser, verified, its environment {@link #environment}.
 * </ul>
 */
@PublicApi
public sealed interface HeadlessSurface {
    /** The variable the layer's manifest is enabled by. */
    String ENABLE = "ACCELBRIDGE_HEADLESS_SURFACE";
    /** The variable that keeps it off whatever else says (the loader's {@code disable_environment}). */
    String OFF = "ACCELBRIDGE_HEADLESS_SURFACE_OFF";

    /** One line for {@code detect}, a lane's log and a row's provenance. */
    String describe();

    /** The variables the browser process gets on top of {@code base} (its environment): none but for {@link Layered}. */
    default Map<String, String> environment(Map<String, String> base) {
        return Map.of();
    }

    /** The browser seeks no GPU adapter here. */
    record NotAsked(String why) implements HeadlessSurface {
        @Override
        public String describe() {
            return "not used: " + why;
        }
    }

    /** Switched off by {@link #OFF}. */
    record SwitchedOff() implements HeadlessSurface {
        @Override
        public String describe() {
            return "switched off (" + OFF + "=1)";
        }
    }

    /** No layer to give: this build carries none, or its files could not be had intact. */
    record Unavailable(String why, String fix) implements HeadlessSurface {
        @Override
        public String describe() {
            return "unavailable: " + why + " (" + fix + "); whether this host's driver needs it is unseen";
        }
    }

    /** Vulkan gives no device to a process here. */
    record NoDevice(String evidence) implements HeadlessSurface {
        @Override
        public String describe() {
            return "not used: Vulkan gives no device here (" + evidence + ")";
        }
    }

    /** The driver offers the extension itself. */
    record Offered(List<String> devices) implements HeadlessSurface {
        public Offered {
            devices = List.copyOf(devices);
        }

        @Override
        public String describe() {
            return "not needed: the Vulkan driver offers " + VulkanHost.HEADLESS_SURFACE + " (" + String.join("; ", devices) + ")";
        }
    }

    /**
     * The layer is on for the browser.
     *
     * @param share        the verified entry's {@code share} folder, put first on the browser's {@code XDG_DATA_DIRS}
     * @param layerSha256  the layer library's sha256, as the build made it and the cache verified it
     * @param devices      the devices the driver gave (without the layer)
     * @param note         what verifying the cached copy found (empty, or why it was unpacked again)
     */
    record Layered(Path share, String layerSha256, List<String> devices, String note) implements HeadlessSurface {
        public Layered {
            devices = List.copyOf(devices);
        }

        @Override
        public String describe() {
            return "on: the Vulkan driver lacks " + VulkanHost.HEADLESS_SURFACE + " (" + String.join("; ", devices)
                    + "), so the browser gets Accelbridge's layer (sha256 " + layerSha256 + ")";
        }

        @Override
        public Map<String, String> environment(Map<String, String> base) {
            String dirs = Optional.ofNullable(base.get("XDG_DATA_DIRS")).or(() -> Optional.ofNullable(System.getenv("XDG_DATA_DIRS")))
                    .filter(s -> !s.isBlank()).orElse("/usr/local/share:/usr/share"); // the loader's default when unset
            return Map.of("XDG_DATA_DIRS", share + ":" + dirs, ENABLE, "1");
        }
    }
}
