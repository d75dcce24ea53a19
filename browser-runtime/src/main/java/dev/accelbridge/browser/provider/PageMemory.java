package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.hub.Released;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.MemoryUsage;

/**
 * A browser case's memory: the process tree the bridge sampled, joined with what the page's ledger counted
 * ({@link Released}): the GPU buffers of a WebGPU case, onnxruntime-web's WebAssembly memory, the JS heap. (A case whose
 * engine asked the device for a buffer above its limit fails in the page with the numbers, which {@link PageFailures}
 * makes UNSUPPORTED.)
 */
final class PageMemory {
    private PageMemory() {
    }

    /**
     * The case's memory figures: the GPU ledger on WebGPU only (another provider's window counts no buffers of its own), the
     * JS heap after the runs, else after the release.
     */
    static MemoryUsage of(MemoryUsage sampled, Released released, BackendId backend, long jsHeapAfterRuns) {
        return sampled.withGpu(backend == BackendId.WEBGPU ? released.gpu() : null)
                .withHeaps(released.wasmAfterBytes(), released.wasmGrowthBytes(), jsHeapAfterRuns >= 0 ? jsHeapAfterRuns : released.jsHeapBytes());
    }
}
