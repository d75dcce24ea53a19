package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.OutputBudget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.FrameCodec;
import dev.accelbridge.bridge.protocol.FromPage;
import dev.accelbridge.bridge.protocol.MessageKind;
import dev.accelbridge.core.CaseProgress;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The jobs one page has been sent and not yet answered, and the page's end: {@link ConnectedPage} submits jobs here, and
 * {@link PageHub} completes them as the page's answers, chunks, progress and errors arrive (or fails them all when the
 * page leaves or its GPU device is lost).
 */
final class PageJobs {
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final CompletableFuture<String> closed = new CompletableFuture<>();

    /** A job sent and not yet answered; a run's chunked result is assembled here as it arrives. */
    private static final class Pending {
        final MessageKind type;
        final CompletableFuture<Object> future;
        OutputBudget budget = OutputBudget.cap(OutputBudget.DEFAULT_CAP);
        ResultAssembly assembly;
        CaseProgress progress = CaseProgress.NONE;

        Pending(MessageKind type, CompletableFuture<Object> future) {
            this.type = type;
            this.future = future;
        }
    }

    boolean isOpen() {
        return !closed.isDone();
    }

    CompletableFuture<String> closed() {
        return closed;
    }

    int pending() {
        return pending.size();
    }

    /** The page answered job {@code job} with a text message; false when no such job is pending. */
    boolean completeText(String job, MessageKind kind, JsonNode msg) {
        Pending p = job == null ? null : pending.get(job);
        if (p == null || !kind.answers().contains(p.type)) {
            return false;
        }
        return p.future.complete(msg);
    }

    /** The page answered a run job with its result frame. */
    boolean completeFrame(String job, FrameCodec.Frame frame) {
        Pending p = job == null ? null : pending.get(job);
        if (p == null || !MessageKind.RESULT.answers().contains(p.type)) {
            return false;
        }
        String over = p.budget.exceededBy(frame.tensors().stream().mapToLong(t -> t.data().length).sum());
        if (over != null) {
            return p.future.completeExceptionally(ResultAssembly.refused(over));
        }
        return p.future.complete(frame);
    }

    /**
     * The page announced a chunked result for a run job: its outputs are checked against the job's budget and the heap
     * left, then received chunk by chunk; a refusal fails the job at once. False when no such run job is pending.
     */
    boolean beginResult(String job, ObjectNode header) {
        Pending p = job == null ? null : pending.get(job);
        if (p == null || !MessageKind.RESULT.answers().contains(p.type) || p.assembly != null) {
            return false;
        }
        try {
            Runtime rt = Runtime.getRuntime();
            p.assembly = ResultAssembly.begin(header, p.budget, rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()));
        } catch (PageJobException e) {
            p.future.completeExceptionally(e);
            return true;
        }
        if (p.assembly.complete()) {
            p.future.complete(p.assembly.frame());
        }
        return true;
    }

    /** A chunk of a run job's result; false when no chunked result of that job is being received. */
    boolean resultChunk(String job, int tensor, long offset, ByteBuffer payload) {
        Pending p = job == null ? null : pending.get(job);
        if (p == null || p.assembly == null) {
            return false;
        }
        try {
            if (p.assembly.accept(tensor, offset, payload)) {
                p.future.complete(p.assembly.frame());
            }
        } catch (PageJobException e) {
            p.future.completeExceptionally(e);
        }
        return true;
    }

    /** The page reported where a run job is; false when no such job is pending. */
    boolean progress(String job, FromPage.Progress msg) {
        Pending p = job == null ? null : pending.get(job);
        if (p == null) {
            return false;
        }
        try {
            p.progress.update(msg.phase() == null ? "" : msg.phase(), msg.done() == null ? 0 : msg.done(),
                    msg.total() == null ? 0 : msg.total());
        } catch (RuntimeException e) {
            // a listener's problem is not the job's
        }
        return true;
    }

    /** A frame too large to take that named a pending job: the job fails at once with the reason. */
    boolean failTransfer(String job, String why) {
        Pending p = job == null ? null : pending.get(job);
        return p != null && p.future.completeExceptionally(ResultAssembly.refused(why));
    }

    /** The page reported an error for {@code job} (or for no job); false when it matched no pending job. */
    boolean fail(String job, String code, String message, FromPage.OverLimit overLimit) {
        if ("device-lost".equals(code)) {
            failAll(new PageJobException(PageJobException.Kind.DEVICE_LOST, code, message));
            return true;
        }
        Pending p = job == null ? null : pending.get(job);
        if (p == null) {
            return false;
        }
        return p.future.completeExceptionally(new PageJobException(PageJobException.Kind.PAGE_ERROR, code, message,
                PageJobException.RefusedBuffer.of(overLimit)));
    }

    /** The WebSocket closed: every pending job fails as DISCONNECTED. */
    void markClosed(String reason) {
        closed.complete(reason);
        failAll(new PageJobException(PageJobException.Kind.DISCONNECTED, "disconnected",
                "the page's WebSocket closed (" + reason + ") while the job was running"));
    }

    <T> CompletableFuture<T> submit(String job, MessageKind type, Duration timeout, Runnable send) {
        return submit(job, type, timeout, null, CaseProgress.NONE, send);
    }

    /**
     * Registers job {@code job} and sends it; the future fails as TIMEOUT after {@code timeout}, as DISCONNECTED when the
     * page has left or the send fails.
     */
    @SuppressWarnings("unchecked")
    <T> CompletableFuture<T> submit(String job, MessageKind type, Duration timeout, OutputBudget budget, CaseProgress progress,
                                    Runnable send) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        if (!isOpen()) {
            f.completeExceptionally(new PageJobException(PageJobException.Kind.DISCONNECTED, "disconnected",
                    "the page has left (" + closed.getNow("closed") + ")"));
            return (CompletableFuture<T>) (CompletableFuture<?>) f;
        }
        Pending entry = new Pending(type, f);
        if (budget != null) {
            entry.budget = budget;
        }
        entry.progress = progress == null ? CaseProgress.NONE : progress;
        pending.put(job, entry);
        long ms = Math.max(1, timeout.toMillis());
        CompletableFuture<Object> timed = f.orTimeout(ms, TimeUnit.MILLISECONDS);
        timed.whenComplete((r, e) -> pending.remove(job));
        try {
            send.run();
        } catch (RuntimeException e) {
            f.completeExceptionally(new PageJobException(PageJobException.Kind.DISCONNECTED, "send-failed",
                    "could not send the " + type.id() + " job to the page: " + e.getMessage()));
        }
        return (CompletableFuture<T>) (CompletableFuture<?>) timed.exceptionallyCompose(e -> {
            Throwable c = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (c instanceof TimeoutException) {
                c = new PageJobException(PageJobException.Kind.TIMEOUT, "timeout",
                        "the page did not answer the " + type.id() + " job " + job + " within " + ms + " ms");
            }
            return CompletableFuture.failedFuture(c);
        });
    }

    private void failAll(PageJobException e) {
        for (Pending p : new ArrayList<>(pending.values())) {
            p.future.completeExceptionally(e);
        }
    }
}
