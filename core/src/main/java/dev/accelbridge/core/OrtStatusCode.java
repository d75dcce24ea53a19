package dev.accelbridge.core;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ONNX Runtime's status codes ({@code OrtErrorCode} in its C API), as onnxruntime-web reports them when it refuses a
 * session ({@code Can't create a session. ERROR_CODE: 2, ERROR_MESSAGE: ...}): one type, so what a code means for a
 * case is said once rather than picked out of the message by each reader.
 */
@PublicApi
public enum OrtStatusCode {
    /** A failure with no more specific code; may come from a C++ exception mid-way through making the session. */
    FAIL(1),
    /** An argument the runtime refused, checked before any kernel ran. */
    INVALID_ARGUMENT(2),
    /** A file that is not there. */
    NO_SUCHFILE(3),
    /** No model. */
    NO_MODEL(4),
    /** The engine failed. */
    ENGINE_ERROR(5),
    /** A runtime exception, thrown while the session was being made. */
    RUNTIME_EXCEPTION(6),
    /** Bytes that are not an ONNX protobuf. */
    INVALID_PROTOBUF(7),
    /** A model loaded already. */
    MODEL_LOADED(8),
    /** An op with no implementation ("Could not find an implementation for X"). */
    NOT_IMPLEMENTED(9),
    /** A graph that does not check. */
    INVALID_GRAPH(10),
    /** An execution provider failed; may come from a C++ exception mid-way. */
    EP_FAIL(11);

    private static final Pattern SESSION_REFUSAL = Pattern.compile("Can't create a session\\. ERROR_CODE: (\\d{1,3}),");

    private final int code;

    OrtStatusCode(int code) {
        this.code = code;
    }

    /** The number ONNX Runtime gives it. */
    public int code() {
        return code;
    }

    /** The code of onnxruntime-web's refusal to make a session in {@code message}; empty when it holds none or one unknown here. */
    public static Optional<OrtStatusCode> ofSessionRefusal(String message) {
        Matcher m = SESSION_REFUSAL.matcher(message == null ? "" : message);
        if (!m.find()) {
            return Optional.empty();
        }
        int n = Integer.parseInt(m.group(1));
        for (OrtStatusCode c : values()) {
            if (c.code == n) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * A refusal the graph optimizer can cause (a failure or a runtime exception while the session was made), so a lower
     * optimization level may load the model; a file that does not parse, an op with no kernel or a graph that does not check
     * fails the same at every level.
     */
    public boolean optimizable() {
        return this == FAIL || this == RUNTIME_EXCEPTION;
    }

    /**
     * A refusal returned, not thrown, while the model was read and checked, before any kernel ran, so the runtime's state
     * is as before; {@link #FAIL}, {@link #RUNTIME_EXCEPTION} and {@link #EP_FAIL} may come from a C++ exception mid-way,
     * which can leave a page's module broken.
     */
    public boolean cleanRefusal() {
        return switch (this) {
            case INVALID_ARGUMENT, NO_SUCHFILE, NO_MODEL, INVALID_PROTOBUF, NOT_IMPLEMENTED, INVALID_GRAPH -> true;
            default -> false;
        };
    }
}
