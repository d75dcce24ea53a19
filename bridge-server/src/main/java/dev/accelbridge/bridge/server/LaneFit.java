package dev.accelbridge.bridge.server;

import dev.accelbridge.browser.page.PageProbe;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.suites.ModelFootprint;

import java.util.Locale;
import java.util.Optional;

/**
 * Will it fit? Before a browser case is loaded, its {@link ModelFootprint} is held against the lane's limits:
 * onnxruntime-web is a wasm32 module whatever its execution provider, so the model file, its weights, the inputs, the
 * declared outputs and the largest declared activation must fit in 4 GiB of address space together; on WebGPU every
 * tensor is a GPU buffer bound as storage, so none may exceed the adapter's {@code maxBufferSize} or
 * {@code maxStorageBufferBindingSize}. A case that cannot fit is UNSUPPORTED ({@code fit: ...}) with the limit and the
 * tensor, at once, and its chain moves on; the estimate is a lower bound, so what passes here may still run out of
 * memory, which the run then reports as such.
 */
public final class LaneFit {
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
}
