package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

/**
 * A release's answer: whether the page held the session, its JS heap then, the case's memory window (the ledger's, from
 * before the session was made to its release), what the page's device still holds and a placement check left for the
 * release.
 *
 * @param session the session
 * @param existed whether the page held it
 * @param memory  the JS heap after the release
 * @param ledger  the case's memory window
 * @param holding what the device holds now
 * @param placement the session's placement check, where its load left it for the release ({@code placementAtRelease});
 *                  absent otherwise, null when that check failed for another reason than onnxruntime-web's refusal
 */
@PublicApi
public record ReleasedAnswer(String session, Boolean existed, FromPage.Heap memory, Ledger ledger, Holding holding,
                             Loaded.Placement placement)
        implements FromPage {
    @Override
    public MessageKind kind() {
        return MessageKind.RELEASED;
    }

    /**
     * The case's window: its GPU figures, whether another case's window overlapped it, a buffer the device refused, and
     * the WebAssembly memory before and after.
     */
    public record Ledger(GpuWindow gpu, Boolean overlapped, FromPage.OverLimit overLimit, Long wasmBeforeBytes,
                         Long wasmAfterBytes) {
    }

    /**
     * The GPU in the window, in bytes of live buffers (all the page's, not the case's own): at its start
     * ({@code baselineBytes}), at its highest ({@code peakLiveBytes}) and at its end ({@code afterLiveBytes}); all it
     * allocated, its largest buffer and how many; the device's limits. The case's own peak is {@code core.GpuLedger}'s
     * {@code peakBytes}, above the baseline: a name means one thing on the wire and in Java.
     */
    public record GpuWindow(Long baselineBytes, Long peakLiveBytes, Long afterLiveBytes, Long allocatedBytes, Long largestBufferBytes,
                            Long buffers, GpuLimits limits) {
    }

    /** The device's buffer limits. */
    public record GpuLimits(Long maxBufferSize, Long maxStorageBufferBindingSize) {
    }

    /** What the device holds after the release: live GPU buffers (null when not watched) and the WebAssembly memory. */
    public record Holding(Long gpuLiveBytes, Long wasmBytes) {
    }
}
