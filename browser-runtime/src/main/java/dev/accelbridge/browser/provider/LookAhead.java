package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.ModelRegistry;
import dev.accelbridge.bridge.OutputBudget;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.core.OrtWebEngine;

import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.MinDurations;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * A lane's next cases sent to its page before their turn, while the case before them is still in the page's queue: the
 * page starts each the moment the one before ends, and the round trips of the bridge and the page (6-7 ms a case here,
 * under a sweep's load, against 1.5-2 ms of the page's own work for a one-op case) overlap the cases before. The page
 * runs them one after the other and times each itself, so the figures are those of cases sent on their turn. A case sent
 * ahead is used only when it is the case asked for next, on the same page, and every case before it ended without
 * failing (a failure may have left the page broken, and its recovery comes first); otherwise what was sent ahead is
 * dropped and each case is sent again on its turn.
 */
final class LookAhead {
    private final Deque<ExecutionRequest> hints = new ArrayDeque<>();
    private final Deque<SentCase> sent = new ArrayDeque<>();
    private int used;

    /** A request expected after those hinted before (a lane's next case). */
    synchronized void hint(ExecutionRequest next) {
        hints.add(next);
    }

    /**
     * Sends the hinted cases to {@code page} behind the case now running, in order, while each is one timed run that
     * {@code admit} lets run here and the page is warm for it (the page's first wasm case warms up first: it goes on its
     * turn). Their answers can come only once the cases in front have ended, so their time limits start later by
     * {@code perCase} for each of those.
     */
    synchronized void sendAhead(ConnectedPage page, OrtWebEngine engine, PageWarmth warmth, BridgeServer server, Duration perCase,
                                Consumer<ExecutionRequest> admit) {
        while (!hints.isEmpty()) {
            ExecutionRequest next = hints.poll();
            MinDurations d = next.durations();
            if (!SentCase.oneRun(next) || !warmth.durations(next.backend(), d).equals(d)) {
                hints.clear(); // what follows would queue behind a case sent on its turn
                return;
            }
            try {
                admit.accept(next);
                sent.add(SentCase.send(page, server, next, engine, d, OutputBudget.forCase(next.modelCase(), server.options().maxResultBytes()),
                        perCase.multipliedBy(sent.size() + 1L)));
            } catch (RuntimeException e) {
                hints.clear(); // it goes on its turn, and meets there whatever stopped it here; the rest follow it
                return;
            }
        }
    }

    /** Hints not sent ahead are forgotten (the case now running is not one whose run ends it). */
    synchronized void forgetHints() {
        hints.clear();
    }

    /**
     * What was sent ahead for {@code request} on {@code page}; null when nothing was, or the next case sent ahead is
     * another case or on another page (then everything sent ahead is dropped).
     */
    synchronized SentCase take(ExecutionRequest request, ConnectedPage page, ModelRegistry models) {
        SentCase s = sent.peek();
        if (s == null) {
            return null;
        }
        if (s.request.modelCase() != request.modelCase() || s.request.backend() != request.backend() || s.page != page
                || !page.isOpen()) {
            drop(models);
            return null;
        }
        sent.poll();
        used++;
        return s;
    }

    /** Drops everything sent ahead (a case before them failed), and the hints. */
    synchronized void drop(ModelRegistry models) {
        sent.forEach(s -> s.drop(models));
        sent.clear();
        hints.clear();
    }

    /** How many cases ran from what was sent ahead. */
    synchronized int used() {
        return used;
    }
}
