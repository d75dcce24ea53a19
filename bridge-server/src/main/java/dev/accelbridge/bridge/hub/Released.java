package dev.accelbridge.bridge.hub;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.bridge.protocol.PageMessages;
import dev.accelbridge.bridge.protocol.ReleasedAnswer;
import dev.accelbridge.core.GpuLedger;
import dev.accelbridge.core.PublicApi;

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
 * @param placementCheck  the session's placement check where its load left it for the release (the page's first session
 *                        on the provider: its figure holds the engine's start), made after the window closed; else null
 */
@PublicApi
public record Released(long jsHeapBytes, GpuLedger gpu, long wasmBeforeBytes, long wasmAfterBytes, long gpuLiveBytes,
                       PlacementCheck placementCheck) {
    /** Nothing told. */
    public static final Released UNKNOWN = new Released(-1, null, -1, -1, -1, null);
    /** The largest count taken from a page: more than any device holds (1 PiB). */
    static final long MAX_BYTES = 1L << 50;

    /** The page's answer read as counts. */
    static Released of(JsonNode answer) {
        return of(PageMessages.read(answer, ReleasedAnswer.class));
    }

    /**
     * The page's answer read as counts. The page's GPU figures are absolute bytes of live buffers; the ledger's are the
     * case's own, above the window's baseline, and are worked out here, once.
     */
    static Released of(ReleasedAnswer answer) {
        ReleasedAnswer.Ledger ledger = answer.ledger() == null ? new ReleasedAnswer.Ledger(null, null, null, null, null) : answer.ledger();
        ReleasedAnswer.GpuWindow g = ledger.gpu();
        GpuLedger gpu = null;
        if (g != null) {
            long base = count(g.baselineBytes());
            long peak = count(g.peakLiveBytes());
            long after = count(g.afterLiveBytes());
            long allocated = count(g.allocatedBytes());
            long largest = count(g.largestBufferBytes());
            long buffers = count(g.buffers());
            ReleasedAnswer.GpuLimits limits = g.limits() == null ? new ReleasedAnswer.GpuLimits(null, null) : g.limits();
            if (base >= 0 && peak >= base && after >= 0 && allocated >= 0 && largest >= 0 && buffers >= 0 && buffers <= Integer.MAX_VALUE) {
                gpu = new GpuLedger(peak - base, allocated, Math.max(0, after - base), largest, (int) buffers,
                        count(limits.maxBufferSize()), count(limits.maxStorageBufferBindingSize()));
            }
        }
        return new Released(count(answer.memory() == null ? null : answer.memory().usedJSHeapSize()), gpu,
                count(ledger.wasmBeforeBytes()), count(ledger.wasmAfterBytes()),
                count(answer.holding() == null ? null : answer.holding().gpuLiveBytes()), PlacementCheck.of(answer.placement()));
    }

    /** The wasm memory the case grew, -1 when unknown. */
    public long wasmGrowthBytes() {
        return wasmBeforeBytes >= 0 && wasmAfterBytes >= wasmBeforeBytes ? wasmAfterBytes - wasmBeforeBytes
                : wasmBeforeBytes < 0 && wasmAfterBytes >= 0 ? wasmAfterBytes : -1;
    }

    private static long count(Long n) {
        return n != null && n >= 0 && n < MAX_BYTES ? n : -1;
    }
}
