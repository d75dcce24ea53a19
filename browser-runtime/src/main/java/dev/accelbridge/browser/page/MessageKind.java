package dev.accelbridge.browser.page;

import java.util.Arrays;
import java.util.Optional;

/**
 * The page protocol's message kinds ({@code type} of every message, docs/protocol.md): the bridge's side of the one list
 * whose page side is {@code kinds.mjs}; a test holds the two to the same names and ids. A job's answer names the
 * request it answers ({@link #answers()}), so the bridge matches an answer to a pending job by kind, not by string.
 */
public enum MessageKind {
    /** Page → bridge: the page's probe, on joining. */
    HELLO("hello", null),
    /** Bridge → page: admitted, with the page's id. */
    WELCOME("welcome", null),
    /** Both ways: the bridge asks the page to probe again; the page answers with its probe. */
    PROBE("probe", null),
    /** Bridge → page: create a session. */
    LOAD("load", null),
    /** Page → bridge: the session was created. */
    LOADED("loaded", LOAD),
    /** Bridge → page: run warm-up and timed iterations. */
    RUN("run", null),
    /** Bridge → page: a part of a large input. */
    CHUNK("chunk", null),
    /** Page → bridge: where a run job is. */
    PROGRESS("progress", null),
    /** Page → bridge: a run job's result (one frame, or the header of a chunked one). */
    RESULT("result", RUN),
    /** Page → bridge: a part of a chunked result. */
    RESULT_CHUNK("result-chunk", RUN),
    /** Bridge → page: profile a session per op. */
    PROFILE("profile", null),
    /** Page → bridge: the profile. */
    PROFILED("profiled", PROFILE),
    /** Bridge → page: release a session. */
    RELEASE("release", null),
    /** Page → bridge: released, with the memory it had. */
    RELEASED("released", RELEASE),
    /** Bridge → page: a round trip. */
    PING("ping", null),
    /** Page → bridge: the round trip's answer. */
    PONG("pong", PING),
    /**
     * Bridge → page: open this page URL in place of yourself (a fresh document: a new onnxruntime-web, a new WebAssembly
     * instance and GPU device) and join again; what a failed session leaves behind goes with the old document.
     */
    RENEW("renew", null),
    /** Both ways: a job failed, or a message was refused. */
    ERROR("error", null);

    private final String id;
    private final MessageKind answers;

    MessageKind(String id, MessageKind answers) {
        this.id = id;
        this.answers = answers;
    }

    /** The {@code type} value on the wire. */
    public String id() {
        return id;
    }

    /**
     * The request this message answers ({@code loaded} answers {@code load}); {@link #PROBE} answers itself; empty for a
     * message that answers no job.
     */
    public Optional<MessageKind> answers() {
        return this == PROBE ? Optional.of(PROBE) : Optional.ofNullable(answers);
    }

    /** The kind whose id is {@code type}; empty for a type the protocol does not have. */
    public static Optional<MessageKind> of(String type) {
        return Arrays.stream(values()).filter(k -> k.id.equals(type)).findFirst();
    }
}
