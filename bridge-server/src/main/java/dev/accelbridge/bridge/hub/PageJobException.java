package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.BridgeServerException;

/**
 * A job a page could not finish. {@link #kind()} says how it ended; for {@link Kind#PAGE_ERROR} the message is the
 * page's own error text (e.g. onnxruntime-web's), and {@link #code()} the protocol error code.
 */
@dev.accelbridge.core.PublicApi
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

    private final Kind kind;
    private final String code;

    public PageJobException(Kind kind, String code, String message) {
        super(message, switch (kind) {
            case PAGE_ERROR -> null;
            case TIMEOUT -> "raise the job timeout (--timeout) or use a smaller model; the browser is restarted";
            case DISCONNECTED, DEVICE_LOST -> "the browser is restarted for the next case";
            case TRANSFER -> "raise the limit named (--max-result-mb, the JVM's -Xmx) or run the model with smaller outputs";
        });
        this.kind = kind;
        this.code = code;
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
