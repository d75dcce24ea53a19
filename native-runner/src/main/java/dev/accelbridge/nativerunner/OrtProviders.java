package dev.accelbridge.nativerunner;

import ai.djl.engine.Engine;
import ai.djl.util.cuda.CudaUtils;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtProvider;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the native side knows of ONNX Runtime's execution providers, in one place: how a backend's provider is added to
 * session options, how ORT's profiler names it, and whether it registers on this host (the evidence the probes decide
 * on).
 */
final class OrtProviders {
    private OrtProviders() {
    }

    /**
     * What the probes decide on: ONNX Runtime's version and providers (after starting DJL's engine), the exact error each
     * accelerated provider raises when added to session options, DJL's CUDA device count, OSHI's GPUs and CPU.
     */
    static NativeEnvironment gather() {
        HostInfo host = HostDetector.detect();
        String engineError = null;
        String ortVersion = null;
        List<String> providers = List.of();
        Map<BackendId, String> epErrors = new EnumMap<>(BackendId.class);
        try {
            Engine.getEngine(DjlOnnxRuntimeProvider.ENGINE); // creates ORT's environment with DJL's threading options
            ortVersion = OrtEnvironment.getEnvironment().getVersion();
            providers = OrtEnvironment.getAvailableProviders().stream().map(OrtProvider::getName).toList();
            for (BackendId b : List.of(BackendId.CUDA, BackendId.ROCM, BackendId.COREML, BackendId.OPENVINO, BackendId.NATIVE_WEBGPU)) {
                String err = tryAddProvider(b);
                if (err != null) {
                    epErrors.put(b, err);
                }
            }
        } catch (RuntimeException | LinkageError e) {
            engineError = DjlOnnxRuntimeProvider.rootMessage(e);
        }
        int cudaCount = 0;
        String cudaNote;
        try {
            if (CudaUtils.hasCuda()) {
                cudaCount = CudaUtils.getGpuCount();
                cudaNote = "CUDA runtime " + CudaUtils.getCudaVersionString();
            } else {
                cudaNote = "DJL found no CUDA runtime (libcudart)";
            }
        } catch (RuntimeException | LinkageError e) {
            cudaNote = "DJL's CUDA query failed: " + DjlOnnxRuntimeProvider.rootMessage(e);
        }
        String osDescription;
        try {
            osDescription = host.os();
        } catch (RuntimeException e) {
            osDescription = System.getProperty("os.name");
        }
        return new NativeEnvironment(ortVersion, engineError, providers, epErrors, System.getProperty("os.name"),
                osDescription, System.getProperty("os.arch"), cudaCount, cudaNote, host.gpus(), HostDetector.gpuSource(),
                host.cpuModel(),
                host.physicalCores(), host.logicalCores(), host.simdFlags());
    }

    /** Adds the backend's provider to throw-away session options; returns ORT's error, or null when it registers. */
    private static String tryAddProvider(BackendId b) {
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions()) {
            addProvider(so, b);
            return null;
        } catch (OrtException | RuntimeException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        } catch (LinkageError e) { // an older ONNX Runtime Java (a runner of 1.19) has no addWebGPU
            return "this ONNX Runtime Java has no such call (" + e + ")";
        }
    }

    /** How ONNX Runtime's profiler names the provider of {@code b}. */
    static String ortProviderName(BackendId b) {
        return switch (b) {
            case CUDA -> "CUDAExecutionProvider";
            case ROCM -> "ROCMExecutionProvider";
            case COREML -> "CoreMLExecutionProvider";
            case OPENVINO -> "OpenVINOExecutionProvider";
            case NATIVE_WEBGPU -> "WebGpuExecutionProvider";
            default -> "CPUExecutionProvider";
        };
    }

    static void addProvider(OrtSession.SessionOptions so, BackendId b) throws OrtException {
        switch (b) {
            case CUDA -> so.addCUDA(0);
            case ROCM -> so.addROCM();
            case COREML -> so.addCoreML();
            case OPENVINO -> so.addOpenVINO("");
            case NATIVE_WEBGPU -> so.addWebGPU(Map.of());
            default -> {
            }
        }
    }
}
