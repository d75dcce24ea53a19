package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * A run or generation job's {@code result} frame header: the times measured in the page, its clock and settling, a
 * generation's own figures, and the tensors the frame (or the chunks after it) carries.
 *
 * @param session           the session
 * @param firstMs           the session's first run, or the cold generation; null when the session had run before
 * @param warmups           the untimed runs
 * @param samplesMs         the timed runs (or whole generations)
 * @param memory            the JS heap after the runs
 * @param warnings          onnxruntime-web's warnings meanwhile
 * @param timerResolutionMs the smallest step of the page's clock
 * @param readbackMs        an empty WebGPU readback's round trip
 * @param gpuMs             the GPU's own time per inference (timestamp queries)
 * @param warmupMs          the warm-up's time in all
 * @param warmupSettled     whether the warm-up went on until the runs stopped getting faster
 * @param warmupTrend       the warm-up's last block against the one before, minus one
 * @param floorStopped      the sampling stopped on a latency floor
 * @param decode            a generation's figures; absent for a run
 * @param encoder           an encoder-decoder's encoder session, made for the generation
 * @param chunked           true: the tensors follow in {@code result-chunk} frames
 * @param tensors           the tensors' table ({@link FrameCodec})
 */
@PublicApi
public record ResultHeader(String session, Double firstMs, Integer warmups, List<Double> samplesMs, FromPage.Heap memory,
                           List<String> warnings, Double timerResolutionMs, Double readbackMs, Double gpuMs, Double warmupMs,
                           Boolean warmupSettled, Double warmupTrend, Boolean floorStopped, Decode decode, Loaded encoder,
                           Boolean chunked, List<TensorEntry> tensors) implements FromPage {
    @Override
    public MessageKind kind() {
        return MessageKind.RESULT;
    }

    /**
     * A generation's figures: the prompt's tokens, each timed generation's step times, the cold one's, the cache's bytes,
     * each generation's encoder time and the teacher-forced pass's.
     */
    public record Decode(Integer promptTokens, List<List<Double>> stepsMs, List<Double> coldStepsMs, Long kvCacheBytes,
                         List<Double> encoderMs, Double teacherMs) {
    }

    /** One tensor of the frame: its name, element type, shape, and where its bytes are in the payload. */
    public record TensorEntry(String name, String dtype, List<Long> shape, Long offset, Long byteLength) {
    }
}
