package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.BridgeServerException;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.PublicApi;

import dev.accelbridge.core.BackendId;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The onnxruntime-web execution provider a session is created with.
 *
 * @param name       {@code webgpu}, {@code webnn} or {@code wasm}
 * @param deviceType the WebNN {@code deviceType} ({@code cpu}, {@code gpu}, {@code npu}); null otherwise
 * @param engine     the onnxruntime-web engine of the page, which decides which provider {@code webgpu} is
 * @param options    the provider's own options as onnxruntime-web names them in {@code executionProviders}
 *                   ({@code validationMode}, {@code storageBufferCacheMode}: the native WebGPU EP's); empty: its defaults
 */
@PublicApi
public record ExecutionProviderSpec(String name, String deviceType, OrtWebEngine engine, Map<String, String> options) {
    public ExecutionProviderSpec {
        java.util.Objects.requireNonNull(engine, "the engine whose page runs the provider");
        options = Collections.unmodifiableMap(options == null ? new TreeMap<>() : new TreeMap<>(options)); // in name order
    }

    /** A provider at its defaults. */
    public ExecutionProviderSpec(String name, String deviceType, OrtWebEngine engine) {
        this(name, deviceType, engine, Map.of());
    }

    /** The same provider with its own {@code options}. */
    public ExecutionProviderSpec withOptions(Map<String, String> o) {
        return new ExecutionProviderSpec(name, deviceType, engine, o);
    }

    /** The provider that runs {@code backend} on a page of the pinned engine ({@link OrtWebEngine#PINNED}). */
    public static ExecutionProviderSpec of(BackendId backend) {
        return of(backend, OrtWebEngine.PINNED);
    }

    /** The provider that runs {@code backend} on a page of {@code engine}. */
    public static ExecutionProviderSpec of(BackendId backend, OrtWebEngine engine) {
        if (backend.isWebnn()) {
            return new ExecutionProviderSpec("webnn", backend.webnnDeviceType(), engine);
        }
        return switch (backend) {
            case WEBGPU -> new ExecutionProviderSpec("webgpu", null, engine);
            case WASM -> new ExecutionProviderSpec("wasm", null, engine);
            default -> throw new BridgeServerException(backend + " is not a browser backend",
                    "use webgpu, webnn-cpu, webnn-gpu, webnn-npu or wasm");
        };
    }

    /**
     * How onnxruntime-web's profiler and placement name this provider: WebGPU is {@code JsExecutionProvider} through JSEP
     * and {@code WebGpuExecutionProvider} on the native EP (measured: the native EP's profile names every node so).
     */
    public String ortProviderName() {
        return switch (name) {
            case "webgpu" -> engine == OrtWebEngine.JSEP ? "JsExecutionProvider" : "WebGpuExecutionProvider";
            case "webnn" -> "WebNNExecutionProvider";
            default -> "CPUExecutionProvider";
        };
    }

    /**
     * Whether this is onnxruntime-web's wasm backend, whose one EP is the CPU EP: where its nodes run is known without a
     * check (and the check, a session made with CPU fallback disabled, is refused on it whatever the model).
     */
    public boolean cpuOnly() {
        return Placement.CPU_EP.equals(ortProviderName());
    }

    /** What to do when a browser lacks this provider: the flag or browser that brings it. */
    public String fixWhenMissing() {
        return switch (name) {
            case "webgpu" -> "start Chromium with --enable-unsafe-webgpu (a software SwiftShader adapter without a GPU) or use a browser with WebGPU";
            case "webnn" -> "use a browser with a WebNN backend (e.g. --browser chromium-shell) started with "
                    + "--enable-features=WebMachineLearningNeuralNetwork";
            default -> "use a browser with WebAssembly SIMD";
        };
    }

    /** Whether this engine's profiler gives GPU kernel times: JSEP reads WebGPU timestamp queries; the native EP has none. */
    public boolean gpuKernelTimes() {
        return name.equals("webgpu") && engine == OrtWebEngine.JSEP;
    }

    @Override
    public String toString() {
        return (deviceType == null ? name : name + "/" + deviceType) + (options.isEmpty() ? "" : options.toString());
    }
}
