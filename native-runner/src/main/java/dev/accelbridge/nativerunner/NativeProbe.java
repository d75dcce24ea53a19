package dev.accelbridge.nativerunner;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendKind;

import java.util.List;
import java.util.Locale;

/**
 * The pure decision behind the native probes: given what ONNX Runtime, DJL and OSHI reported
 * ({@link NativeEnvironment}), is a native backend available, and what is the evidence. No I/O here, so the
 * decision can be tested for hosts this machine is not (a CUDA box, a Mac).
 *
 * <p>Rules: {@code cpu} needs ORT's CPU provider. {@code cuda} needs the CUDA provider in ORT's list, the
 * provider to register without error, and at least one CUDA device. {@code rocm} needs the ROCm provider
 * registered (and, when OSHI lists GPUs, an AMD one). {@code coreml} needs macOS and the CoreML provider.
 * {@code openvino} needs the OpenVINO provider. The evidence always names the provider list, so a user can
 * see why.
 */
final class NativeProbe {
    /** The {@code where} of every native availability. */
    public static final String WHERE = "native";

    private NativeProbe() {
    }

    /** ONNX Runtime's name of the execution provider that serves {@code backend}. */
    public static String providerName(BackendId backend) {
        return switch (backend) {
            case CPU -> "CPUExecutionProvider";
            case CUDA -> "CUDAExecutionProvider";
            case ROCM -> "ROCMExecutionProvider";
            case COREML -> "CoreMLExecutionProvider";
            case OPENVINO -> "OpenVINOExecutionProvider";
            case NATIVE_WEBGPU -> "WebGpuExecutionProvider";
            default -> throw new IllegalArgumentException(backend + " is not a native backend");
        };
    }

    /** Decides one backend's availability from the gathered facts. */
    public static Availability decide(BackendId backend, NativeEnvironment env) {
        if (backend.kind() != BackendKind.NATIVE) {
            return Availability.unavailable(backend, backend + " is a browser backend; the native runner does not serve it", WHERE);
        }
        if (env.engineError() != null) {
            return Availability.unavailable(backend, "DJL's OnnxRuntime engine could not start: " + env.engineError(), WHERE);
        }
        String ep = providerName(backend);
        boolean listed = env.ortProviders().contains(ep);
        String epError = env.epErrors().get(backend);
        StringBuilder ev = new StringBuilder("ONNX Runtime ").append(env.ortVersion()).append(" providers ")
                .append(env.ortProviders());
        if (backend == BackendId.CPU) {
            ev.append("; CPU: ").append(env.cpuModel()).append(" (").append(env.physicalCores()).append(" cores, ")
                    .append(env.logicalCores()).append(" threads), SIMD ")
                    .append(env.simdFlags().isEmpty() ? "none detected" : String.join(",", env.simdFlags()));
            return new Availability(backend, listed, listed ? ev.toString() : ev + "; " + ep + " is missing", WHERE);
        }
        ev.append("; ").append(ep).append(listed ? " listed" : " not listed");
        if (epError != null) {
            ev.append("; adding it to a session fails: ").append(oneLine(epError));
        } else if (listed) {
            ev.append(" and registers");
        }
        boolean ok = listed && epError == null;
        switch (backend) {
            case CUDA -> {
                ev.append("; CUDA devices: ").append(env.cudaDeviceCount());
                if (env.cudaNote() != null) {
                    ev.append(" (").append(env.cudaNote()).append(")");
                }
                ok = ok && env.cudaDeviceCount() > 0;
            }
            case ROCM -> {
                List<String> amd = env.gpus().stream().filter(NativeProbe::isAmd).toList();
                ok = ok && env.isLinux() && (env.gpus().isEmpty() || !amd.isEmpty());
                if (!env.isLinux()) {
                    ev.append("; OS: ").append(env.osName()).append(" (ROCm runs on Linux only)");
                }
            }
            case COREML -> {
                ev.append("; OS: ").append(env.osDescription() == null ? env.osName() : env.osDescription());
                if (!env.isMac()) {
                    ev.append(" (CoreML needs macOS)");
                }
                ok = ok && env.isMac();
            }
            default -> {
            }
        }
        ev.append("; GPUs (").append(env.gpuSource() == null ? "OSHI" : env.gpuSource()).append("): ").append(env.gpus().isEmpty() ? "none" : String.join(", ", env.gpus()));
        return new Availability(backend, ok, ev.toString(), WHERE);
    }

    /** What a user does to get {@code backend} when it is unavailable. */
    public static String fix(BackendId backend) {
        return switch (backend) {
            case CPU -> "use a platform ONNX Runtime ships for (linux x64/aarch64, macOS arm64, windows x64)";
            case CUDA -> "on an NVIDIA host with the driver and CUDA 12 + cuDNN 9 installed, build with the GPU "
                    + "profile (com.microsoft.onnxruntime:onnxruntime_gpu replaces onnxruntime); see docs/native-gpu.md";
            case ROCM -> "on a Linux host with an AMD GPU and ROCm, point -Donnxruntime.native.path=DIR at an ONNX "
                    + "Runtime build made with --use_rocm; see docs/native-gpu.md";
            case COREML -> "run on macOS (arm64) with an ONNX Runtime build that includes the CoreML provider; "
                    + "see docs/native-gpu.md";
            case OPENVINO -> "install Intel's OpenVINO runtime and point -Donnxruntime.native.path=DIR at an ONNX "
                    + "Runtime build made with --use_openvino; see docs/native-gpu.md";
            case NATIVE_WEBGPU -> "build Accelbridge with its npm packages (native-runner/webgpu: onnxruntime-node 1.29.0, whose "
                    + "library has ONNX Runtime's WebGPU EP) on linux-x64; see docs/native-gpu.md";
            default -> "choose a native backend: cpu, cuda, rocm, coreml, openvino, native-webgpu";
        };
    }

    private static boolean isAmd(String gpu) {
        String g = gpu.toLowerCase(Locale.ROOT);
        return g.contains("amd") || g.contains("advanced micro devices") || g.contains("ati ");
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
