package dev.accelbridge.core;

import java.util.Locale;
import java.util.Optional;

/**
 * Why a WebGPU adapter lacks {@code shader-f16} where the reason is known and not the hardware's: Chrome on Linux withholds
 * it on NVIDIA's Vulkan driver (Dawn's toggle {@code vulkan_enable_f16_on_nvidia} is off there by default, for the driver's
 * conformance failures: crbug.com/42251215), so a user's Chrome on that host does not get it, though the GPU computes in
 * half precision and native WebGPU (which turns the toggle on) does. Said beside an fp16 or q4f16 cell's UNSUPPORTED so it
 * is not read as the GPU's limit.
 */
@PublicApi
public final class HalfPrecisionWithheld {
    /** Chromium's flag that turns the toggle on: a labelled variant, never a user's default. */
    public static final String OPT_IN_FLAG = "--enable-dawn-features=vulkan_enable_f16_on_nvidia";

    private HalfPrecisionWithheld() {
    }

    /**
     * The reason, where it applies: a Chromium-family browser on Linux, an NVIDIA adapter, no {@code shader-f16}.
     *
     * @param userAgent the page's user agent
     * @param vendor    the adapter's vendor as {@code GPUAdapterInfo} gives it
     */
    public static Optional<String> why(String userAgent, String vendor, boolean hasShaderF16) {
        String ua = userAgent == null ? "" : userAgent;
        boolean chromiumOnLinux = ua.contains("Chrome/") && ua.contains("Linux") && !ua.contains("Android");
        if (hasShaderF16 || !chromiumOnLinux || vendor == null || !vendor.toLowerCase(Locale.ROOT).contains("nvidia")) {
            return Optional.empty();
        }
        return Optional.of("Chrome on Linux withholds shader-f16 on NVIDIA's Vulkan driver (crbug.com/42251215: the driver's "
                + "conformance failures), so a user's Chrome here does not get it either; native WebGPU turns it on, and the "
                + "browser flag " + OPT_IN_FLAG + " does as a labelled variant");
    }
}
