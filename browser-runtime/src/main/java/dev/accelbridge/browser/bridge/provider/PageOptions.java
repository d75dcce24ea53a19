package dev.accelbridge.browser.bridge.provider;

import dev.accelbridge.browser.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.core.TensorSpec;

import java.util.List;

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
            default -> mc.generation() == null ? List.of() : mc.generation().layout().cache().stream().map(DecoderLayout.Cache::present).toList();
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
    static ExecutionProviderSpec ep(dev.accelbridge.core.ExecutionRequest request, dev.accelbridge.core.OrtWebEngine engine) {
        // the options that apply on this page's engine (the native WebGPU EP's own are left out on JSEP, which drops them)
        RuntimeOptions ro = request.modelCase().runtimeOptions().on(request.backend(), engine);
        return ExecutionProviderSpec.of(request.backend(), engine).withOptions(epOptions(ro));
    }

    /**
     * The WebGPU provider's own options for {@code ro} as onnxruntime-web names them in {@code executionProviders}: the native
     * WebGPU EP's {@code validationMode} and {@code storageBufferCacheMode} where they are not its defaults ({@code ro} holds
     * only what applies to the page's engine, so JSEP, which drops them unread, is never given them).
     */
    private static java.util.Map<String, String> epOptions(RuntimeOptions ro) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
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

    /** {@code wgpu-only} as onnxruntime-web spells it: {@code wgpuOnly}. */
    private static String camel(String v) {
        StringBuilder b = new StringBuilder();
        boolean up = false;
        for (char c : v.toCharArray()) {
            if (c == '-') {
                up = true;
            } else {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return b.toString();
    }

    /** onnxruntime-web's {@code graphOptimizationLevel} for {@code ro}: the option's value, which the page passes as it is. */
    static String graphOptimizationLevel(RuntimeOptions ro) {
        return ro.get(RuntimeOption.OPTIMIZATION);
    }
}
