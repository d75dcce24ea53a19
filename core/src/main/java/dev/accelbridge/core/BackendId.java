package dev.accelbridge.core;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Typed identifier of an execution backend. The string form ({@link #id()}) is what users type on the
 * command line and what the store, the reports and the JSON output carry.
 */
public enum BackendId {
    /** onnxruntime-web's WebGPU (JSEP) execution provider. */
    WEBGPU("webgpu", BackendKind.BROWSER, null),
    /** onnxruntime-web's WebNN execution provider with {@code deviceType: 'gpu'}. */
    WEBNN_GPU("webnn-gpu", BackendKind.BROWSER, "gpu"),
    /** onnxruntime-web's WebNN execution provider with {@code deviceType: 'cpu'}. */
    WEBNN_CPU("webnn-cpu", BackendKind.BROWSER, "cpu"),
    /** onnxruntime-web's WebNN execution provider with {@code deviceType: 'npu'}. */
    WEBNN_NPU("webnn-npu", BackendKind.BROWSER, "npu"),
    /** onnxruntime-web's WebAssembly (CPU) execution provider. */
    WASM("wasm", BackendKind.BROWSER, null),
    /** ONNX Runtime's CUDA execution provider. */
    CUDA("cuda", BackendKind.NATIVE, null),
    /** ONNX Runtime's ROCm execution provider. */
    ROCM("rocm", BackendKind.NATIVE, null),
    /** ONNX Runtime's CoreML execution provider (the Apple GPU/ANE route; MPS where a PyTorch engine is used). */
    COREML("coreml", BackendKind.NATIVE, null),
    /** ONNX Runtime's OpenVINO execution provider. */
    OPENVINO("openvino", BackendKind.NATIVE, null),
    /**
     * ONNX Runtime's native WebGPU execution provider (Dawn on Vulkan, Metal or D3D12): the same EP onnxruntime-web's
     * native-EP engine compiles to WebAssembly, run natively, so a browser's WebGPU cell has a native twin.
     */
    NATIVE_WEBGPU("native-webgpu", BackendKind.NATIVE, null),
    /** ONNX Runtime's default CPU execution provider: always present, and the reference. */
    CPU("cpu", BackendKind.NATIVE, null);

    private final String id;
    private final BackendKind kind;
    private final String webnnDeviceType;

    BackendId(String id, BackendKind kind, String webnnDeviceType) {
        this.id = id;
        this.kind = kind;
        this.webnnDeviceType = webnnDeviceType;
    }

    /** The lower-case name used on the command line, in the store and in reports. */
    public String id() {
        return id;
    }

    /** Browser or native. */
    public BackendKind kind() {
        return kind;
    }

    /** True for the browser backends. */
    public boolean isBrowser() {
        return kind == BackendKind.BROWSER;
    }

    /** True for any of the WebNN device types. */
    public boolean isWebnn() {
        return webnnDeviceType != null;
    }

    /** The WebNN {@code deviceType} ("cpu", "gpu", "npu"), or null when this is not a WebNN backend. */
    public String webnnDeviceType() {
        return webnnDeviceType;
    }

    /** All backends of one kind, in declaration order. */
    public static List<BackendId> ofKind(BackendKind kind) {
        return Arrays.stream(values()).filter(b -> b.kind == kind).toList();
    }

    /**
     * Parses the command-line form ("webgpu", "webnn-cpu", "cuda", ...), case-insensitively.
     *
     * @throws UnknownBackendException naming the valid ids when {@code text} is none of them
     */
    public static BackendId parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (BackendId b : values()) {
            if (b.id.equals(t)) {
                return b;
            }
        }
        throw new UnknownBackendException(text);
    }

    /** Parses a comma-separated list; blanks are ignored; duplicates are kept once, in first-seen order. */
    public static List<BackendId> parseList(String csv) {
        return Arrays.stream(csv.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .map(BackendId::parse)
                .distinct()
                .toList();
    }

    /** The valid ids, comma-separated, for error messages and help text. */
    public static String validIds() {
        return Arrays.stream(values()).map(BackendId::id).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id;
    }
}
