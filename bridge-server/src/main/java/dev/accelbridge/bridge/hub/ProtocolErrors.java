package dev.accelbridge.bridge.hub;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.PageMessages;
import dev.accelbridge.bridge.protocol.ToPage;
import org.slf4j.Logger;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bridge's protocol errors: counted, logged and answered with an error frame, each connection within its
 * {@link ErrorBudget} (past it the connection is closed, and nothing more of it is answered or logged).
 */
final class ProtocolErrors {
    private final Logger log;
    private final AtomicLong total = new AtomicLong();

    ProtocolErrors(Logger log) {
        this.log = log;
    }

    /** Counts an error answered elsewhere (a mismatched hello, closed with its own frame). */
    void count() {
        total.incrementAndGet();
    }

    /** The errors so far. */
    long total() {
        return total.get();
    }

    /** Counts, logs and answers a protocol error of {@code c}; the connection stays open while within its budget. */
    void answer(PageHub.Conn c, String job, String code, String message) {
        total.incrementAndGet();
        String who = c.page == null ? c.remote : "page " + c.page.id();
        switch (c.errors.spend()) {
            case IGNORE -> {
                return;
            }
            case CLOSE -> {
                String why = "more than " + ErrorBudget.MAX + " protocol errors in a minute";
                log.warn("Closing {}: {}", who, why);
                c.channel.sendThenClose(error(job, "too-many-errors", why).toString(), 1008, "too many protocol errors");
                return;
            }
            default -> {
                // answered, as every error within the budget is
            }
        }
        log.warn("Protocol error from {}{}: {} {}", who, job == null ? "" : " job " + job, code, message);
        try {
            c.channel.sendText(error(job, code, message).toString());
        } catch (RuntimeException e) {
            log.debug("Could not send the error frame: {}", e.toString());
        }
    }

    static ObjectNode error(String job, String code, String message) {
        return PageMessages.envelope(new ToPage.Failure(code, message), job);
    }
}
