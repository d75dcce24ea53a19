package dev.accelbridge.bridge.hub;

import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.ScenarioFigures;
import dev.accelbridge.core.Timings;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a page reports for a {@code run} or {@code generate} job; every time is measured in the page with
 * {@code performance.now()} around {@code await session.run(feeds)}. Built by {@link #of} and its {@code with} steps.
 *
 * @param firstMs    the session's first run, or the cold generation (NaN when the session had run before)
 * @param warmups    warm-up runs after the first, not timed
 * @param samplesMs  the timed runs (a generation's: its timed generations), in order
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
 * @param floorStopped the page stopped sampling once three runs showed a latency floor ({@code floor.mjs})
 * @param figures    what the job's scenario adds, as a case's timings hold it: nothing for a single pass
 *                   ({@link ScenarioFigures#SINGLE_PASS}), a generation's own figures ({@link Decoding}: its samples are its
 *                   timed generations, its first the cold one)
 * @param encoder    for an encoder-decoder's generation, the encoder's session the page made for the job (its fetch,
 *                   creation and placement, counted with the decoder's load as natively); empty otherwise
 */
@PublicApi
public record RunOutcome(double firstMs, int warmups, double[] samplesMs, List<NamedTensor> outputs, List<String> warnings,
                         long jsHeapBytes, double timerResolutionMs, double readbackMs, double gpuMs, double warmupMs,
                         Boolean warmupSettled, double warmupTrend, boolean floorStopped, ScenarioFigures figures,
                         Optional<LoadedSession> encoder) {
    public RunOutcome {
        samplesMs = samplesMs.clone();
        outputs = List.copyOf(outputs);
        warnings = List.copyOf(warnings);
        Objects.requireNonNull(figures, "figures");
        Objects.requireNonNull(encoder, "encoder");
    }

    /** A job's runs and outputs, its clock and warm-up not told (NaN, null). */
    public static RunOutcome of(double firstMs, int warmups, double[] samplesMs, List<NamedTensor> outputs, List<String> warnings,
                                long jsHeapBytes, ScenarioFigures figures, Optional<LoadedSession> encoder) {
        return new RunOutcome(firstMs, warmups, samplesMs, outputs, warnings, jsHeapBytes, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, null, Double.NaN, false, figures, encoder);
    }

    /** With the page's clock: its resolution, its readback floor and the GPU's own time per inference. */
    public RunOutcome withClock(double timerResolutionMs, double readbackMs, double gpuMs) {
        return new RunOutcome(firstMs, warmups, samplesMs, outputs, warnings, jsHeapBytes, timerResolutionMs, readbackMs, gpuMs,
                warmupMs, warmupSettled, warmupTrend, floorStopped, figures, encoder);
    }

    /** With the warm-up's time, whether it settled and its trend, and whether the sampling stopped on a floor. */
    public RunOutcome withWarmup(double warmupMs, Boolean warmupSettled, double warmupTrend, boolean floorStopped) {
        return new RunOutcome(firstMs, warmups, samplesMs, outputs, warnings, jsHeapBytes, timerResolutionMs, readbackMs, gpuMs,
                warmupMs, warmupSettled, warmupTrend, floorStopped, figures, encoder);
    }

    /** The first run's time and warnings joined to the rest of the case's job ({@code rest}). */
    public RunOutcome after(RunOutcome first) {
        return new RunOutcome(first.firstMs(), warmups, samplesMs, outputs,
                Stream.concat(first.warnings().stream(), warnings.stream()).toList(), jsHeapBytes,
                timerResolutionMs, readbackMs, gpuMs, warmupMs, warmupSettled, warmupTrend, floorStopped, figures, encoder);
    }

    /** The case's figures, with the page's clock, its readback floor and the GPU's own time. */
    public Timings timings(double sessionMs, double firstMs) {
        var t = Timings.of(sessionMs, firstMs, warmups, samplesMs).withClock(timerResolutionMs, readbackMs);
        t = t.withQuality(t.quality().withGpuMs(gpuMs).withWarmup(warmupMs, warmupSettled, warmupTrend).withFloorStopped(floorStopped));
        return figures instanceof Decoding d ? t.withDecoding(d) : t;
    }
}
