package dev.accelbridge.bridge.hub;

import java.nio.ByteBuffer;

/** The sending side of one page's WebSocket (a seam so the job logic does not depend on Jetty). */
public interface PageChannel {
    void sendText(String text);

    void sendBinary(ByteBuffer data);

    void close(int code, String reason);

    /**
     * Sends a last text frame, then closes once it is written: sends are asynchronous, and a close issued right
     * after one can overtake it and drop the connection (the page then sees 1006 instead of {@code code}).
     */
    void sendThenClose(String text, int code, String reason);

    /** The largest message this connection may send from now on (Jetty closes it with 1009 beyond that). */
    default void allowMessages(long bytes) {
    }
}
