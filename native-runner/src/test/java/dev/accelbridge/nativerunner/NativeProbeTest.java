package dev.accelbridge.nativerunner;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The probe decision table, over constructed environments (no CUDA GPU or Mac exists here). */
class NativeProbeTest {
    private static final String CPU_EP = "CPUExecutionProvider";

    private static NativeEnvironment env(List<String> providers, Map<BackendId, String> epErrors, String os,
                                         int cudaDevices, List<String> gpus) {
        return new NativeEnvironment("1.29.0", null, providers, epErrors, os, os + " 1.0", "amd64", cudaDevices,
                cudaDevices > 0 ? "CUDA runtime 12.4" : "DJL found no CUDA runtime (libcudart)", gpus, "lspci",
                "Test CPU", 8, 16, List.of("avx2", "fma"));
    }

    @Test
    void cpuIsAvailableWithTheCpuProviderAndNamesTheCpu() {
        Availability a = NativeProbe.decide(BackendId.CPU, env(List.of(CPU_EP), Map.of(), "Linux", 0, List.of()));
        assertThat(a.available()).isTrue();
        assertThat(a.evidence()).contains("ONNX Runtime 1.29.0 providers [CPUExecutionProvider]", "Test CPU", "avx2,fma");
        assertThat(a.where()).isEqualTo("native");
    }

    @Test
    void cudaWithoutProviderIsUnavailableWithTheProviderListAndOrtError() {
        Availability a = NativeProbe.decide(BackendId.CUDA, env(List.of(CPU_EP),
                Map.of(BackendId.CUDA, "Failed to find CUDA shared provider"), "Linux", 0, List.of()));
        assertThat(a.available()).isFalse();
        assertThat(a.evidence()).contains("providers [CPUExecutionProvider]", "CUDAExecutionProvider not listed",
                "Failed to find CUDA shared provider", "CUDA devices: 0", "libcudart", "GPUs (lspci): none");
    }

    @Test
    void cudaNeedsProviderAndDevice() {
        List<String> gpuEps = List.of("CUDAExecutionProvider", CPU_EP);
        List<String> nvidia = List.of("NVIDIA Corporation GA102 [GeForce RTX 3090] (24576 MiB)");
        assertThat(NativeProbe.decide(BackendId.CUDA, env(gpuEps, Map.of(), "Linux", 1, nvidia)).available()).isTrue();
        // the provider is there but there is no device: a GPU build of ORT on a host without a GPU
        Availability noDevice = NativeProbe.decide(BackendId.CUDA, env(gpuEps, Map.of(), "Linux", 0, List.of()));
        assertThat(noDevice.available()).isFalse();
        assertThat(noDevice.evidence()).contains("CUDAExecutionProvider listed", "CUDA devices: 0");
        // a GPU but the CPU-only ORT jar
        Availability cpuJar = NativeProbe.decide(BackendId.CUDA, env(List.of(CPU_EP), Map.of(), "Linux", 2, nvidia));
        assertThat(cpuJar.available()).isFalse();
        assertThat(cpuJar.evidence()).contains("not listed", "CUDA devices: 2", "GeForce RTX 3090");
        // listed, but registering it fails (e.g. cuDNN missing): the exact error is the evidence
        Availability broken = NativeProbe.decide(BackendId.CUDA, env(gpuEps,
                Map.of(BackendId.CUDA, "libcudnn.so.9: cannot open shared object file"), "Linux", 1, nvidia));
        assertThat(broken.available()).isFalse();
        assertThat(broken.evidence()).contains("libcudnn.so.9");
    }

    @Test
    void rocmNeedsProviderOnLinuxAndNoForeignGpuOnly() {
        List<String> eps = List.of("ROCMExecutionProvider", CPU_EP);
        assertThat(NativeProbe.decide(BackendId.ROCM, env(eps, Map.of(), "Linux", 0,
                List.of("Advanced Micro Devices, Inc. [AMD/ATI] Navi 31"))).available()).isTrue();
        assertThat(NativeProbe.decide(BackendId.ROCM, env(eps, Map.of(), "Linux", 0,
                List.of("NVIDIA Corporation AD102"))).available()).isFalse();
        assertThat(NativeProbe.decide(BackendId.ROCM, env(eps, Map.of(), "Windows 11", 0, List.of())).evidence())
                .contains("ROCm runs on Linux only");
        Availability missing = NativeProbe.decide(BackendId.ROCM, env(List.of(CPU_EP),
                Map.of(BackendId.ROCM, "Failed to find ROCM shared provider"), "Linux", 0, List.of()));
        assertThat(missing.available()).isFalse();
        assertThat(missing.evidence()).contains("ROCMExecutionProvider not listed", "Failed to find ROCM shared provider");
    }

    @Test
    void coremlNeedsMacOsAndTheProvider() {
        List<String> eps = List.of("CoreMLExecutionProvider", CPU_EP);
        assertThat(NativeProbe.decide(BackendId.COREML, env(eps, Map.of(), "Mac OS X", 0, List.of())).available()).isTrue();
        Availability linux = NativeProbe.decide(BackendId.COREML, env(eps, Map.of(), "Linux", 0, List.of()));
        assertThat(linux.available()).isFalse();
        assertThat(linux.evidence()).contains("CoreML needs macOS");
        Availability macWithoutEp = NativeProbe.decide(BackendId.COREML, env(List.of(CPU_EP),
                Map.of(BackendId.COREML, "This binary was not compiled with CoreML support."), "Mac OS X", 0, List.of()));
        assertThat(macWithoutEp.available()).isFalse();
        assertThat(macWithoutEp.evidence()).contains("not compiled with CoreML");
    }

    @Test
    void openvinoNeedsTheProvider() {
        assertThat(NativeProbe.decide(BackendId.OPENVINO, env(List.of("OpenVINOExecutionProvider", CPU_EP), Map.of(),
                "Linux", 0, List.of())).available()).isTrue();
        Availability a = NativeProbe.decide(BackendId.OPENVINO, env(List.of(CPU_EP),
                Map.of(BackendId.OPENVINO, "Failed to find OpenVINO shared provider"), "Linux", 0, List.of()));
        assertThat(a.available()).isFalse();
        assertThat(a.evidence()).contains("[CPUExecutionProvider]", "OpenVINOExecutionProvider not listed");
    }

    @Test
    void engineFailureMakesEverythingUnavailableWithTheError() {
        NativeEnvironment broken = new NativeEnvironment(null, "UnsatisfiedLinkError: libonnxruntime.so: musl",
                List.of(), Map.of(), "Linux", "Alpine", "amd64", 0, null, List.of(), "lspci", "cpu", 1, 1, List.of());
        for (BackendId b : BackendId.ofKind(dev.accelbridge.core.BackendKind.NATIVE)) {
            Availability a = NativeProbe.decide(b, broken);
            assertThat(a.available()).as(b.id()).isFalse();
            assertThat(a.evidence()).contains("could not start", "musl");
        }
    }

    @Test
    void aMissingLspciIsNotReportedAsNoGpu() {
        NativeEnvironment e = new NativeEnvironment("1.29.0", null, List.of(CPU_EP), Map.of(), "Linux", "Debian",
                "amd64", 0, null, List.of(), "lspci not installed, GPUs unknown: apt-get install pciutils", "cpu", 1, 1,
                List.of());
        assertThat(NativeProbe.decide(BackendId.CUDA, e).evidence()).contains("lspci not installed");
    }

    @Test
    void browserBackendsAreNotServed() {
        assertThat(NativeProbe.decide(BackendId.WEBGPU, env(List.of(CPU_EP), Map.of(), "Linux", 0, List.of())).available())
                .isFalse();
    }

    @Test
    void everyNativeBackendHasAFixAndProviderName() {
        for (BackendId b : BackendId.ofKind(dev.accelbridge.core.BackendKind.NATIVE)) {
            assertThat(NativeProbe.fix(b)).isNotBlank();
            assertThat(NativeProbe.providerName(b)).endsWith("ExecutionProvider");
        }
    }
}
