package dev.accelbridge.bridge.hub;

import dev.accelbridge.core.NamedTensor;

import java.util.List;

/**
 * What a page reports for a {@code run} job; every time is measured in the page with {@code performance.now()}
 * around {@code await session.run(feeds)}.
 *
 * @param firstMs    the session's first run (NaN when the session had run before)
 * @param warmups    warm-up runs after the first, not timed
 * @param samplesMs  the timed runs, in order
 * @param outputs    the outputs of the last timed run, in the session's output order
 * @param warnings   ORT's warnings during the job
 * @param jsHeapBytes {@code performance.memory.usedJSHeapSize} after the runs, or -1 where the browser has none
 * @param timerResolutionMs the smallest step of the page's {@code performance.now()}, measured by the page (NaN: unknown)
 * @param readbackMs the page's measured empty WebGPU readback round trip (NaN: not WebGPU, or not measured)
 * @param gpuMs      GPU time per inference from timestamp queries, on a run outside the timed ones (NaN: none)
 * @param warmupMs   the warm-up runs' time in all, measured in the page (NaN: not measured)
 * @param warmupSettled whether the warm-up went on until the runs stopped getting faster ({@code settle.mjs}); null when
 *                   not judged
 * @param warmupTrend the warm-up's last block against the one before it, minus one (NaN: not judged)
 * @param decoding   a generation job's figures (its samples are its timed generations, its first the cold one); null for
 *                   a run job
 * @param encoder    an encoder-decoder's encoder session, made for the generation job: its fetch, creation and placement,
 *                   counted with the decoder's load as natively; null otherwise
 * @param floorStopped the page stopped sampling once three runs showed a latency floor ({@code floor.mjs})
 */
@dev.accelbridge.core.PublicApi
public record RunOutcome(double firstMs, int warmups, double[] samplesMs, List<NamedTensor> outputs, List<String> warnings,
                         long jsHeapBytes, double timerResolutionMs, double readbackMs, double gpuMs, double warmupMs,
                         Boolean warmupSettled, double warmupTrend, dev.accelbridge.core.Decoding decoding,
                         LoadedSession encoder, boolean floorStopped) {
    public RunOutcome {
        samplesMs = samplesMs.clone();
        outputs = List.copyOf(outputs);
        warnings = List.copyOf(warnings);
    }

    /** The first run's time and warnings joined to the rest of the case's job ({@code rest}). */
    public RunOutcome after(RunOutcome first) {
        return new RunOutcome(first.firstMs(), warmups, samplesMs, outputs,
                java.util.stream.Stream.concat(first.warnings().stream(), warnings.stream()).toList(), jsHeapBytes,
                timerResolutionMs, readbackMs, gpuMs, warmupMs, warmupSettled, warmupTrend, decoding, encoder, floorStopped);
    }

    /** The case's figures, with the page's clock, its readback floor and the GPU's own time. */
    public dev.accelbridge.core.Timings timings(double sessionMs, double firstMs) {
        var t = dev.accelbridge.core.Timings.of(sessionMs, firstMs, warmups, samplesMs).withClock(timerResolutionMs, readbackMs);
        return t.withQuality(t.quality().withGpuMs(gpuMs).withWarmup(warmupMs, warmupSettled, warmupTrend)
                .withFloorStopped(floorStopped)).withDecoding(decoding);
    }
}
