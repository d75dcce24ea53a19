package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * The page protocol's message kinds ({@code type} of every message, docs/protocol.md): the bridge's side of the one list
 * whose page side is {@code kinds.mjs}; a test holds the two to the same names and ids. A job's answer names the
 * requests it answers ({@link #answers()}), so the bridge matches an answer to a pending job by kind, not by string.
 */
@PublicApi
public enum MessageKind {
    /** Page → bridge: the page's probe, on joining. */
    HELLO("hello"),
    /** Bridge → page: admitted, with the page's id. */
    WELCOME("welcome"),
    /** Both ways: the bridge asks the page to probe again; the page answers with its probe. */
    PROBE("probe"),
    /** Bridge → page: create a session. */
    LOAD("load"),
    /** Page → bridge: the session was created. */
    LOADED("loaded", LOAD),
    /** Bridge → page: run warm-up and timed iterations. */
    RUN("run"),
    /** Bridge → page: a generation job (greedy decoding with the KV cache fed back); answered as a run is. */
    GENERATE("generate"),
    /** Bridge → page: a part of a large input. */
    CHUNK("chunk"),
    /** Page → bridge: where a run job is. */
    PROGRESS("progress"),
    /** Page → bridge: a run job's result (one frame, or the header of a chunked one). */
    RESULT("result", RUN, GENERATE),
    /** Page → bridge: a part of a chunked result. */
    RESULT_CHUNK("result-chunk", RUN, GENERATE),
    /** Bridge → page: profile a session per op. */
    PROFILE("profile"),
    /** Page → bridge: the profile. */
    PROFILED("profiled", PROFILE),
    /** Bridge → page: release a session. */
    RELEASE("release"),
    /** Page → bridge: released, with the memory it had. */
    RELEASED("released", RELEASE),
    /** Bridge → page: a round trip. */
    PING("ping"),
    /** Page → bridge: the round trip's answer. */
    PONG("pong", PING),
    /**
     * Bridge → page: open this page URL in place of yourself (a fresh document: a new onnxruntime-web, a new WebAssembly
     * instance and GPU device) and join again; what a failed session leaves behind goes with the old document.
     */
    RENEW("renew"),
    /** Both ways: a job failed, or a message was refused. */
    ERROR("error");

    private final String id;
    private final Set<MessageKind> answers;

    MessageKind(String id, MessageKind... answers) {
        this.id = id;
        this.answers = Set.of(answers); // not an EnumSet: the enum is not initialised yet here
    }

    /** The {@code type} value on the wire. */
    public String id() {
        return id;
    }

    /**
     * The requests this message answers ({@code loaded} answers {@code load}, {@code result} a run or a generation);
     * {@link #PROBE} answers itself; empty for a message that answers no job.
     */
    public Set<MessageKind> answers() {
        return this == PROBE ? Set.of(PROBE) : answers;
    }

    /** The kind whose id is {@code type}; empty for a type the protocol does not have. */
    public static Optional<MessageKind> of(String type) {
        return Arrays.stream(values()).filter(k -> k.id.equals(type)).findFirst();
    }
}
