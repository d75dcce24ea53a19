package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.HalfPrecisionWithheld;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.suites.ModelFootprint;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Will it run here? A float16 model needs the lane to compute in float16 ({@link #checkPrecision}). Will it fit? Before
 * a browser case is loaded, its {@link ModelFootprint} is held against the lane's limits:
 * onnxruntime-web is a wasm32 module whatever its execution provider, so the model file, its weights, the inputs, the
 * declared outputs and the largest declared activation must fit in 4 GiB of address space together; on WebGPU every
 * tensor is a GPU buffer bound as storage, so none may exceed the adapter's {@code maxBufferSize} or
 * {@code maxStorageBufferBindingSize}. A case that cannot fit is UNSUPPORTED ({@code fit: ...}) with the limit and the
 * tensor, at once, and its chain moves on; the estimate is a lower bound, so what passes here may still run out of
 * memory, which the run then reports as such.
 */
final class LaneFit {
    /** What a wasm32 module can address. */
    public static final long WASM32_BYTES = 4L << 30;

    private LaneFit() {
    }

    /** Empty when {@code fp} fits {@code backend} in the page {@code probe} describes, else why not. */
    public static Optional<String> problem(ModelFootprint fp, BackendId backend, PageProbe probe) {
        long wasm = fp.modelFileBytes() + fp.weightBytes() + fp.inputBytes() + fp.outputBytes()
                + (fp.largestActivation() == null ? 0 : fp.largestActivation().bytes());
        if (wasm > WASM32_BYTES) {
            ModelFootprint.Tensor a = fp.largestActivation();
            return Optional.of(String.format(Locale.ROOT, "the case needs at least %,d bytes in onnxruntime-web's wasm32 memory "
                    + "(model file %,d, weights %,d, inputs %,d, declared outputs %,d%s), above the %,d bytes (4 GiB) a wasm32 "
                    + "module can address", wasm, fp.modelFileBytes(), fp.weightBytes(), fp.inputBytes(), fp.outputBytes(),
                    a == null ? ", no activation declared" : ", largest activation '" + a.name() + "' " + String.format(Locale.ROOT, "%,d", a.bytes()),
                    WASM32_BYTES));
        }
        if (backend == BackendId.WEBGPU && probe.webgpu().adapterFound() && fp.largest() != null) {
            for (String limit : new String[]{"maxStorageBufferBindingSize", "maxBufferSize"}) {
                Long max = probe.webgpu().limits().get(limit);
                ModelFootprint.Tensor t = fp.largest();
                if (max != null && max > 0 && t.bytes() > max) {
                    return Optional.of(String.format(Locale.ROOT, "%s '%s' has %,d bytes, above the WebGPU adapter's %s of %,d "
                            + "bytes (%s)", t.kind(), t.name(), t.bytes(), limit, max, probe.webgpu().label()));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Throws UNSUPPORTED ({@code fit}) when {@code fp} cannot fit.
     *
     * @throws UnsupportedModelException naming the limit and the tensor
     */
    public static void check(ModelFootprint fp, BackendId backend, PageProbe probe, String where) {
        problem(fp, backend, probe).ifPresent(p -> {
            throw new UnsupportedModelException(Phase.FIT, p + where, backend == BackendId.WEBGPU
                    ? "run it on wasm, or on an adapter with larger buffer limits" : "use a smaller input or model (a wasm64 build "
                    + "of onnxruntime-web lifts the 4 GiB limit)", null);
        });
    }

    /**
     * float16 compute on WebGPU needs the adapter's {@code shader-f16} feature: a model with float16 tensors at its
     * edges, or an fp16 variant (float16 inside, float32 edges), is UNSUPPORTED on an adapter without it, with the
     * features it does offer as the evidence.
     */
    public static void checkPrecision(BackendId backend, ModelSpec model, Precision precision, PageProbe probe,
                                      String browserLabel) {
        boolean fp16 = precision.halfFloat();
        for (List<TensorSpec> l : List.of(model.inputs(), model.outputs())) {
            for (TensorSpec t : l) {
                fp16 |= t.dtype() == DType.FLOAT16;
            }
        }
        if (!fp16) {
            return;
        }
        if (backend.webnnDeviceType() != null) {
            // WebNN says which data types a context takes in opSupportLimits(); when it lists them without float16, say so
            var ctx = probe.webnn().forDevice(backend.webnnDeviceType());
            String limits = ctx.map(PageProbe.WebNnContext::opSupportLimits).orElse(null);
            if (limits != null && limits.contains("inputDataTypes") && !limits.contains("float16")) {
                throw new UnsupportedModelException("Model " + model.name() + " computes in float16 but the WebNN "
                        + backend.webnnDeviceType() + " context in " + browserLabel + " takes no float16 (opSupportLimits "
                        + limits + ")", "run the fp32 variant of the model on this backend", null);
            }
            return;
        }
        if (backend == BackendId.WEBGPU && !probe.webgpu().hasFeature("shader-f16")) {
            String withheld = HalfPrecisionWithheld.why(probe.userAgent(), probe.webgpu().vendor(), false).map(w -> "; " + w).orElse("");
            throw new UnsupportedModelException("Model " + model.name() + " computes in float16 but the WebGPU adapter "
                    + probe.webgpu().label() + " in " + browserLabel + " lacks the shader-f16 feature (its features: "
                    + (probe.webgpu().features().isEmpty() ? "none" : String.join(", ", probe.webgpu().features())) + ")" + withheld,
                    "run the fp32 variant of the model, or use a browser/adapter that offers shader-f16", null);
        }
    }

    /** Footprints per case (reading a large model's file once), dropped by identity when the case is gone. */
    private static final java.util.Map<ModelCase, ModelFootprint> FOOTPRINTS =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    /**
     * Throws UNSUPPORTED ({@code fit}) when {@code mc} cannot fit; a model that cannot be read here is left to the page,
     * whose own load then says why in onnxruntime-web's words.
     */
    public static void check(ModelCase mc, BackendId backend, PageProbe probe, String where) {
        ModelFootprint fp;
        try {
            fp = FOOTPRINTS.computeIfAbsent(mc, ModelFootprint::of);
        } catch (RuntimeException e) {
            return;
        }
        check(fp, backend, probe, where);
    }
}
