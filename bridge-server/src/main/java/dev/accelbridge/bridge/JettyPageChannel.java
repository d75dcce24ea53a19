package dev.accelbridge.bridge;

import dev.accelbridge.bridge.hub.PageChannel;
import io.javalin.websocket.WsContext;
import org.eclipse.jetty.websocket.api.Callback;

import java.nio.ByteBuffer;

/**
 * A joined page's WebSocket as the page hub sees it: Javalin's connection, its sends serialised (Jetty allows one frame
 * being written at a time), its message limits raised once the page is admitted, and a last message that closes it.
 */
final class JettyPageChannel implements PageChannel {
    private final WsContext ctx;

    JettyPageChannel(WsContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public synchronized void sendText(String text) {
        ctx.send(text);
    }

    @Override
    public synchronized void sendBinary(ByteBuffer data) {
        ctx.send(data);
    }

    @Override
    public void close(int code, String reason) {
        ctx.closeSession(code, reason);
    }

    @Override
    public void allowMessages(long bytes) {
        ctx.session.setMaxTextMessageSize(bytes);
        ctx.session.setMaxBinaryMessageSize(bytes);
    }

    @Override
    public synchronized void sendThenClose(String text, int code, String reason) {
        Runnable closeNow = () -> ctx.session.close(code, reason, Callback.NOOP);
        ctx.session.sendText(text, Callback.from(closeNow, failure -> closeNow.run()));
    }
}
