package dev.accelbridge.browser.launch;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.HalfPrecisionWithheld;
import dev.accelbridge.core.HostGpuNodes;
import dev.accelbridge.core.PublicApi;

import java.util.Locale;

/**
 * Which WebGPU adapter a launched Chromium is to give its page ({@code --webgpu-adapter}). On a host with a GPU the
 * page's WebGPU is the GPU's, never a software adapter unless asked: {@link #AUTO} then asks for the hardware adapter
 * (trying {@link ChromiumFlags#HARDWARE_WEBGPU}'s flag sets in turn until one gives it) and refuses WebGPU, with what
 * each set gave, when none does. On a host without one, {@link #AUTO} is the software adapter (SwiftShader), labelled so.
 */
@PublicApi
public enum WebGpuAdapter {
    /** The GPU's adapter where the host has a GPU, else the software one (the default). */
    AUTO("auto"),
    /** The GPU's adapter or none: a software adapter makes WebGPU unavailable, with evidence. */
    HARDWARE("hardware"),
    /** SwiftShader, even on a host with a GPU ({@code --use-webgpu-adapter=swiftshader}). */
    SOFTWARE("software"),
    /**
     * The GPU's adapter as {@link #HARDWARE}, with Dawn's {@code vulkan_enable_f16_on_nvidia} toggle turned on
     * ({@link HalfPrecisionWithheld#OPT_IN_FLAG}): half precision where Chrome on Linux withholds it on NVIDIA's Vulkan
     * driver. A labelled variant, never what a user's Chrome does: its rows' adapter says so.
     */
    HARDWARE_F16("hardware-f16");

    private final String id;

    WebGpuAdapter(String id) {
        this.id = id;
    }

    /** The id on the command line and in a stored plan. */
    @com.fasterxml.jackson.annotation.JsonValue
    public String id() {
        return id;
    }

    /** Parses {@code auto}, {@code hardware}, {@code software}. */
    @com.fasterxml.jackson.annotation.JsonCreator
    public static WebGpuAdapter parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (WebGpuAdapter a : values()) {
            if (a.id.equals(t)) {
                return a;
            }
        }
        throw new AccelbridgeException("Unknown WebGPU adapter '" + text + "'", "use auto, hardware, hardware-f16 or software");
    }

    /** What this choice comes to on a host that has ({@code hostHasGpu}) a GPU or not: {@link #HARDWARE} or {@link #SOFTWARE}. */
    public WebGpuAdapter on(boolean hostHasGpu) {
        return this == AUTO ? (hostHasGpu ? HARDWARE : SOFTWARE) : this;
    }

    /** The flags this choice adds to each hardware flag set: the opt-in toggle for {@link #HARDWARE_F16}, else none. */
    public java.util.List<String> variantFlags() {
        return this == HARDWARE_F16 ? java.util.List.of(HalfPrecisionWithheld.OPT_IN_FLAG) : java.util.List.of();
    }

    /** What a row's adapter says of this choice where it is a variant of what users run; empty otherwise. */
    public java.util.Optional<String> variantNote() {
        return this == HARDWARE_F16 ? java.util.Optional.of("Dawn's vulkan_enable_f16_on_nvidia turned on (a variant, not a user's default)")
                : java.util.Optional.empty();
    }

    /** Whether this host shows a GPU to programs ({@link HostGpuNodes}). */
    public static boolean hostHasGpu() {
        return HostGpuNodes.present();
    }

    @Override
    public String toString() {
        return id;
    }
}
