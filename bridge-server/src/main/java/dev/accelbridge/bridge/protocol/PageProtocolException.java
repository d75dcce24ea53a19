package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.AccelbridgeException;

/** A page message or frame that breaks protocol v1 (docs/protocol.md); the message names what is wrong. */
public class PageProtocolException extends AccelbridgeException {
    /** The error code sent back in the error frame ({@code bad-frame}, {@code unknown-type}, ...). */
    private final String code;

    public PageProtocolException(String code, String problem) {
        super(problem, "send frames as docs/protocol.md describes (protocol v" + FrameCodec.PROTOCOL_VERSION + ")");
        this.code = code;
    }

    /** The protocol error code. */
    public String code() {
        return code;
    }
}
