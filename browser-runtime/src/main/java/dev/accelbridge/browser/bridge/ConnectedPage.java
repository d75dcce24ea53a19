package dev.accelbridge.browser.bridge;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.browser.page.FrameCodec;
import dev.accelbridge.browser.page.MessageKind;
import dev.accelbridge.browser.page.PageProbe;
import dev.accelbridge.core.NamedTensor;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A page that joined the bridge: its probe and a job API. Every job is a future that completes with the page's
 * answer, or exceptionally with a {@link PageJobException} (the page's error, a timeout, the page leaving, a lost
 * GPU device). Jobs are executed by the page one after another, in the order sent.
 */
@PublicApi
public final class ConnectedPage {

    private final String id;
    private final String slot;
    private final PageProbe probe;
    private final String ortVersion;
    private final String ortError;
    private final String remoteAddress;
    private final String origin;
    private final Instant joinedAt = Instant.now();
    private final PageChannel channel;
    /** The jobs sent and not yet answered, and the page's end: what the hub completes as answers arrive. */
    final PageJobs jobs = new PageJobs();

    ConnectedPage(String id, String slot, PageProbe probe, String ortVersion, String ortError, String remoteAddress, String origin,
                  PageChannel channel) {
        this.id = id;
        this.slot = slot;
        this.probe = probe;
        this.ortVersion = ortVersion;
        this.ortError = ortError;
        this.remoteAddress = remoteAddress;
        this.origin = origin;
        this.channel = channel;
    }

    /** The bridge's id of this page. */
    public String id() {
        return id;
    }

    /** The launch slot the page was opened with ({@code ?slot=} in its URL); empty for a page opened by hand. */
    public Optional<String> slot() {
        return Optional.ofNullable(slot);
    }

    /** What the page found when it probed its browser. */
    public PageProbe probe() {
        return probe;
    }

    /** onnxruntime-web's version as the page reports it ({@code ort.env.versions.web}), or null if it did not load. */
    public String ortVersion() {
        return ortVersion;
    }

    /** Why onnxruntime-web did not load in the page (its import's error), or null when it loaded. */
    public String ortError() {
        return ortError;
    }

    /** The peer address of its WebSocket. */
    public String remoteAddress() {
        return remoteAddress;
    }

    /** The Origin header it connected with, or null. */
    public String origin() {
        return origin;
    }

    /** When it joined. */
    public Instant joinedAt() {
        return joinedAt;
    }

    /** True until its WebSocket closes. */
    public boolean isOpen() {
        return jobs.isOpen();
    }

    /** Completes with the close reason when the page leaves. */
    public CompletableFuture<String> closed() {
        return jobs.closed();
    }

    /** Jobs sent and not yet answered. */
    public int pendingJobs() {
        return jobs.pending();
    }

    /** Creates a session: the page fetches the registered model by its opaque URL. */
    CompletableFuture<LoadedSession> load(ModelRegistry.ModelRef model, ExecutionProviderSpec ep, Duration timeout) {
        return load(model, ep, timeout, null, Map.of(), Map.of());
    }

    /**
     * Same, asking for {@code threads} wasm threads ({@code ort.env.wasm.numThreads}); the page can set it only before
     * its first session (onnxruntime-web fixes it when the WebAssembly module starts) and reports what it used.
     */
    CompletableFuture<LoadedSession> load(ModelRegistry.ModelRef model, ExecutionProviderSpec ep, Duration timeout,
                                                 Integer threads, Map<String, Long> freeDims,
                                                 Map<String, ModelRegistry.ModelRef> externalData) {
        return load(model, ep, timeout, threads, freeDims, externalData, SessionUse.TIMED);
    }

    /**
     * Same, for {@code use}: a profiled session has onnxruntime-web's profiler on (for {@link #profile} only); a
     * placement-checked one is first created with CPU fallback disabled, and the answer says whether that held.
     */
    CompletableFuture<LoadedSession> load(ModelRegistry.ModelRef model, ExecutionProviderSpec ep, Duration timeout,
                                                 Integer threads, Map<String, Long> freeDims,
                                                 Map<String, ModelRegistry.ModelRef> externalData, SessionUse use) {
        return load(newSessionId(), model, null, ep, timeout, threads, freeDims, externalData, use);
    }

    /** A session id no other session of this bridge has: for a caller that sends a session's next job before its load answers. */
    static String newSessionId() {
        return JobMessages.nextId("s");
    }

    /**
     * Same, as session {@code sessionId} ({@link #newSessionId}), with the model's bytes in the load frame itself when
     * {@code inline} is given (a small model: no HTTP round trip for the page; {@link ModelRegistry#inline}), else fetched
     * by the page from the model's URL. The page takes jobs in order, so a run of the session may follow at once.
     */
    CompletableFuture<LoadedSession> load(String sessionId, ModelRegistry.ModelRef model, byte[] inline, ExecutionProviderSpec ep, Duration timeout,
                                                 Integer threads, Map<String, Long> freeDims,
                                                 Map<String, ModelRegistry.ModelRef> externalData, SessionUse use) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = JobMessages.load(job, sessionId, model, inline, ep, threads, freeDims, externalData, use);
        if (inline != null) {
            return jobs.<JsonNode>submit(job, MessageKind.LOAD, timeout, () -> channel.sendBinary(JobMessages.withPayload(msg, inline)))
                    .thenApply(JobMessages::toLoaded);
        }
        return jobs.<JsonNode>submit(job, MessageKind.LOAD, timeout, () -> channel.sendText(msg.toString())).thenApply(JobMessages::toLoaded);
    }

    /** Creates a session from model bytes sent in a binary frame (for models that are not files). */
    CompletableFuture<LoadedSession> loadBytes(String name, byte[] model, ExecutionProviderSpec ep, Duration timeout) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = JobMessages.message(MessageKind.LOAD, job);
        msg.put("session", JobMessages.nextId("s"));
        msg.putObject("model").put("name", name).put("byteLength", model.length);
        JobMessages.putEp(msg, ep);
        msg.putObject("options").put("graphOptimizationLevel", "all").put("logSeverityLevel", 2);
        ByteBuffer frame = JobMessages.withPayload(msg, model);
        return jobs.<JsonNode>submit(job, MessageKind.LOAD, timeout, () -> channel.sendBinary(frame)).thenApply(JobMessages::toLoaded);
    }

    /**
     * Runs a session: the first run of a new session is timed as {@code firstMs}, then {@code warmups} untimed runs,
     * then {@code iterations} timed runs; the inputs travel as one binary frame, or in chunks when they are large.
     */
    CompletableFuture<RunOutcome> run(String sessionId, List<NamedTensor> inputs, int warmups, int iterations, Duration timeout) {
        return run(sessionId, inputs, warmups, iterations, timeout, OutputBudget.cap(OutputBudget.DEFAULT_CAP));
    }

    /**
     * Same, with the byte budget its outputs may total ({@link OutputBudget}): a result announcing more fails the job at
     * once ({@link PageJobException.Kind#TRANSFER}) with the size and the limit, before anything is allocated.
     */
    CompletableFuture<RunOutcome> run(String sessionId, List<NamedTensor> inputs, int warmups, int iterations, Duration timeout,
                                             OutputBudget budget) {
        return run(sessionId, inputs, warmups, iterations, dev.accelbridge.core.MinDurations.NONE, timeout, budget,
                dev.accelbridge.core.CaseProgress.NONE);
    }

    /**
     * Same; {@code inputs} null reuses the inputs of the session's previous job ({@code "sameInputs"}, so large inputs
     * cross once), the warm-ups and the timed runs go on past their counts until their {@code durations} have passed
     * ({@link dev.accelbridge.core.MinDurations}), and the page's progress messages go to {@code progress}.
     */
    CompletableFuture<RunOutcome> run(String sessionId, List<NamedTensor> inputs, int warmups, int iterations,
                                             dev.accelbridge.core.MinDurations durations, Duration timeout, OutputBudget budget,
                                             dev.accelbridge.core.CaseProgress progress) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = JobMessages.message(MessageKind.RUN, job);
        msg.put("session", sessionId).put("warmups", warmups).put("iterations", iterations).put("chunkBytes", FrameCodec.CHUNK_BYTES)
                .put("minDurationMs", durations.timed().toMillis()).put("maxSamples", durations.maxSamples(iterations))
                .put("warmupDurationMs", durations.warmup().toMillis());
        if (inputs == null) {
            msg.put("sameInputs", true);
        }
        return jobs.<FrameCodec.Frame>submit(job, MessageKind.RUN, timeout, budget, progress,
                        () -> sendTensors(job, msg, inputs == null ? List.of() : inputs))
                .thenApply(JobMessages::toOutcome);
    }

    /**
     * The session's first run alone ({@code "firstOnly"}): completes with its time in {@link RunOutcome#firstMs} (NaN when
     * the session had run before) and no outputs. The page keeps the inputs for the next job of the session.
     */
    CompletableFuture<RunOutcome> runFirst(String sessionId, List<NamedTensor> inputs, Duration timeout) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = JobMessages.message(MessageKind.RUN, job);
        msg.put("session", sessionId).put("warmups", 0).put("iterations", 1).put("firstOnly", true);
        return jobs.<FrameCodec.Frame>submit(job, MessageKind.RUN, timeout, () -> sendTensors(job, msg, inputs))
                .thenApply(JobMessages::toOutcome);
    }

    /**
     * A job frame with its tensors: in the frame itself when they are small, else a header that describes them
     * ({@code "chunked": true}) followed by {@code chunk} frames of at most {@link FrameCodec#CHUNK_BYTES} each.
     */
    private void sendTensors(String job, ObjectNode msg, List<NamedTensor> tensors) {
        long total = 0;
        for (NamedTensor t : tensors) {
            total += t.data().length;
        }
        if (!FrameCodec.chunked(total)) {
            channel.sendBinary(ByteBuffer.wrap(FrameCodec.encode(msg, tensors)));
            return;
        }
        channel.sendBinary(ByteBuffer.wrap(FrameCodec.encodeChunkedHeader(msg, tensors)));
        for (int i = 0; i < tensors.size(); i++) {
            byte[] d = tensors.get(i).data();
            for (int off = 0; off < d.length; off += FrameCodec.CHUNK_BYTES) {
                int len = Math.min(FrameCodec.CHUNK_BYTES, d.length - off);
                ObjectNode h = JobMessages.message(MessageKind.CHUNK, job).put("tensor", i).put("offset", off);
                channel.sendBinary(FrameCodec.encodeChunk(h, d, off, len));
            }
        }
    }

    /** Releases a session in the page. */
    CompletableFuture<Void> release(String sessionId, Duration timeout) {
        return releaseMeasured(sessionId, timeout).thenApply(x -> null);
    }

    /** Releases a session; completes with the page's JS heap after the release, -1 when the browser does not tell. */
    CompletableFuture<Long> releaseMeasured(String sessionId, Duration timeout) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = JobMessages.message(MessageKind.RELEASE, job).put("session", sessionId);
        return jobs.<JsonNode>submit(job, MessageKind.RELEASE, timeout, () -> channel.sendText(msg.toString()))
                .thenApply(n -> n.path("memory").path("usedJSHeapSize").asLong(-1));
    }

    /**
     * Profiles a session made with profiling on: one untimed run, then {@code iterations} profiled runs; completes with
     * the page's answer ({@code samplesMs}, the profiler's node events {@code nodes}, WebGPU kernel times
     * {@code gpuKernels}).
     */
    CompletableFuture<JsonNode> profile(String sessionId, List<NamedTensor> inputs, int iterations, Duration timeout) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = JobMessages.message(MessageKind.PROFILE, job);
        msg.put("session", sessionId).put("iterations", iterations);
        return jobs.submit(job, MessageKind.PROFILE, timeout, () -> sendTensors(job, msg, inputs));
    }

    /** A ping job: completes with the WebSocket round trip in milliseconds, measured here. */
    public CompletableFuture<Double> ping(Duration timeout) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = JobMessages.message(MessageKind.PING, job);
        long t0 = System.nanoTime();
        return jobs.<JsonNode>submit(job, MessageKind.PING, timeout, () -> channel.sendText(msg.toString()))
                .thenApply(x -> (System.nanoTime() - t0) / 1e6);
    }

    /**
     * Asks the page to open {@code pageUrl} (the bridge's page with a new slot) in its place, after the jobs it was given:
     * a fresh document in the same browser, which joins as a new page. This page then leaves.
     */
    public void renew(java.net.URI pageUrl) {
        channel.sendText(JobMessages.message(MessageKind.RENEW, JobMessages.nextId("j")).put("url", pageUrl.toString()).toString());
    }

    /** Asks the page to probe its browser again (e.g. after a GPU device was lost). */
    public CompletableFuture<PageProbe> reprobe(Duration timeout) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = JobMessages.message(MessageKind.PROBE, job);
        return jobs.<JsonNode>submit(job, MessageKind.PROBE, timeout, () -> channel.sendText(msg.toString()))
                .thenApply(n -> PageProbe.parse(n.path("probe")));
    }

    /** Closes the page's WebSocket (the page then shows that it was disconnected). */
    public void close(String reason) {
        channel.close(1000, reason);
    }

    @Override
    public String toString() {
        return "page " + id + (slot == null ? "" : " (slot " + slot + ")") + " " + probe.userAgent();
    }
}
