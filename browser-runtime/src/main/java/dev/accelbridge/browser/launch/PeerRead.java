package dev.accelbridge.browser.launch;

import dev.accelbridge.core.Untrusted;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One answer from another machine (a Grid hub), read within a time and a size: the deadline covers the headers and the
 * whole body (Java's request timeout ends when the headers arrive, and a Grid that then sent one byte every 2 s held a
 * run forever), and a body past the size is cut off unread (a 50 MB answer was buffered whole). What the peer said is
 * only ever quoted, bounded and without control characters.
 */
final class PeerRead {
    /** The most a Grid's status or GraphQL answer may hold: a Grid of hundreds of nodes answers in tens of KiB. */
    static final int MAX_BYTES = 1 << 20;
    /** How long one answer may take, headers and body. */
    static final Duration DEADLINE = Duration.ofSeconds(10);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PeerRead() {
    }

    /** An answer: its status and its body as text (at most {@link #MAX_BYTES}). */
    record Answer(int status, String body) {
        /** The body as an error line may quote it. */
        String quoted() {
            return Untrusted.quote(body.strip());
        }
    }

    /** Why a peer's answer was not had: no connection, past the deadline, too big. */
    static final class PeerException extends Exception {
        PeerException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Sends {@code request} and reads its answer within {@code deadline} and {@code maxBytes}.
     *
     * @throws PeerException saying which bound was met, or what the connection said
     */
    static Answer send(HttpRequest request, Duration deadline, int maxBytes) throws PeerException {
        CompletableFuture<HttpResponse<byte[]>> f = HTTP.sendAsync(request, info -> new Capped(maxBytes));
        try {
            HttpResponse<byte[]> r = f.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            return new Answer(r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new PeerException("gave no whole answer within " + deadline.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            if (c instanceof TooBig) {
                throw new PeerException("answered with more than " + maxBytes + " bytes (read no further)", c);
            }
            throw new PeerException("could not be reached: " + Untrusted.bounded(c.getMessage() == null ? c.getClass().getSimpleName()
                    : c.getMessage(), 200), c);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new PeerException("was not waited for (interrupted)", e);
        }
    }

    /** {@link #send} with the stated bounds. */
    static Answer send(HttpRequest request) throws PeerException {
        return send(request, DEADLINE, MAX_BYTES);
    }

    private static final class TooBig extends RuntimeException {
        TooBig() {
            super(null, null, false, false);
        }
    }

    /** A body read into memory up to {@code max} bytes; past it the subscription is cancelled and the read fails. */
    private static final class Capped implements HttpResponse.BodySubscriber<byte[]> {
        private final int max;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        private Flow.Subscription subscription;

        Capped(int max) {
            this.max = max;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                if (out.size() + b.remaining() > max) {
                    subscription.cancel();
                    result.completeExceptionally(new TooBig());
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                out.writeBytes(chunk);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(out.toByteArray());
        }
    }
}
