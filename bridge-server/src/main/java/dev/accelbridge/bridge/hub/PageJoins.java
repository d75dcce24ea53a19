package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.BridgeServerException;
import dev.accelbridge.bridge.PageNotJoinedException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Who waits for pages to join: a launcher waiting for the page it started (by its launch slot), and the listeners of
 * every join ({@code serve}'s devices). The page hub announces each page that joins here.
 */
final class PageJoins {
    private static final Logger LOG = LoggerFactory.getLogger(PageJoins.class);

    private final Map<String, CompletableFuture<ConnectedPage>> slotWaiters = new ConcurrentHashMap<>();
    private final List<Consumer<ConnectedPage>> listeners = new CopyOnWriteArrayList<>();

    /** A page joined: its slot's waiter and every listener learn of it. */
    void joined(ConnectedPage page) {
        page.slot().ifPresent(slot -> slotWaiters.computeIfAbsent(slot, k -> new CompletableFuture<>()).complete(page));
        for (Consumer<ConnectedPage> l : listeners) {
            try {
                l.accept(page);
            } catch (RuntimeException e) {
                LOG.warn("A page-joined listener failed: {}", e.toString());
            }
        }
    }

    /** Waits for the page launched with {@code slot} to join. */
    ConnectedPage awaitSlot(String slot, Duration timeout) {
        CompletableFuture<ConnectedPage> f = slotWaiters.computeIfAbsent(slot, k -> new CompletableFuture<>());
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new PageNotJoinedException("No page joined for launch slot " + slot + " within " + timeout.toSeconds() + " s",
                    "check that the browser can reach the bridge URL and runs JavaScript modules; raise the join timeout");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BridgeServerException("Interrupted while waiting for a page to join", null, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new BridgeServerException("Waiting for a page failed: " + e.getCause(), null, e.getCause());
        } finally {
            slotWaiters.remove(slot);
        }
    }

    void onJoin(Consumer<ConnectedPage> listener) {
        listeners.add(listener);
    }
}
