package dev.accelbridge.nativerunner;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.HostInfo;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.GraphicsCard;
import oshi.hardware.HardwareAbstractionLayer;
import oshi.software.os.OperatingSystem;

import java.io.File;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Describes the host through OSHI: CPU model, cores, SIMD flags, memory, GPUs (OSHI reads them with
 * {@code lspci} on Linux, so the list is empty without Debian's {@code pciutils}), OS, architecture, Java, and
 * a stable fingerprint. OSHI is slow to start (a few hundred ms), so its {@link SystemInfo} is made once and
 * the answer cached.
 */
@PublicApi
public final class HostDetector {
    /** The SIMD extensions reported, in this order, when the CPU has them. */
    static final List<String> SIMD = List.of("sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f",
            "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile",
            "amx_int8", "amx_bf16", "neon", "asimd", "asimddp", "asimdhp", "sve", "sve2", "i8mm", "bf16");

    private static volatile HostInfo cached;

    private HostDetector() {
    }

    /** The host, detected on first call and cached for the process. */
    public static HostInfo detect() {
        HostInfo h = cached;
        if (h == null) {
            synchronized (HostDetector.class) {
                if (cached == null) {
                    cached = detectNow();
                }
                h = cached;
            }
        }
        return h;
    }

    /**
     * Where OSHI's GPU list comes from on this OS; on Linux it says when {@code lspci} is missing, because
     * OSHI then lists no GPU even where there is one.
     */
    public static String gpuSource() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) {
            boolean found = Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator))
                    .map(d -> Path.of(d, "lspci")).anyMatch(Files::isExecutable)
                    || Files.isExecutable(Path.of("/usr/bin/lspci")) || Files.isExecutable(Path.of("/sbin/lspci"));
            return found ? "lspci" : "lspci not installed, GPUs unknown: apt-get install pciutils";
        }
        if (os.startsWith("mac")) {
            return "system_profiler";
        }
        return os.startsWith("windows") ? "WMI" : "OSHI";
    }

    /** OSHI's entry point, made once per process. */
    static SystemInfo systemInfo() {
        return Holder.SI;
    }

    private static final class Holder {
        static final SystemInfo SI = new SystemInfo();
    }

    private static HostInfo detectNow() {
        SystemInfo si = systemInfo();
        HardwareAbstractionLayer hw = si.getHardware();
        OperatingSystem os = si.getOperatingSystem();
        CentralProcessor cpu = hw.getProcessor();
        String arch = System.getProperty("os.arch");
        String model = cpu.getProcessorIdentifier().getName();
        if (model == null || model.isBlank()) {
            model = cpu.getProcessorIdentifier().getVendor() + " " + cpu.getProcessorIdentifier().getMicroarchitecture();
        }
        model = model.trim();
        List<String> simd = simdFlags(cpu.getFeatureFlags());
        List<String> gpus = new ArrayList<>();
        for (GraphicsCard g : hw.getGraphicsCards()) {
            gpus.add(describeGpu(g.getVendor(), g.getName(), g.getVRam()));
        }
        String osText = os.toString();
        long mem = hw.getMemory().getTotal();
        int physical = cpu.getPhysicalProcessorCount();
        int logical = cpu.getLogicalProcessorCount();
        // The fingerprint keys the matrix's host dimension (history, regression baselines): it names the hardware and
        // the OS release, not the kernel build OSHI's OS string carries, so a kernel update is not a new host.
        String fp = fingerprint(model, physical, logical, mem, osRelease(os.getFamily(), os.getVersionInfo().getVersion()), arch, gpus);
        long hz = cpu.getMaxFreq() > 0 ? cpu.getMaxFreq() : cpu.getProcessorIdentifier().getVendorFreq();
        if (hz <= 0) { // a virtual machine may say neither: the cores' current clocks, as /proc/cpuinfo gives them
            hz = java.util.Arrays.stream(cpu.getCurrentFreq()).max().orElse(-1);
        }
        return new HostInfo(hostname(os), fp, osText, arch, model, physical, logical, simd, mem, gpus,
                System.getProperty("java.vm.vendor") + " " + Runtime.version(),
                hz > 0 ? java.util.Map.of(HostInfo.CPU_CLOCK_HZ, Long.toString(hz)) : java.util.Map.of());
    }

    /**
     * The SIMD extensions in OSHI's feature lines (on Linux the {@code flags} / {@code Features} lines of
     * {@code /proc/cpuinfo}; on macOS and Windows named features), filtered to {@link #SIMD} and
     * de-duplicated. ARM's {@code asimd} also reports {@code neon}.
     */
    static List<String> simdFlags(List<String> featureLines) {
        Set<String> seen = new LinkedHashSet<>();
        for (String line : featureLines) {
            String body = line.contains(":") ? line.substring(line.indexOf(':') + 1) : line;
            for (String tok : body.trim().split("[\\s,]+")) {
                String t = tok.toLowerCase(Locale.ROOT).replace("hw.optional.", "").replace("pf_", "");
                seen.add(t);
            }
        }
        if (seen.contains("asimd") || seen.contains("neon") || seen.contains("arm_neon")) {
            seen.add("neon");
        }
        return SIMD.stream().filter(seen::contains).toList();
    }

    /** "vendor name (N MiB)" with whatever parts OSHI knows. */
    static String describeGpu(String vendor, String name, long vram) {
        StringBuilder b = new StringBuilder();
        if (vendor != null && !vendor.isBlank() && !"unknown".equalsIgnoreCase(vendor)) {
            b.append(vendor.trim());
        }
        if (name != null && !name.isBlank()) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(name.trim());
        }
        if (vram > 0) {
            b.append(" (").append(vram / (1024 * 1024)).append(" MiB)");
        }
        return b.length() == 0 ? "unknown GPU" : b.toString();
    }

    /** "Debian GNU/Linux 12": OS family and release, without the build (a Linux kernel's version and build). */
    static String osRelease(String family, String version) {
        String f = family == null ? "" : family.trim();
        String v = version == null ? "" : version.trim();
        return (f + " " + v).trim();
    }

    /**
     * A stable id of what makes figures comparable across runs: CPU model, core counts, memory rounded to whole GiB
     * (the kernel's reserved memory moves the exact total between boots and kernels), OS release (not its build),
     * architecture and GPUs. The exact figures stay in the host's detect output as provenance.
     */
    static String fingerprint(String cpuModel, int physical, int logical, long memoryBytes, String os, String arch,
                              List<String> gpus) {
        long gib = Math.round(memoryBytes / (double) (1L << 30));
        return HostInfo.fingerprintOf(java.util.Arrays.asList(cpuModel, Integer.toString(physical), Integer.toString(logical),
                Long.toString(gib), os, arch, String.join(";", gpus)));
    }

    private static String hostname(OperatingSystem os) {
        String n = os.getNetworkParams().getHostName();
        if (n != null && !n.isBlank()) {
            return n;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }
}
