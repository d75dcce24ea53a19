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
 * @param facts        what else is known of a host another program describes, in that program's words: a Grid node's id
 *                     and stereotype ({@code grid.node}, {@code grid.stereotype}), its browser's WebGPU adapter
 *                     ({@code webgpu.vendor}, {@code webgpu.architecture}, {@code webgpu.isFallbackAdapter}) and WebNN
 *                     contexts ({@code webnn.cpu}, {@code webnn.gpu}, {@code webnn.npu}); for this machine, its CPU's clock as the OS
 *                     reports it ({@link #CPU_CLOCK_HZ}) where known
 */
public record HostInfo(String hostname, String fingerprint, String os, String arch, String cpuModel, int physicalCores,
                       int logicalCores, List<String> simdFlags, long memoryBytes, List<String> gpus, String javaVersion,
                       java.util.Map<String, String> facts) {
    public HostInfo {
        // a host may be a joined page's word (its user agent): what the store's host record and every printer get is one line
        hostname = hostname == null ? null : Untrusted.reason(hostname);
        os = os == null ? null : Untrusted.reason(os);
        arch = arch == null ? null : Untrusted.reason(arch);
        cpuModel = cpuModel == null ? null : Untrusted.reason(cpuModel);
        simdFlags = simdFlags.stream().map(Untrusted::reason).toList();
        gpus = gpus.stream().map(Untrusted::reason).toList();
        // stored facts are read under their right names, whatever wrote them (HostFacts)
        facts = facts == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(HostFacts.named(facts));
    }

    /** A host without further facts (this machine, as {@code detect} sees it). */
    public HostInfo(String hostname, String fingerprint, String os, String arch, String cpuModel, int physicalCores,
                    int logicalCores, List<String> simdFlags, long memoryBytes, List<String> gpus, String javaVersion) {
        this(hostname, fingerprint, os, arch, cpuModel, physicalCores, logicalCores, simdFlags, memoryBytes, gpus, javaVersion,
                java.util.Map.of());
    }

    /** The fact of this machine's CPU clock in Hz as the OS reports it (a virtual machine's nominal clock). */
    public static final String CPU_CLOCK_HZ = "cpu.clockHz";

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
