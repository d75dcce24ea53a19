package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * A message the bridge sends a page: one record per kind, its fields the message's fields, written by
 * {@link PageMessages} under the envelope every message carries ({@code v}, {@code type}, {@code job}). The page's side
 * reads exactly these names ({@code PageProtocolMirrorTest} holds the two together; {@code page-protocol.schema.json} is
 * generated from these records).
 */
@PublicApi
public sealed interface ToPage permits ToPage.Welcome, ToPage.Ping, ToPage.Renew, ToPage.Failure, ToPage.Probe, LoadJob, RunJob,
        GenerateJob, ToPage.Profile, ToPage.Release, ToPage.Chunk {
    /** The message's kind: its {@code type}. */
    @JsonIgnore
    MessageKind kind();

    /** Admitted: the page's id (answers {@code hello}; carries no job). */
    record Welcome(String pageId) implements ToPage {
        @Override
        public MessageKind kind() {
            return MessageKind.WELCOME;
        }
    }

    /** Answer at once, even while a job runs. */
    record Ping() implements ToPage {
        @Override
        public MessageKind kind() {
            return MessageKind.PING;
        }
    }

    /** Open {@code url} (the bridge's page under a new slot) in this page's place, after the jobs already given. */
    record Renew(String url) implements ToPage {
        @Override
        public MessageKind kind() {
            return MessageKind.RENEW;
        }
    }

    /** What the bridge refused of the page, by code ({@code forbidden}, {@code version-mismatch}, ...), in words. */
    record Failure(String code, String message) implements ToPage {
        @Override
        public MessageKind kind() {
            return MessageKind.ERROR;
        }
    }

    /** Probe the browser again (after a GPU device was lost). */
    record Probe() implements ToPage {
        @Override
        public MessageKind kind() {
            return MessageKind.PROBE;
        }
    }

    /** One untimed run of a session made with profiling on, then {@code iterations} profiled ones; inputs in the frame. */
    record Profile(String session, int iterations) implements ToPage {
        @Override
        public MessageKind kind() {
            return MessageKind.PROFILE;
        }
    }

    /** Release a session (its jobs still queued are answered {@code released}). */
    record Release(String session) implements ToPage {
        @Override
        public MessageKind kind() {
            return MessageKind.RELEASE;
        }
    }

    /** A part of a chunked job's input tensor {@code tensor}, its bytes from {@code offset} in the frame's payload. */
    record Chunk(int tensor, long offset) implements ToPage {
        @Override
        public MessageKind kind() {
            return MessageKind.CHUNK;
        }
    }
}
