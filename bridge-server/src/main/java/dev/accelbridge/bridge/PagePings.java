package dev.accelbridge.bridge;

import io.javalin.websocket.WsContext;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Keeps each joined page's WebSocket alive through idle proxies with a ping every interval, on one daemon thread that the
 * bridge stops when it closes. Javalin's own automatic pings run on a shared non-daemon thread that is never stopped, so a
 * program embedding the bridge could not end once a page had joined.
 */
final class PagePings implements AutoCloseable {
    private final long intervalSeconds;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "accelbridge-page-pings");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, ScheduledFuture<?>> bySession = new ConcurrentHashMap<>();

    PagePings(long intervalSeconds) {
        this.intervalSeconds = intervalSeconds;
    }

    /** Pings this connection every interval until {@link #stop} or close. */
    void start(WsContext ctx) {
        bySession.put(ctx.sessionId(), timer.scheduleAtFixedRate(() -> ping(ctx), intervalSeconds, intervalSeconds, TimeUnit.SECONDS));
    }

    /** Stops pinging a connection that closed. */
    void stop(String sessionId) {
        ScheduledFuture<?> f = bySession.remove(sessionId);
        if (f != null) {
            f.cancel(false);
        }
    }

    private static void ping(WsContext ctx) {
        try {
            ctx.sendPing();
        } catch (RuntimeException closing) {
            // the connection went away between two pings: its close handler stops these
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        bySession.clear();
    }
}
