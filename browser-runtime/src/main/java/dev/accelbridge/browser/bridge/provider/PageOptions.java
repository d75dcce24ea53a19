package dev.accelbridge.browser.bridge.provider;

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
        if (graphCapture(mc.runtimeOptions().on(backend))) {
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

    /** onnxruntime-web's {@code graphOptimizationLevel} for {@code ro}: the option's value, which the page passes as it is. */
    static String graphOptimizationLevel(RuntimeOptions ro) {
        return ro.get(RuntimeOption.OPTIMIZATION);
    }
}
