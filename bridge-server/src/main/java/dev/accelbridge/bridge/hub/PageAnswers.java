package dev.accelbridge.bridge.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.FrameCodec;
import dev.accelbridge.bridge.protocol.FromPage;
import dev.accelbridge.bridge.protocol.MessageKind;
import dev.accelbridge.bridge.protocol.PageMessages;
import dev.accelbridge.bridge.protocol.PageProtocolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;

/**
 * A joined page's answers, routed to its pending jobs ({@link PageJobs}): the last step of {@link PageHub#text} and
 * {@link PageHub#binary}, once the frame's size, form, version and the page's join have been checked there. An answer no
 * job expects is a protocol error, answered as the hub answers every other.
 */
final class PageAnswers {
    /** The hub's logger: these lines are the hub's, wherever the code that writes them lives. */
    private static final Logger LOG = LoggerFactory.getLogger(PageHub.class);

    private PageAnswers() {
    }

    /** A text answer of a known kind, other than hello. */
    static void text(PageHub hub, PageHub.Conn c, ConnectedPage page, String job, MessageKind kind, String type, JsonNode msg) {
        switch (kind) {
            case LOADED, RELEASED, PONG, PROBE, PROFILED -> {
                if (!page.jobs.completeText(job, kind, msg)) {
                    hub.protocolError(c, job, "unknown-job", "no pending job '" + job + "' expects '" + type + "'");
                }
            }
            case PROGRESS -> page.jobs.progress(job, PageMessages.read(msg, FromPage.Progress.class)); // late progress is harmless
            case ERROR -> {
                FromPage.PageError e = PageMessages.read(msg, FromPage.PageError.class);
                String code = e.code() == null ? "error" : e.code();
                String message = e.message() == null ? "" : e.message();
                if (!page.jobs.fail(job, code, message, e.overLimit())) {
                    LOG.warn("Page {} reported {} (no job): {}", page.id(), code, message);
                }
            }
            default -> hub.protocolError(c, job, "unknown-type", "unknown message type '" + type + "'");
        }
    }

    /** A binary frame: a chunk of a result, or a result (whole, or the header of a chunked one). */
    static void binary(PageHub hub, PageHub.Conn c, ConnectedPage page, String job, FrameCodec.Raw raw, ByteBuffer data) {
        ObjectNode h = raw.header();
        switch (MessageKind.of(raw.type()).orElse(MessageKind.HELLO)) {
            case RESULT_CHUNK -> {
                FromPage.ResultChunk chunk = PageMessages.read(h, FromPage.ResultChunk.class);
                if (!page.jobs.resultChunk(job, chunk.tensor() == null ? -1 : chunk.tensor(), chunk.offset() == null ? -1 : chunk.offset(),
                        raw.payload())) {
                    hub.protocolError(c, job, "unknown-job", "no chunked result of run job '" + job + "' is being received");
                }
            }
            case RESULT -> result(hub, c, page, job, h, data);
            default -> hub.protocolError(c, job, "unknown-type", "unknown binary frame type '" + raw.type() + "'");
        }
    }

    /** A chunked result's header begins its reception; a whole result is decoded in full and completes its job. */
    private static void result(PageHub hub, PageHub.Conn c, ConnectedPage page, String job, ObjectNode h, ByteBuffer data) {
        if (h.path("chunked").asBoolean(false)) {
            if (!page.jobs.beginResult(job, h)) {
                hub.protocolError(c, job, "unknown-job", "no pending run job '" + job + "'");
            }
            return;
        }
        FrameCodec.Frame f;
        try {
            f = FrameCodec.decode(data);
        } catch (PageProtocolException e) {
            hub.protocolError(c, job, e.code(), e.getMessage());
            return;
        }
        if (!page.jobs.completeFrame(job, f)) {
            hub.protocolError(c, job, "unknown-job", "no pending run job '" + job + "'");
        }
    }
}
