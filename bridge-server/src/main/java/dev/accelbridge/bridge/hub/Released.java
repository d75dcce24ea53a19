package dev.accelbridge.bridge.hub;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.GpuLedger;

/**
 * What a page answered when it released a session: its JS heap, and the case's memory window from the page's ledger
 * ({@code ledger.mjs}): the GPU buffers it made and let go, the WebAssembly memory before and after, and what the page
 * still holds. Every number is the page's word, so each is taken only as a count (a non-negative integer below
 * {@link #MAX_BYTES}), else unknown (-1, or no ledger).
 *
 * @param jsHeapBytes     {@code performance.memory.usedJSHeapSize} after the release, -1 where the browser has none
 * @param gpu             the window's GPU ledger; null where WebGPU is absent, the window overlapped another case's (a
 *                        session sent ahead), or no window was open
 * @param wasmBeforeBytes onnxruntime-web's WebAssembly memory when the window opened, -1 when none was instantiated yet
 * @param wasmAfterBytes  the same after the release, -1 when none
 * @param gpuLiveBytes    GPU bytes the page holds now, over all cases, -1 when not watched
 */
@dev.accelbridge.core.PublicApi
public record Released(long jsHeapBytes, GpuLedger gpu, long wasmBeforeBytes, long wasmAfterBytes, long gpuLiveBytes) {
    /** Nothing told. */
    public static final Released UNKNOWN = new Released(-1, null, -1, -1, -1);
    /** The largest count taken from a page: more than any device holds (1 PiB). */
    static final long MAX_BYTES = 1L << 50;

    /** The page's answer read as counts. */
    static Released of(JsonNode answer) {
        JsonNode ledger = answer.path("ledger");
        JsonNode g = ledger.path("gpu");
        GpuLedger gpu = null;
        if (g.isObject()) {
            long base = count(g.path("baselineBytes"));
            long peak = count(g.path("peakBytes"));
            long after = count(g.path("afterBytes"));
            long allocated = count(g.path("allocatedBytes"));
            long largest = count(g.path("largestBufferBytes"));
            long buffers = count(g.path("buffers"));
            if (base >= 0 && peak >= base && after >= 0 && allocated >= 0 && largest >= 0 && buffers >= 0 && buffers <= Integer.MAX_VALUE) {
                gpu = new GpuLedger(peak - base, allocated, Math.max(0, after - base), largest, (int) buffers,
                        count(g.path("limits").path("maxBufferSize")), count(g.path("limits").path("maxStorageBufferBindingSize")));
            }
        }
        return new Released(count(answer.path("memory").path("usedJSHeapSize")), gpu, count(ledger.path("wasmBeforeBytes")),
                count(ledger.path("wasmAfterBytes")), count(answer.path("holding").path("gpuLiveBytes")));
    }

    /** The wasm memory the case grew, -1 when unknown. */
    public long wasmGrowthBytes() {
        return wasmBeforeBytes >= 0 && wasmAfterBytes >= wasmBeforeBytes ? wasmAfterBytes - wasmBeforeBytes
                : wasmBeforeBytes < 0 && wasmAfterBytes >= 0 ? wasmAfterBytes : -1;
    }

    private static long count(JsonNode n) {
        if (!n.isIntegralNumber() && !(n.isNumber() && n.asDouble() == Math.rint(n.asDouble()))) {
            return -1;
        }
        long v = n.asLong(-1);
        return v >= 0 && v < MAX_BYTES ? v : -1;
    }
}
