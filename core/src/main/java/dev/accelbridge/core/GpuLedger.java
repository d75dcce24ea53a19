package dev.accelbridge.core;

import java.util.Locale;

/**
 * What a case held on the GPU, from the page's own buffer ledger: WebGPU has no memory query, so the page counts every
 * buffer a device made ({@code GPUDevice.createBuffer}) and let go ({@code GPUBuffer.destroy}, the device's
 * {@code destroy}, or the buffer collected unreferenced), whichever onnxruntime-web engine made it. Bytes are the case's
 * own: counted from what was live when its session was loaded. The device's limits are those the engine's device was
 * made with (what every buffer is checked against), which may be lower than the adapter's.
 *
 * @param peakBytes          the most bytes live at once during the case, above what was live when it began
 * @param allocatedBytes     bytes of every buffer the case made (a buffer made again counts again)
 * @param leftLiveBytes      bytes still live after its session was released, above what was live when it began (a buffer
 *                           not yet collected counts until it is)
 * @param largestBufferBytes the largest single buffer it made
 * @param buffers            how many buffers it made
 * @param maxBufferSize      the device's {@code maxBufferSize}, -1 when no buffer was made
 * @param maxStorageBufferBindingSize the device's {@code maxStorageBufferBindingSize}, -1 when no buffer was made
 */
@PublicApi
public record GpuLedger(long peakBytes, long allocatedBytes, long leftLiveBytes, long largestBufferBytes, int buffers,
                        long maxBufferSize, long maxStorageBufferBindingSize) {
    /** Where the figures come from, in words a report prints beside them. */
    public static final String SOURCE = "page ledger of GPUDevice.createBuffer and GPUBuffer.destroy";

    public GpuLedger {
        if (peakBytes < 0 || allocatedBytes < 0 || largestBufferBytes < 0 || buffers < 0) {
            throw new IllegalArgumentException("a GPU ledger counts up from zero: " + peakBytes + ", " + allocatedBytes + ", "
                    + largestBufferBytes + ", " + buffers);
        }
    }

    /** The share of the device's {@code maxBufferSize} its largest buffer took, NaN when the limit is unknown. */
    public double largestShareOfLimit() {
        return maxBufferSize > 0 ? (double) largestBufferBytes / maxBufferSize : Double.NaN;
    }

    /** One line: {@code GPU peak 12.3 MiB, 40 buffers (45.1 MiB made), largest 4.0 MiB of 256 MiB, 0 B left}. */
    public String describe() {
        return String.format(Locale.ROOT, "GPU peak %s, %d buffers (%s made), largest %s%s, %s left after release",
                Bytes.iec(peakBytes), buffers, Bytes.iec(allocatedBytes), Bytes.iec(largestBufferBytes),
                maxBufferSize > 0 ? " of " + Bytes.iec(maxBufferSize) + " allowed" : "", Bytes.iec(leftLiveBytes));
    }
}
