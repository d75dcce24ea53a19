package dev.accelbridge.core;

import java.util.List;

/**
 * What {@code accelbridge detect} knows of the host: the matrix's host dimension.
 *
 * @param hostname     the host name
 * @param fingerprint  a stable id of the hardware/OS combination (hash of CPU model, cores, memory, OS, GPUs)
 * @param os           OS name and version
 * @param arch         CPU architecture ({@code amd64}, {@code aarch64})
 * @param cpuModel     CPU model name
 * @param physicalCores physical cores
 * @param logicalCores logical processors
 * @param simdFlags    SIMD extensions present (avx, avx2, avx512f, neon, ...)
 * @param memoryBytes  total physical memory
 * @param gpus         GPUs as "vendor name" strings (empty when none, or when {@code lspci} is missing)
 * @param javaVersion  the running JVM
 */
public record HostInfo(String hostname, String fingerprint, String os, String arch, String cpuModel, int physicalCores,
                       int logicalCores, List<String> simdFlags, long memoryBytes, List<String> gpus, String javaVersion) {
    public HostInfo {
        simdFlags = List.copyOf(simdFlags);
        gpus = List.copyOf(gpus);
    }
}
