package dev.accelbridge.bridge.server;

import java.nio.ByteBuffer;

/** The sending side of one page's WebSocket (a seam so the job logic does not depend on Jetty). */
interface PageChannel {
    void sendText(String text);

    void sendBinary(ByteBuffer data);

    void close(int code, String reason);
}
