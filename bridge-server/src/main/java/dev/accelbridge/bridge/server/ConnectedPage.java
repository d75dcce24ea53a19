package dev.accelbridge.bridge.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.browser.page.FrameCodec;
import dev.accelbridge.browser.page.PageProbe;
import dev.accelbridge.core.NamedTensor;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A page that joined the bridge: its probe and a job API. Every job is a future that completes with the page's
 * answer, or exceptionally with a {@link PageJobException} (the page's error, a timeout, the page leaving, a lost
 * GPU device). Jobs are executed by the page one after another, in the order sent.
 */
public final class ConnectedPage {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicLong IDS = new AtomicLong();

    private final String id;
    private final String slot;
    private final PageProbe probe;
    private final String ortVersion;
    private final String remoteAddress;
    private final String origin;
    private final Instant joinedAt = Instant.now();
    private final PageChannel channel;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final CompletableFuture<String> closed = new CompletableFuture<>();

    /** A job sent and not yet answered; a run's chunked result is assembled here as it arrives. */
    private static final class Pending {
        final String type;
        final CompletableFuture<Object> future;
        OutputBudget budget = OutputBudget.cap(OutputBudget.DEFAULT_CAP);
        ResultAssembly assembly;
        dev.accelbridge.core.CaseProgress progress = dev.accelbridge.core.CaseProgress.NONE;

        Pending(String type, CompletableFuture<Object> future) {
            this.type = type;
            this.future = future;
        }

        String type() {
            return type;
        }

        CompletableFuture<Object> future() {
            return future;
        }
    }

    ConnectedPage(String id, String slot, PageProbe probe, String ortVersion, String remoteAddress, String origin, PageChannel channel) {
        this.id = id;
        this.slot = slot;
        this.probe = probe;
        this.ortVersion = ortVersion;
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
        return !closed.isDone();
    }

    /** Completes with the close reason when the page leaves. */
    public CompletableFuture<String> closed() {
        return closed;
    }

    /** Jobs sent and not yet answered. */
    public int pendingJobs() {
        return pending.size();
    }

    /** Creates a session: the page fetches the registered model by its opaque URL. */
    public CompletableFuture<LoadedSession> load(ModelRegistry.ModelRef model, ExecutionProviderSpec ep, Duration timeout) {
        return load(model, ep, timeout, null, Map.of(), Map.of());
    }

    /**
     * Same, asking for {@code threads} wasm threads ({@code ort.env.wasm.numThreads}); the page can set it only before
     * its first session (onnxruntime-web fixes it when the WebAssembly module starts) and reports what it used.
     */
    public CompletableFuture<LoadedSession> load(ModelRegistry.ModelRef model, ExecutionProviderSpec ep, Duration timeout,
                                                 Integer threads, Map<String, Long> freeDims,
                                                 Map<String, ModelRegistry.ModelRef> externalData) {
        return load(model, ep, timeout, threads, freeDims, externalData, false);
    }

    /** Same; with {@code profiling} the session is made with onnxruntime-web's profiler on (for {@link #profile} only). */
    public CompletableFuture<LoadedSession> load(ModelRegistry.ModelRef model, ExecutionProviderSpec ep, Duration timeout,
                                                 Integer threads, Map<String, Long> freeDims,
                                                 Map<String, ModelRegistry.ModelRef> externalData, boolean profiling) {
        String job = nextId("j");
        ObjectNode msg = message("load", job);
        msg.put("session", nextId("s"));
        ObjectNode m = msg.putObject("model");
        m.put("id", model.id());
        m.put("url", model.urlPath());
        m.put("name", model.name());
        m.put("byteLength", model.size());
        if (!externalData.isEmpty()) {
            // the weights files the model names, each served by its own opaque URL (onnxruntime-web's externalData)
            var ext = m.putArray("externalData");
            externalData.forEach((path, ref) -> ext.addObject().put("path", path).put("url", ref.urlPath()));
        }
        putEp(msg, ep);
        ObjectNode o = msg.putObject("options").put("graphOptimizationLevel", "all").put("logSeverityLevel", 2);
        if (threads != null) {
            o.put("numThreads", threads);
        }
        if (profiling) {
            o.put("enableProfiling", true);
        }
        if (!freeDims.isEmpty()) {
            ObjectNode f = o.putObject("freeDimensionOverrides");
            freeDims.forEach(f::put);
        }
        return this.<JsonNode>submit(job, "load", timeout, () -> channel.sendText(msg.toString())).thenApply(ConnectedPage::toLoaded);
    }

    /** Creates a session from model bytes sent in a binary frame (for models that are not files). */
    public CompletableFuture<LoadedSession> loadBytes(String name, byte[] model, ExecutionProviderSpec ep, Duration timeout) {
        String job = nextId("j");
        ObjectNode msg = message("load", job);
        msg.put("session", nextId("s"));
        msg.putObject("model").put("name", name).put("byteLength", model.length);
        putEp(msg, ep);
        msg.putObject("options").put("graphOptimizationLevel", "all").put("logSeverityLevel", 2);
        byte[] head = FrameCodec.encode(msg, List.of());
        ByteBuffer frame = ByteBuffer.allocate(head.length + model.length).put(head).put(model).flip();
        return this.<JsonNode>submit(job, "load", timeout, () -> channel.sendBinary(frame)).thenApply(ConnectedPage::toLoaded);
    }

    /**
     * Runs a session: the first run of a new session is timed as {@code firstMs}, then {@code warmups} untimed runs,
     * then {@code iterations} timed runs; the inputs travel as one binary frame, or in chunks when they are large.
     */
    public CompletableFuture<RunOutcome> run(String sessionId, List<NamedTensor> inputs, int warmups, int iterations, Duration timeout) {
        return run(sessionId, inputs, warmups, iterations, timeout, OutputBudget.cap(OutputBudget.DEFAULT_CAP));
    }

    /**
     * Same, with the byte budget its outputs may total ({@link OutputBudget}): a result announcing more fails the job at
     * once ({@link PageJobException.Kind#TRANSFER}) with the size and the limit, before anything is allocated.
     */
    public CompletableFuture<RunOutcome> run(String sessionId, List<NamedTensor> inputs, int warmups, int iterations, Duration timeout,
                                             OutputBudget budget) {
        return run(sessionId, inputs, warmups, iterations, timeout, budget, dev.accelbridge.core.CaseProgress.NONE);
    }

    /**
     * Same; {@code inputs} null reuses the inputs of the session's previous job ({@code "sameInputs"}, so large inputs
     * cross once), and the page's progress messages go to {@code progress}.
     */
    public CompletableFuture<RunOutcome> run(String sessionId, List<NamedTensor> inputs, int warmups, int iterations, Duration timeout,
                                             OutputBudget budget, dev.accelbridge.core.CaseProgress progress) {
        String job = nextId("j");
        ObjectNode msg = message("run", job);
        msg.put("session", sessionId).put("warmups", warmups).put("iterations", iterations).put("chunkBytes", FrameCodec.CHUNK_BYTES);
        if (inputs == null) {
            msg.put("sameInputs", true);
        }
        return this.<FrameCodec.Frame>submit(job, "run", timeout, budget, progress,
                        () -> sendTensors(job, msg, inputs == null ? List.of() : inputs))
                .thenApply(ConnectedPage::toOutcome);
    }

    /**
     * The session's first run alone ({@code "firstOnly"}): completes with its time in {@link RunOutcome#firstMs} (NaN when
     * the session had run before) and no outputs. The page keeps the inputs for the next job of the session.
     */
    public CompletableFuture<RunOutcome> runFirst(String sessionId, List<NamedTensor> inputs, Duration timeout) {
        String job = nextId("j");
        ObjectNode msg = message("run", job);
        msg.put("session", sessionId).put("warmups", 0).put("iterations", 1).put("firstOnly", true);
        return this.<FrameCodec.Frame>submit(job, "run", timeout, () -> sendTensors(job, msg, inputs))
                .thenApply(ConnectedPage::toOutcome);
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
                ObjectNode h = message("chunk", job).put("tensor", i).put("offset", off);
                channel.sendBinary(FrameCodec.encodeChunk(h, d, off, len));
            }
        }
    }

    /** Releases a session in the page. */
    public CompletableFuture<Void> release(String sessionId, Duration timeout) {
        return releaseMeasured(sessionId, timeout).thenApply(x -> null);
    }

    /** Releases a session; completes with the page's JS heap after the release, -1 when the browser does not tell. */
    public CompletableFuture<Long> releaseMeasured(String sessionId, Duration timeout) {
        String job = nextId("j");
        ObjectNode msg = message("release", job).put("session", sessionId);
        return this.<JsonNode>submit(job, "release", timeout, () -> channel.sendText(msg.toString()))
                .thenApply(n -> n.path("memory").path("usedJSHeapSize").asLong(-1));
    }

    /**
     * Profiles a session made with profiling on: one untimed run, then {@code iterations} profiled runs; completes with
     * the page's answer ({@code samplesMs}, the profiler's node events {@code nodes}, WebGPU kernel times
     * {@code gpuKernels}).
     */
    public CompletableFuture<JsonNode> profile(String sessionId, List<NamedTensor> inputs, int iterations, Duration timeout) {
        String job = nextId("j");
        ObjectNode msg = message("profile", job);
        msg.put("session", sessionId).put("iterations", iterations);
        return this.submit(job, "profile", timeout, () -> sendTensors(job, msg, inputs));
    }

    /** A ping job: completes with the WebSocket round trip in milliseconds, measured here. */
    public CompletableFuture<Double> ping(Duration timeout) {
        String job = nextId("j");
        ObjectNode msg = message("ping", job);
        long t0 = System.nanoTime();
        return this.<JsonNode>submit(job, "ping", timeout, () -> channel.sendText(msg.toString()))
                .thenApply(x -> (System.nanoTime() - t0) / 1e6);
    }

    /** Asks the page to probe its browser again (e.g. after a GPU device was lost). */
    public CompletableFuture<PageProbe> reprobe(Duration timeout) {
        String job = nextId("j");
        ObjectNode msg = message("probe", job);
        return this.<JsonNode>submit(job, "probe", timeout, () -> channel.sendText(msg.toString()))
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

    // ---- called by the hub -------------------------------------------------------------------------------------

    /** The page answered job {@code job} with a text message; false when no such job is pending. */
    boolean completeText(String job, String type, JsonNode msg) {
        Pending p = job == null ? null : pending.get(job);
        if (p == null || !p.type().equals(expectedRequest(type))) {
            return false;
        }
        return p.future().complete(msg);
    }

    /** The page answered a run job with its result frame. */
    boolean completeFrame(String job, FrameCodec.Frame frame) {
        Pending p = job == null ? null : pending.get(job);
        if (p == null || !p.type().equals("run")) {
            return false;
        }
        String over = p.budget.exceededBy(frame.tensors().stream().mapToLong(t -> t.data().length).sum());
        if (over != null) {
            return p.future().completeExceptionally(ResultAssembly.refused(over));
        }
        return p.future().complete(frame);
    }

    /**
     * The page announced a chunked result for a run job: its outputs are checked against the job's budget and the heap
     * left, then received chunk by chunk; a refusal fails the job at once. False when no such run job is pending.
     */
    boolean beginResult(String job, ObjectNode header) {
        Pending p = job == null ? null : pending.get(job);
        if (p == null || !p.type().equals("run") || p.assembly != null) {
            return false;
        }
        try {
            Runtime rt = Runtime.getRuntime();
            p.assembly = ResultAssembly.begin(header, p.budget, rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()));
        } catch (PageJobException e) {
            p.future().completeExceptionally(e);
            return true;
        }
        if (p.assembly.complete()) {
            p.future().complete(p.assembly.frame());
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
                p.future().complete(p.assembly.frame());
            }
        } catch (PageJobException e) {
            p.future().completeExceptionally(e);
        }
        return true;
    }

    /** The page reported where a run job is; false when no such job is pending. */
    boolean progress(String job, JsonNode msg) {
        Pending p = job == null ? null : pending.get(job);
        if (p == null) {
            return false;
        }
        try {
            p.progress.update(msg.path("phase").asText(""), msg.path("done").asInt(), msg.path("total").asInt());
        } catch (RuntimeException e) {
            // a listener's problem is not the job's
        }
        return true;
    }

    /** A frame too large to take that named a pending job: the job fails at once with the reason. */
    boolean failTransfer(String job, String why) {
        Pending p = job == null ? null : pending.get(job);
        return p != null && p.future().completeExceptionally(ResultAssembly.refused(why));
    }

    /** The page reported an error for {@code job} (or for no job); false when it matched no pending job. */
    boolean fail(String job, String code, String message) {
        if ("device-lost".equals(code)) {
            failAll(new PageJobException(PageJobException.Kind.DEVICE_LOST, code, message));
            return true;
        }
        Pending p = job == null ? null : pending.get(job);
        if (p == null) {
            return false;
        }
        return p.future().completeExceptionally(new PageJobException(PageJobException.Kind.PAGE_ERROR, code, message));
    }

    /** The WebSocket closed: every pending job fails as DISCONNECTED. */
    void markClosed(String reason) {
        closed.complete(reason);
        failAll(new PageJobException(PageJobException.Kind.DISCONNECTED, "disconnected",
                "the page's WebSocket closed (" + reason + ") while the job was running"));
    }

    // ---- internals ---------------------------------------------------------------------------------------------

    private void failAll(PageJobException e) {
        for (Pending p : new ArrayList<>(pending.values())) {
            p.future().completeExceptionally(e);
        }
    }

    private static String expectedRequest(String answerType) {
        return switch (answerType) {
            case "loaded" -> "load";
            case "released" -> "release";
            case "pong" -> "ping";
            case "probe" -> "probe";
            case "profiled" -> "profile";
            default -> "?";
        };
    }

    private <T> CompletableFuture<T> submit(String job, String type, Duration timeout, Runnable send) {
        return submit(job, type, timeout, null, dev.accelbridge.core.CaseProgress.NONE, send);
    }

    @SuppressWarnings("unchecked")
    private <T> CompletableFuture<T> submit(String job, String type, Duration timeout, OutputBudget budget,
                                            dev.accelbridge.core.CaseProgress progress, Runnable send) {
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
        entry.progress = progress == null ? dev.accelbridge.core.CaseProgress.NONE : progress;
        pending.put(job, entry);
        long ms = Math.max(1, timeout.toMillis());
        CompletableFuture<Object> timed = f.orTimeout(ms, TimeUnit.MILLISECONDS);
        timed.whenComplete((r, e) -> pending.remove(job));
        try {
            send.run();
        } catch (RuntimeException e) {
            f.completeExceptionally(new PageJobException(PageJobException.Kind.DISCONNECTED, "send-failed",
                    "could not send the " + type + " job to the page: " + e.getMessage()));
        }
        return (CompletableFuture<T>) (CompletableFuture<?>) timed.exceptionallyCompose(e -> {
            Throwable c = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (c instanceof TimeoutException) {
                c = new PageJobException(PageJobException.Kind.TIMEOUT, "timeout",
                        "the page did not answer the " + type + " job " + job + " within " + ms + " ms");
            }
            return CompletableFuture.failedFuture(c);
        });
    }

    private static ObjectNode message(String type, String job) {
        ObjectNode m = JSON.createObjectNode();
        m.put("v", FrameCodec.PROTOCOL_VERSION);
        m.put("type", type);
        m.put("job", job);
        return m;
    }

    private static void putEp(ObjectNode msg, ExecutionProviderSpec ep) {
        ObjectNode e = msg.putObject("ep");
        e.put("name", ep.name());
        if (ep.deviceType() != null) {
            e.put("deviceType", ep.deviceType());
        }
    }

    private static String nextId(String prefix) {
        return prefix + IDS.incrementAndGet();
    }

    private static List<String> strings(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static LoadedSession toLoaded(JsonNode n) {
        return new LoadedSession(n.path("session").asText(), n.path("sessionMs").asDouble(Double.NaN),
                n.path("fetchMs").asDouble(0), strings(n.path("inputNames")), strings(n.path("outputNames")),
                n.path("numThreads").isNumber() ? n.path("numThreads").asInt() : -1, strings(n.path("warnings")));
    }

    private static RunOutcome toOutcome(FrameCodec.Frame f) {
        JsonNode h = f.header();
        JsonNode s = h.path("samplesMs");
        double[] samples = new double[s.size()];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = s.get(i).asDouble();
        }
        JsonNode first = h.path("firstMs");
        JsonNode mem = h.path("memory").path("usedJSHeapSize");
        return new RunOutcome(first.isNumber() ? first.asDouble() : Double.NaN, h.path("warmups").asInt(), samples,
                f.tensors(), strings(h.path("warnings")), mem.isNumber() ? mem.asLong() : -1);
    }
}
