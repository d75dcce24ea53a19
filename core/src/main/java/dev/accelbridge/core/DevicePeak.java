package dev.accelbridge.core;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A device's roof: its peak fp32 compute and, where known, its memory bandwidth, each with where the figure comes from. A
 * GPU's is the vendor's published figure for the part its name names; a CPU's compute is reckoned from its cores, clock and
 * vector width (its memory bandwidth is not known from what the host says: unknown, never guessed). Figures against it are
 * a place under the roof, never a verdict.
 *
 * @param device         the device as named (a GPU's adapter or a CPU's model)
 * @param flopsPerSecond peak fp32 FLOP/s
 * @param bytesPerSecond peak memory bandwidth in bytes/s; empty where not known
 * @param basis          where the figures come from, said beside them
 */
@PublicApi
public record DevicePeak(String device, double flopsPerSecond, OptionalDouble bytesPerSecond, String basis) {
    public DevicePeak {
        if (!(flopsPerSecond > 0)) {
            throw new IllegalArgumentException("a peak is positive: " + flopsPerSecond);
        }
    }

    /** A GPU's vendor figures: the name it is matched on (the first match wins, longer names first), fp32 TFLOP/s, TB/s, source. */
    private record Part(String match, double tflops, double tbps, String source) {
    }

    private static final List<Part> GPUS = List.of(
            new Part("H200 NVL", 60.0, 4.8, "NVIDIA H200 NVL datasheet"),
            new Part("H200", 67.0, 4.8, "NVIDIA H200 SXM datasheet"),
            new Part("H100 NVL", 60.0, 3.9, "NVIDIA H100 NVL datasheet"),
            new Part("H100 PCIe", 51.0, 2.0, "NVIDIA H100 PCIe datasheet"),
            new Part("H100", 67.0, 3.35, "NVIDIA H100 SXM datasheet"),
            new Part("A100-SXM4-80GB", 19.5, 2.039, "NVIDIA A100 80GB SXM datasheet"),
            new Part("A100-SXM4-40GB", 19.5, 1.555, "NVIDIA A100 40GB SXM datasheet"),
            new Part("A100 80GB PCIe", 19.5, 1.935, "NVIDIA A100 80GB PCIe datasheet"),
            new Part("A100", 19.5, 1.555, "NVIDIA A100 40GB datasheet"),
            new Part("L40S", 91.6, 0.864, "NVIDIA L40S datasheet"),
            new Part("L4", 30.3, 0.3, "NVIDIA L4 datasheet"),
            new Part("T4", 8.1, 0.32, "NVIDIA T4 datasheet"),
            new Part("RTX 5090", 104.8, 1.792, "NVIDIA GeForce RTX 5090 specifications"),
            new Part("RTX 4090", 82.6, 1.008, "NVIDIA GeForce RTX 4090 specifications"));

    /** The vendor's figures for the GPU {@code name} names ({@code NVIDIA H200}, an adapter's description); empty for a part not listed. */
    public static Optional<DevicePeak> ofGpu(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String n = name.toUpperCase(Locale.ROOT);
        return GPUS.stream().filter(p -> n.contains(p.match().toUpperCase(Locale.ROOT))).findFirst()
                .map(p -> new DevicePeak(name, p.tflops() * 1e12, OptionalDouble.of(p.tbps() * 1e12), "the vendor's figure (" + p.source() + ")"));
    }

    /**
     * A CPU's compute roof: {@code cores × clock × fp32 FLOPs a cycle}, the FLOPs a cycle from its widest vector FMA (two units
     * assumed: AVX-512 64, AVX2 with FMA 32, AVX 16, SSE or NEON 16 and 8); empty where the clock or the cores are unknown.
     *
     * @param clockHz the clock the host reports (a virtual machine's nominal one; cores may boost above it)
     * @param simd    the SIMD extensions the host reports ({@link HostInfo#simdFlags})
     */
    public static Optional<DevicePeak> ofCpu(String model, int physicalCores, double clockHz, List<String> simd) {
        if (physicalCores < 1 || !(clockHz > 0)) {
            return Optional.empty();
        }
        boolean amd = model != null && model.toUpperCase(Locale.ROOT).contains("AMD");
        int perCycle;
        String isa;
        if (simd.contains("avx512f")) {
            perCycle = amd ? 32 : 64; // AMD's first AVX-512 (Zen 4) runs 512-bit FMAs on two 256-bit halves
            isa = amd ? "AVX-512 on 256-bit units" : "AVX-512 FMA";
        } else if (simd.contains("avx2") && simd.contains("fma")) {
            perCycle = 32;
            isa = "AVX2 FMA";
        } else if (simd.contains("avx")) {
            perCycle = 16;
            isa = "AVX";
        } else if (simd.contains("neon")) {
            perCycle = 16;
            isa = "NEON FMA";
        } else {
            perCycle = 8;
            isa = "SSE";
        }
        return Optional.of(new DevicePeak(model, physicalCores * clockHz * perCycle, OptionalDouble.empty(), String.format(Locale.ROOT,
                "reckoned: %d cores × %.2f GHz as reported × %d FLOP a cycle (%s, two units assumed); boost clocks run higher",
                physicalCores, clockHz / 1e9, perCycle, isa)));
    }

    /** {@link #ofCpu(String, int, double, List)} of a host, at the clock its facts give ({@link HostInfo#CPU_CLOCK_HZ}). */
    public static Optional<DevicePeak> ofCpu(HostInfo host) {
        double hz;
        try {
            hz = Double.parseDouble(host.facts().getOrDefault(HostInfo.CPU_CLOCK_HZ, "NaN"));
        } catch (NumberFormatException e) {
            hz = Double.NaN;
        }
        return ofCpu(host.cpuModel(), host.physicalCores(), hz, host.simdFlags());
    }

    /** The most tokens a second a decoder reading {@code bytesPerToken} of weights a token can make here; empty without a bandwidth. */
    public OptionalDouble tokensPerSecondBound(double bytesPerToken) {
        return bytesPerSecond.isPresent() && bytesPerToken > 0 ? OptionalDouble.of(bytesPerSecond.getAsDouble() / bytesPerToken)
                : OptionalDouble.empty();
    }
}
