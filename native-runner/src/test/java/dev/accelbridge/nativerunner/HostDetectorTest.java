package dev.accelbridge.nativerunner;

import dev.accelbridge.core.HostInfo;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class HostDetectorTest {
    @Test
    void detectsThisHost() {
        HostInfo h = HostDetector.detect();
        assertThat(h.cpuModel()).isNotBlank();
        assertThat(h.logicalCores()).isPositive();
        assertThat(h.physicalCores()).isPositive();
        assertThat(h.memoryBytes()).isPositive();
        assertThat(h.os()).isNotBlank();
        assertThat(h.arch()).isEqualTo(System.getProperty("os.arch"));
        assertThat(h.javaVersion()).contains(Runtime.version().toString());
        assertThat(h.fingerprint()).matches("[0-9a-f]{16}");
        assertThat(HostDetector.detect()).isSameAs(h);
        assertThat(h.gpus()).allSatisfy(g -> assertThat(g).isNotBlank());
    }

    @Test
    void findsSimdOnX86() {
        String arch = System.getProperty("os.arch");
        assumeTrue(arch.equals("amd64") || arch.equals("x86_64"), "x86-64 only, this is " + arch);
        assertThat(HostDetector.detect().simdFlags()).contains("sse4_2");
    }

    @Test
    void filtersCpuinfoFlagLines() {
        List<String> x86 = HostDetector.simdFlags(List.of(
                "flags\t\t: fpu vme sse sse2 ssse3 sse4_1 sse4_2 avx f16c fma avx2 avx512f avx512_vnni avx512_bf16 amx_tile rdrand"));
        assertThat(x86).containsExactly("sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512_vnni",
                "avx512_bf16", "amx_tile");
        List<String> arm = HostDetector.simdFlags(List.of("Features\t: fp asimd evtstrm aes pmull sha1 asimddp sve"));
        assertThat(arm).containsExactly("neon", "asimd", "asimddp", "sve");
        assertThat(HostDetector.simdFlags(List.of())).isEmpty();
    }

    @Test
    void fingerprintIsStableAndSensitive() {
        String a = HostDetector.fingerprint("EPYC", 2, 2, 1L << 34, "Debian 12", "amd64", List.of());
        assertThat(HostDetector.fingerprint("EPYC", 2, 2, 1L << 34, "Debian 12", "amd64", List.of())).isEqualTo(a);
        assertThat(HostDetector.fingerprint("EPYC", 2, 2, 1L << 34, "Debian 12", "amd64", List.of("NVIDIA A100")))
                .isNotEqualTo(a);
        assertThat(a).hasSize(16);
    }

    /** Found when tried: a kernel update made a "new host" and cut every cell's history. */
    @Test
    void aKernelUpdateOrAFewReservedMegabytesAreNotANewHost() {
        String before = HostDetector.osRelease("Debian GNU/Linux", "12");
        assertThat(before).isEqualTo("Debian GNU/Linux 12");
        String a = HostDetector.fingerprint("EPYC", 2, 2, 24L << 30, before, "amd64", List.of());
        // same machine after a kernel update: OSHI's toString changes (build 6.1.0-27 → 6.1.0-28), the release does not;
        // the kernel reserves a little more memory
        String b = HostDetector.fingerprint("EPYC", 2, 2, (24L << 30) - (90L << 20), HostDetector.osRelease("Debian GNU/Linux", "12"),
                "amd64", List.of());
        assertThat(b).isEqualTo(a);
        // a real change of hardware or release is a new host
        assertThat(HostDetector.fingerprint("EPYC", 2, 2, 32L << 30, before, "amd64", List.of())).isNotEqualTo(a);
        assertThat(HostDetector.fingerprint("EPYC", 2, 2, 24L << 30, HostDetector.osRelease("Debian GNU/Linux", "13"), "amd64",
                List.of())).isNotEqualTo(a);
        assertThat(HostDetector.detect().os()).as("the full OS string stays as provenance").isNotBlank();
    }

    @Test
    void describesGpus() {
        assertThat(HostDetector.describeGpu("NVIDIA Corporation", "GA102", 24L << 30)).isEqualTo("NVIDIA Corporation GA102 (24576 MiB)");
        assertThat(HostDetector.describeGpu("unknown", "Virtio GPU", 0)).isEqualTo("Virtio GPU");
    }
}
