package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

/**
 * A message a page sends the bridge: one record per kind, its fields the message's fields, read by {@link PageMessages}
 * (the envelope, {@code v}, {@code type} and {@code job}, is read before). The page is another program: every field may be
 * missing or of another type, which reads as null (unknown), and the hub's readers bound and check what they take.
 */
@PublicApi
public sealed interface FromPage permits Hello, Loaded, ResultHeader, Profiled, ReleasedAnswer, FromPage.Progress, FromPage.Pong,
        FromPage.ProbeAnswer, FromPage.PageError, FromPage.ResultChunk {
    /** The message's kind: its {@code type}. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    MessageKind kind();

    /** Where a job is: {@code done} of {@code total} in {@code phase} ({@code warmup}, {@code timed}, ...). */
    record Progress(String phase, Integer done, Integer total) implements FromPage {
        @Override
        public MessageKind kind() {
            return MessageKind.PROGRESS;
        }

    }

    /** A ping's answer, with the page's clock then. */
    record Pong(Double pageNow) implements FromPage {
        @Override
        public MessageKind kind() {
            return MessageKind.PONG;
        }

    }

    /** A probe job's answer: the browser probed again. */
    record ProbeAnswer(@com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = ProbeReader.class) PageProbe probe)
            implements FromPage {
        @Override
        public MessageKind kind() {
            return MessageKind.PROBE;
        }

    }

    /**
     * A job's failure, or the page's own ({@code device-lost}, with the session it belonged to): a code, the message, and
     * when a WebGPU buffer above the device's limit was asked for, that request in numbers.
     */
    record PageError(String code, String message, String session, OverLimit overLimit) implements FromPage {
        @Override
        public MessageKind kind() {
            return MessageKind.ERROR;
        }

    }

    /**
     * A WebGPU buffer the device refused: its size, the limit it broke ({@code maxBufferSize}) and the limit's value.
     *
     * @param bytes      the buffer asked for
     * @param limit      the device limit's name
     * @param limitBytes the device limit's value
     * @param usage      the buffer's usage flags
     */
    record OverLimit(Long bytes, String limit, Long limitBytes, Long usage) {
    }

    /** A part of a chunked result: output {@code tensor}'s bytes from {@code offset}, in the frame's payload. */
    record ResultChunk(Integer tensor, Long offset) implements FromPage {
        @Override
        public MessageKind kind() {
            return MessageKind.RESULT_CHUNK;
        }

    }

    /** The page's JS heap ({@code performance.memory}), where the browser tells it. */
    record Heap(Long usedJSHeapSize, Long totalJSHeapSize) {
    }
}
