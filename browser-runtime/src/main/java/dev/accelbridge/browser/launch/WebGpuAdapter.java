package dev.accelbridge.browser.launch;

import dev.accelbridge.core.AccelbridgeException;
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
    SOFTWARE("software");

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
        throw new AccelbridgeException("Unknown WebGPU adapter '" + text + "'", "use auto, hardware or software");
    }

    /** What this choice comes to on a host that has ({@code hostHasGpu}) a GPU or not: {@link #HARDWARE} or {@link #SOFTWARE}. */
    public WebGpuAdapter on(boolean hostHasGpu) {
        return this == AUTO ? (hostHasGpu ? HARDWARE : SOFTWARE) : this;
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
