package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendId;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The facts the native probes decide on, gathered once per process by {@link DjlOnnxRuntimeProvider} (and
 * constructible by hand, so {@link NativeProbe}'s decisions can be tested for hosts that are not this one).
 *
 * @param ortVersion      the loaded ONNX Runtime native library's version; null when it did not load
 * @param engineError     why DJL's OnnxRuntime engine could not start; null when it started
 * @param ortProviders    {@code OrtEnvironment.getAvailableProviders()} as ORT names ({@code CPUExecutionProvider}, ...)
 * @param epErrors        per accelerated backend, the exact ONNX Runtime error raised when its execution provider
 *                        was added to a session's options; a backend absent from the map registered cleanly
 * @param osName          {@code os.name} of the JVM ({@code Linux}, {@code Mac OS X}, {@code Windows 11})
 * @param osDescription   the OS as OSHI describes it (distribution, version, kernel build)
 * @param arch            {@code os.arch}
 * @param cudaDeviceCount CUDA devices DJL's {@code CudaUtils} sees (0 when there is no CUDA runtime)
 * @param cudaNote        what DJL's CUDA check found: the runtime version, or why there is none
 * @param gpus            GPUs OSHI lists ("vendor name (VRAM)"); empty when none or when {@code lspci} is missing
 * @param gpuSource       where the GPU list comes from ({@code lspci}, or {@code lspci not installed ...}), so
 *                        an empty list is not mistaken for "no GPU"
 * @param cpuModel        CPU model name
 * @param physicalCores   physical cores
 * @param logicalCores    logical processors
 * @param simdFlags       SIMD extensions present
 */
public record NativeEnvironment(String ortVersion, String engineError, List<String> ortProviders,
                                Map<BackendId, String> epErrors, String osName, String osDescription, String arch,
                                int cudaDeviceCount, String cudaNote, List<String> gpus, String gpuSource, String cpuModel,
                                int physicalCores, int logicalCores, List<String> simdFlags) {
    public NativeEnvironment {
        ortProviders = List.copyOf(ortProviders);
        epErrors = Map.copyOf(epErrors);
        gpus = List.copyOf(gpus);
        simdFlags = List.copyOf(simdFlags);
    }

    /** True when the JVM runs on macOS. */
    public boolean isMac() {
        String n = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        return n.startsWith("mac") || n.contains("darwin") || n.contains("os x");
    }

    /** True when the JVM runs on Linux. */
    public boolean isLinux() {
        return osName != null && osName.toLowerCase(Locale.ROOT).startsWith("linux");
    }
}
