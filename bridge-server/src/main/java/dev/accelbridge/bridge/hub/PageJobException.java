package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.BridgeServerException;
import dev.accelbridge.bridge.protocol.FromPage;
import dev.accelbridge.core.PublicApi;

/**
 * A job a page could not finish. {@link #kind()} says how it ended; for {@link Kind#PAGE_ERROR} the message is the
 * page's own error text (e.g. onnxruntime-web's), and {@link #code()} the protocol error code.
 */
@PublicApi
public class PageJobException extends BridgeServerException {
    /** How a job ended without a result. */
    public enum Kind {
        /** The page answered with an error frame. */
        PAGE_ERROR,
        /** No answer within the job's timeout. */
        TIMEOUT,
        /** The page's WebSocket closed (browser crashed, was killed, or navigated away). */
        DISCONNECTED,
        /** The page reported that its GPU device was lost. */
        DEVICE_LOST,
        /** Inputs or outputs could not cross: a frame above the limit, outputs above the job's budget or the heap left. */
        TRANSFER
    }

    /**
     * A WebGPU buffer the page's ledger saw asked for above the device's limit, in numbers: the request, the limit's name
     * and its value. WebGPU answers such a request with an invalid buffer, so the job's work was not computed.
     *
     * @param bytes      the buffer asked for
     * @param limit      the device limit it broke ({@code maxBufferSize})
     * @param limitBytes that limit's value
     */
    public record RefusedBuffer(long bytes, String limit, long limitBytes) {
        private static final java.util.regex.Pattern LIMIT = java.util.regex.Pattern.compile("[A-Za-z]{1,40}");

        /** What the page said, when it is a request in bytes above a named limit; else empty (never guessed). */
        static java.util.Optional<RefusedBuffer> of(FromPage.OverLimit o) {
            if (o == null || o.bytes() == null || o.limitBytes() == null || o.limit() == null || o.bytes() < 0 || o.limitBytes() < 0
                    || !LIMIT.matcher(o.limit()).matches()) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(new RefusedBuffer(o.bytes(), o.limit(), o.limitBytes()));
        }
    }

    private final Kind kind;
    private final String code;
    private final transient java.util.Optional<RefusedBuffer> refusedBuffer;

    public PageJobException(Kind kind, String code, String message) {
        this(kind, code, message, java.util.Optional.empty());
    }

    /** A job the page failed, with the buffer the device refused it, if any. */
    public PageJobException(Kind kind, String code, String message, java.util.Optional<RefusedBuffer> refusedBuffer) {
        super(message, switch (kind) {
            case PAGE_ERROR -> null;
            case TIMEOUT -> "raise the job timeout (--timeout) or use a smaller model; the browser is restarted";
            case DISCONNECTED, DEVICE_LOST -> "the browser is restarted for the next case";
            case TRANSFER -> "raise the limit named (--max-result-mb, the JVM's -Xmx) or run the model with smaller outputs";
        });
        this.kind = kind;
        this.code = code;
        this.refusedBuffer = refusedBuffer;
    }

    /** The WebGPU buffer above the device's limit the job asked for, as the page's ledger saw it. */
    public java.util.Optional<RefusedBuffer> refusedBuffer() {
        return refusedBuffer;
    }

    /** How the job ended. */
    public Kind kind() {
        return kind;
    }

    /** The protocol error code ({@code load-failed}, {@code run-failed}, ...), or the kind in lower case. */
    public String code() {
        return code;
    }
}
