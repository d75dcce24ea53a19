package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.core.Untrusted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.FrameCodec;
import dev.accelbridge.bridge.protocol.Hello;
import dev.accelbridge.bridge.protocol.MessageKind;
import dev.accelbridge.bridge.protocol.PageMessages;
import dev.accelbridge.bridge.protocol.ToPage;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.bridge.protocol.PageProtocolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The protocol side of the bridge: admits pages (token / Origin check), handles their messages, and routes answers
 * to the pending jobs of {@link ConnectedPage}. Any malformed frame, unknown type or version mismatch gets an error
 * frame back and a log line; it never breaks other pages. One job, each connection carried through the protocol: its
 * admission rules, answer routing, error answers and join waiters have classes of their own, and what is left shares the
 * connection table, the frame limit and the protocol error, so it stays whole near the size limit.
 */
public final class PageHub {
    private static final Logger LOG = LoggerFactory.getLogger(PageHub.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One WebSocket connection, joined or not yet. */
    static final class Conn {
        final String wsId;
        final PageChannel channel;
        final String remote;
        final String origin;
        volatile ConnectedPage page;
        final ErrorBudget errors = new ErrorBudget(System::nanoTime);

        Conn(String wsId, PageChannel channel, String remote, String origin) {
            this.wsId = wsId;
            this.channel = channel;
            this.remote = remote;
            this.origin = origin;
        }
    }

    /** The largest message a connection may send before it has joined: a hello with its probe fits easily. */
    public static final long UNJOINED_MESSAGE_BYTES = 256 * 1024;
    /** Connections open at once (joined or not); more are refused with close 1013. */
    static final int MAX_CONNECTIONS = 64;
    /**
     * The memory the bridge lets frames in flight take, in all: each joined page may send messages up to the frame
     * limit, so this budget caps how many pages may join at once ({@link #maxJoined}).
     */
    static final long FRAME_BUDGET_BYTES = 2L << 30;

    private final BridgeOptions options;
    private final PageAdmission admission;
    private final long maxFrameBytes;
    private final int maxJoined;
    private final Map<String, Conn> conns = new ConcurrentHashMap<>();
    private final PageJoins joins = new PageJoins();
    private final AtomicLong pageIds = new AtomicLong();
    private final RefusalLog refusals = new RefusalLog(System::nanoTime, LOG::warn);
    private final ProtocolErrors protocolErrors = new ProtocolErrors(LOG);

    public PageHub(BridgeOptions options) {
        this.options = options;
        this.admission = new PageAdmission(options.token());
        this.maxFrameBytes = options.maxFrameBytes();
        this.maxJoined = (int) Math.max(1, Math.min(1024, FRAME_BUDGET_BYTES / jettyLimit(maxFrameBytes)));
    }

    /** What Jetty may buffer for one message of a joined page: the frame limit, twice over (a text frame's chars), and 1 MiB. */
    public static long jettyLimit(long maxFrameBytes) {
        return maxFrameBytes * 2 + (1 << 20);
    }

    /** How many pages may be joined at once: the frame budget over one joined page's largest message. */
    int maxJoined() {
        return maxJoined;
    }

    /** Who may join: the token, or this bridge's own loopback origin. */
    public PageAdmission admission() {
        return admission;
    }

    public void connected(String wsId, PageChannel channel, String remote, String origin, String presentedToken, String hostHeader) {
        String why = admission.refusal(presentedToken, origin, hostHeader);
        if (why != null) {
            refusals.refused("WebSocket", remote, why);
            channel.sendThenClose(ProtocolErrors.error(null, "forbidden", why + "; open the URL the bridge printed (it carries the token)").toString(),
                    1008, "forbidden: " + why);
            return;
        }
        if (conns.size() >= MAX_CONNECTIONS) {
            String reason = "the bridge has " + conns.size() + " connections open, its cap; try again later";
            refusals.refused("WebSocket", remote, "the connection cap");
            channel.sendThenClose(ProtocolErrors.error(null, "busy", reason).toString(), 1013, "busy: connection cap reached");
            return;
        }
        conns.put(wsId, new Conn(wsId, channel, remote, origin));
    }

    // ---- messages ------------------------------------------------------------------------------------------------

    /**
     * A text message, checked in this order before it reaches a job: its size (before anything parses it), that it is a
     * JSON object, its protocol version, then hello, or the answer of a joined page ({@link PageAnswers}).
     */
    public void text(String wsId, String text) {
        Conn c = conns.get(wsId);
        if (c == null) {
            return; // refused connection still draining
        }
        if (text.length() > maxFrameBytes) {
            protocolError(c, null, "frame-too-large", "text frame of " + text.length() + " chars exceeds the limit of "
                    + maxFrameBytes + " bytes");
            return;
        }
        ObjectNode msg = jsonObject(c, text);
        if (msg == null) {
            return;
        }
        String job = msg.hasNonNull("job") ? msg.get("job").asText() : null;
        int v = msg.path("v").asInt(-1);
        String type = msg.path("type").asText("");
        MessageKind kind = MessageKind.of(type).orElse(null);
        if (v != FrameCodec.PROTOCOL_VERSION) {
            versionMismatch(c, job, kind, msg);
            return;
        }
        if (kind == MessageKind.HELLO) {
            try {
                hello(c, msg);
            } catch (PageProtocolException e) {
                protocolError(c, job, e.code(), e.getMessage());
            }
            return;
        }
        ConnectedPage page = c.page;
        if (page == null) {
            protocolError(c, job, "not-joined", "send hello before '" + type + "'");
            return;
        }
        if (kind == null) {
            protocolError(c, job, "unknown-type", "unknown message type '" + type + "'");
            return;
        }
        try {
            PageAnswers.text(this, c, page, job, kind, type, msg);
        } catch (PageProtocolException e) {
            protocolError(c, job, e.code(), e.getMessage());
        }
    }

    /** The message as a JSON object, or null once the error has been answered (not JSON, or not an object). */
    private ObjectNode jsonObject(Conn c, String text) {
        JsonNode msg;
        try {
            msg = JSON.readTree(text);
        } catch (Exception e) {
            String why = "text frame is not JSON: " + firstLine(e.getMessage());
            // the job it answers, where its start names one, fails now instead of waiting out its timeout (found when tried:
            // a 'loaded' too deep to read was dropped without a word)
            String job = JobMessages.jobNamedIn(text);
            if (job != null && c.page != null) {
                c.page.jobs.failTransfer(job, "its answer could not be read: " + why);
            }
            protocolError(c, job, "bad-frame", why);
            return null;
        }
        if (!(msg instanceof ObjectNode o)) {
            protocolError(c, null, "bad-frame", "text frame is not a JSON object");
            return null;
        }
        return o;
    }

    /** A message in another protocol version: a hello from it is refused and closed, anything else answered as an error. */
    private void versionMismatch(Conn c, String job, MessageKind kind, JsonNode msg) {
        String why = "bridge speaks protocol v" + FrameCodec.PROTOCOL_VERSION + ", message has v=" + msg.path("v");
        if (c.page == null && kind == MessageKind.HELLO) {
            // A page that cannot speak our version never joins: the error frame, then the close, in that order.
            protocolErrors.count();
            LOG.warn("Protocol error from {}: version-mismatch {}", c.remote, why);
            c.channel.sendThenClose(ProtocolErrors.error(job, "version-mismatch", why).toString(), 1008, "protocol version mismatch");
        } else {
            protocolError(c, job, "version-mismatch", why);
        }
    }

    /**
     * A binary frame, checked as a text message is: its size (before it is decoded), its header, its protocol version and
     * the page's join, then the answer goes to its job ({@link PageAnswers}).
     */
    public void binary(String wsId, ByteBuffer data) {
        Conn c = conns.get(wsId);
        if (c == null) {
            return;
        }
        if (data.remaining() > maxFrameBytes) {
            tooLarge(c, data);
            return;
        }
        FrameCodec.Raw raw;
        try {
            raw = FrameCodec.decodeRaw(data);
        } catch (PageProtocolException e) {
            protocolError(c, null, e.code(), e.getMessage());
            return;
        }
        ObjectNode h = raw.header();
        String job = h.hasNonNull("job") ? h.get("job").asText() : null;
        if (h.path("v").asInt(-1) != FrameCodec.PROTOCOL_VERSION) {
            protocolError(c, job, "version-mismatch", "bridge speaks protocol v" + FrameCodec.PROTOCOL_VERSION
                    + ", frame has v=" + h.path("v"));
            return;
        }
        ConnectedPage page = c.page;
        if (page == null) {
            protocolError(c, job, "not-joined", "send hello before binary frames");
            return;
        }
        try {
            PageAnswers.binary(this, c, page, job, raw, data);
        } catch (PageProtocolException e) {
            protocolError(c, job, e.code(), e.getMessage());
        }
    }

    /** A binary frame over the limit: the job it answers fails now with the reason, instead of waiting out its timeout. */
    private void tooLarge(Conn c, ByteBuffer data) {
        String why = "binary frame of " + data.remaining() + " bytes exceeds the limit of " + maxFrameBytes + " bytes";
        String job = null;
        try {
            JsonNode h = FrameCodec.decodeRaw(data).header();
            job = h.hasNonNull("job") ? h.get("job").asText() : null;
        } catch (PageProtocolException e) {
            // no readable header: nothing to name
        }
        if (c.page != null && job != null) {
            c.page.jobs.failTransfer(job, why + " (a page that sends its result in one frame; this bridge takes results in chunks)");
        }
        protocolError(c, job, "frame-too-large", why);
    }

    public void closed(String wsId, int status, String reason) {
        Conn c = conns.remove(wsId);
        if (c != null && c.page != null) {
            LOG.info("Page {} left ({} {})", c.page.id(), status, reason);
            c.page.jobs.markClosed("close code " + status + (reason == null || reason.isBlank() ? "" : " " + reason));
        }
    }

    // ---- joining -------------------------------------------------------------------------------------------------

    private void hello(Conn c, JsonNode msg) {
        if (c.page != null) {
            protocolError(c, null, "already-joined", "this connection already joined as page " + c.page.id());
            return;
        }
        long joined = conns.values().stream().filter(x -> x.page != null).count();
        if (joined >= maxJoined) {
            String reason = "the bridge has " + joined + " pages joined, its cap (frames in flight are budgeted at "
                    + (FRAME_BUDGET_BYTES >> 20) + " MiB, " + (jettyLimit(maxFrameBytes) >> 20) + " MiB per page); try again later";
            refusals.refused("page", c.remote, "the page cap");
            c.channel.sendThenClose(ProtocolErrors.error(null, "busy", reason).toString(), 1013, "busy: page cap reached");
            return;
        }
        Hello hello = PageMessages.read(msg, Hello.class);
        PageProbe probe = hello.probe() == null ? PageProbe.parse(com.fasterxml.jackson.databind.node.MissingNode.getInstance()) : hello.probe();
        Hello.Ort ort = hello.ort() == null ? new Hello.Ort(null, null) : hello.ort();
        String id = "p" + pageIds.incrementAndGet();
        ConnectedPage page = new ConnectedPage(id, hello.slot(), probe, ort.version(),
                ort.error() == null ? null : Untrusted.bounded(firstLine(ort.error()), 1000), c.remote, c.origin, c.channel);
        c.page = page;
        c.channel.allowMessages(jettyLimit(maxFrameBytes));
        c.channel.sendText(PageMessages.text(new ToPage.Welcome(id), null));
        LOG.info("Page {} joined from {}{}: {}", id, c.remote, hello.slot() == null ? "" : " (slot " + hello.slot() + ")", probe.userAgent());
        joins.joined(page);
    }

    /** Waits for the page launched with {@code slot} to join. */
    public ConnectedPage awaitSlot(String slot, Duration timeout) {
        return joins.awaitSlot(slot, timeout);
    }

    public void onJoin(Consumer<ConnectedPage> listener) {
        joins.onJoin(listener);
    }

    public List<ConnectedPage> pages() {
        return conns.values().stream().map(c -> c.page).filter(p -> p != null && p.isOpen()).toList();
    }

    public Optional<ConnectedPage> page(String id) {
        return pages().stream().filter(p -> p.id().equals(id)).findFirst();
    }

    public long rejectedCount() {
        return refusals.total();
    }

    public long protocolErrorCount() {
        return protocolErrors.total();
    }

    public void closeAll(String reason) {
        refusals.flush();
        for (Conn c : conns.values()) {
            try {
                c.channel.close(1001, reason);
            } catch (RuntimeException e) {
                // already closing
            }
        }
    }

    /** Counts, logs and answers a protocol error ({@link ProtocolErrors}). */
    void protocolError(Conn c, String job, String code, String message) {
        protocolErrors.answer(c, job, code, message);
    }

    /** The first line of what a page said. */
    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }
}
