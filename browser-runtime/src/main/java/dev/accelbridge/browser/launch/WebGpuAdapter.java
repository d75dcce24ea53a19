package dev.accelbridge.browser.launch;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.PublicApi;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

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

    /** Where a Linux host's GPUs appear to programs: NVIDIA's and AMD's compute nodes, DRM render nodes. */
    static final List<Path> GPU_NODES = List.of(Path.of("/dev/nvidia0"), Path.of("/dev/kfd"));
    static final Path DRI = Path.of("/dev/dri");

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

    /** Whether this host shows a GPU to programs ({@code /dev/nvidia0}, {@code /dev/kfd}, a {@code /dev/dri/renderD*} node). */
    public static boolean hostHasGpu() {
        return hostHasGpu(Files::exists, dir -> {
            try (var s = Files.list(dir)) {
                return s.map(p -> p.getFileName().toString()).toList();
            } catch (java.io.IOException e) {
                return List.of();
            }
        });
    }

    /** {@link #hostHasGpu()} on a constructed host: which paths exist, and a folder's entry names. */
    static boolean hostHasGpu(Predicate<Path> exists, Function<Path, List<String>> names) {
        return GPU_NODES.stream().anyMatch(exists) || names.apply(DRI).stream().anyMatch(n -> n.startsWith("renderD"));
    }

    @Override
    public String toString() {
        return id;
    }
}
