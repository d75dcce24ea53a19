package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.core.TensorSpec;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The page's meaning of the session options ({@link RuntimeOption}), in one place: which outputs a session leaves on the
 * GPU, whether it captures its graph, and its graph optimization level. The native runner's meaning is its own ({@code ModelLoader}).
 */
final class PageOptions {
    private PageOptions() {
    }

    /**
     * The outputs a WebGPU session of {@code mc} leaves on the GPU ({@code preferredOutputLocation: 'gpu-buffer'}; the
     * page reads them back inside the timed run): {@code auto}, a decoder's cache (fed back to the next step, as
     * transformers.js keeps it); {@code gpu-buffer}, every output; {@code cpu}, none. None on other backends.
     */
    static List<String> gpuOutputs(ModelCase mc, BackendId backend) {
        if (backend != BackendId.WEBGPU) {
            return List.of();
        }
        List<String> every = mc.model().outputs().stream().map(TensorSpec::name).toList();
        if (graphCapture(mc.runtimeOptions().on(backend))) { // every engine takes it
            return every; // the only location graph capture takes
        }
        return switch (mc.runtimeOptions().get(RuntimeOption.OUTPUTS)) {
            case "cpu" -> List.of();
            case "gpu-buffer" -> every;
            default -> mc.scenario().fedBack();
        };
    }

    /** Whether the session captures its graph ({@code enableGraphCapture}); the page then feeds it GPU buffers. */
    static boolean graphCapture(RuntimeOptions ro) {
        return ro.get(RuntimeOption.GRAPH_CAPTURE).equals("on");
    }

    /**
     * The provider a case of {@code request} runs on in a page of {@code engine}, with its own options where the case has
     * some: every session of the case (timed, profiled, placement-checked) is made with it, and its provenance names it.
     */
    static ExecutionProviderSpec ep(ExecutionRequest request, OrtWebEngine engine) {
        return ExecutionProviderSpec.of(request.backend(), engine).withOptions(epOptions(on(request, engine)));
    }

    /**
     * The session options a case of {@code request} runs with in a page of {@code engine}: those that apply on its backend
     * and engine (the native WebGPU EP's own are left out on JSEP, which drops them unread).
     */
    static RuntimeOptions on(ExecutionRequest request, OrtWebEngine engine) {
        return request.modelCase().runtimeOptions().on(request.backend(), engine);
    }

    /**
     * The WebGPU provider's own options for {@code ro} as onnxruntime-web names them in {@code executionProviders}: the native
     * WebGPU EP's {@code validationMode} and {@code storageBufferCacheMode} where they are not its defaults ({@code ro} holds
     * only what applies to the page's engine, so JSEP, which drops them unread, is never given them).
     */
    private static Map<String, String> epOptions(RuntimeOptions ro) {
        Map<String, String> out = new TreeMap<>();
        ro.values().forEach((o, v) -> {
            switch (o) {
                case VALIDATION -> out.put("validationMode", camel(v));
                case BUFFER_CACHE -> out.put("storageBufferCacheMode", camel(v));
                default -> {
                }
            }
        });
        return out;
    }

    private static final Pattern HYPHENED = Pattern.compile("-(.)");

    /** {@code wgpu-only} as onnxruntime-web spells it: {@code wgpuOnly}. */
    private static String camel(String v) {
        return HYPHENED.matcher(v).replaceAll(m -> m.group(1).toUpperCase(Locale.ROOT));
    }

    /** onnxruntime-web's {@code graphOptimizationLevel} for {@code ro}: the option's value, which the page passes as it is. */
    static String graphOptimizationLevel(RuntimeOptions ro) {
        return ro.get(RuntimeOption.OPTIMIZATION);
    }
}
