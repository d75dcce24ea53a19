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

    /**
     * A host fingerprint from the facts that identify it: the first 16 hex digits of the SHA-256 of the facts joined
     * with {@code |}. The one rule for this machine ({@code detect}), a Grid node and a device that joined a page.
     */
    public static String fingerprintOf(List<String> facts) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(String.join("|", facts).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d, 0, 8);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
