package dev.accelbridge.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Whether this host shows a GPU to programs: NVIDIA's and AMD's compute nodes ({@code /dev/nvidia0}, {@code /dev/kfd}) or
 * a DRM render node ({@code /dev/dri/renderD*}). What decides, for a browser's WebGPU and native WebGPU alike, whether a
 * software adapter is the only one there is.
 */
@PublicApi
public final class HostGpuNodes {
    /** Where a Linux host's GPUs appear to programs: NVIDIA's and AMD's compute nodes. */
    static final List<Path> GPU_NODES = List.of(Path.of("/dev/nvidia0"), Path.of("/dev/kfd"));
    static final Path DRI = Path.of("/dev/dri");

    private HostGpuNodes() {
    }

    /** Whether this host shows a GPU to programs. */
    public static boolean present() {
        return present(Files::exists, dir -> {
            try (var s = Files.list(dir)) {
                return s.map(p -> p.getFileName().toString()).toList();
            } catch (java.io.IOException e) {
                return List.of();
            }
        });
    }

    /** {@link #present()} on a constructed host: which paths exist, and a folder's entry names. */
    public static boolean present(Predicate<Path> exists, Function<Path, List<String>> names) {
        return GPU_NODES.stream().anyMatch(exists) || names.apply(DRI).stream().anyMatch(n -> n.startsWith("renderD"));
    }
}
