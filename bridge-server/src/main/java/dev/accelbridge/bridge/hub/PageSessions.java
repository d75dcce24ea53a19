package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.ModelRegistry;
import dev.accelbridge.bridge.OutputBudget;
import dev.accelbridge.core.CaseProgress;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.PublicApi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.FrameCodec;
import dev.accelbridge.bridge.protocol.GenerateJob;
import dev.accelbridge.bridge.protocol.LoadJob;
import dev.accelbridge.bridge.protocol.MessageKind;
import dev.accelbridge.bridge.protocol.PageMessages;
import dev.accelbridge.bridge.protocol.Profiled;
import dev.accelbridge.bridge.protocol.RunJob;
import dev.accelbridge.bridge.protocol.ToPage;
import dev.accelbridge.core.NamedTensor;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The inference sessions of one joined page: load a model, run it (timed, or its first run alone), profile it, release
 * it, each a job of the page's ({@link ConnectedPage}'s futures and failures). What the browser provider sends; the
 * published page type keeps only what every caller may ask.
 */
@PublicApi
public final class PageSessions {
    private final ConnectedPage page;

    private PageSessions(ConnectedPage page) {
        this.page = page;
    }

    /** The sessions of {@code page}. */
    public static PageSessions of(ConnectedPage page) {
        return new PageSessions(page);
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
        return load(model, ep, timeout, threads, freeDims, externalData, SessionUse.TIMED);
    }

    /**
     * Same, for {@code use}: a profiled session has onnxruntime-web's profiler on (for {@link #profile} only); a
     * placement-checked one is first created with CPU fallback disabled, and the answer says whether that held.
     */
    public CompletableFuture<LoadedSession> load(ModelRegistry.ModelRef model, ExecutionProviderSpec ep, Duration timeout,
                                                 Integer threads, Map<String, Long> freeDims,
                                                 Map<String, ModelRegistry.ModelRef> externalData, SessionUse use) {
        return load(newSessionId(), model, null, ep, timeout, threads, freeDims, externalData, use);
    }

    /** A session id no other session of this bridge has: for a caller that sends a session's next job before its load answers. */
    public static String newSessionId() {
        return JobMessages.nextId("s");
    }

    /**
     * Same, as session {@code sessionId} ({@link #newSessionId}), with the model's bytes in the load frame itself when
     * {@code inline} is given (a small model: no HTTP round trip for the page; {@link ModelRegistry#inline}), else fetched
     * by the page from the model's URL. The page takes jobs in order, so a run of the session may follow at once.
     */
    public CompletableFuture<LoadedSession> load(String sessionId, ModelRegistry.ModelRef model, byte[] inline, ExecutionProviderSpec ep, Duration timeout,
                                                 Integer threads, Map<String, Long> freeDims,
                                                 Map<String, ModelRegistry.ModelRef> externalData, SessionUse use) {
        return load(sessionId, model, inline, ep, timeout, threads, freeDims, externalData, use, List.of(), "all", false);
    }

    /**
     * Same, with {@code gpuOutputs} left on the GPU by the session (onnxruntime-web's {@code preferredOutputLocation}
     * {@code gpu-buffer}): a WebGPU decoder's cache, fed back to the next step without crossing to the CPU, as
     * transformers.js runs it; and at the graph optimization level {@code optimization} (onnxruntime-web's
     * {@code graphOptimizationLevel}: {@code all}, {@code extended}, {@code basic} or {@code disabled}), capturing its graph
     * when {@code graphCapture} ({@code enableGraphCapture}: the page then feeds it GPU buffers).
     */
    public CompletableFuture<LoadedSession> load(String sessionId, ModelRegistry.ModelRef model, byte[] inline, ExecutionProviderSpec ep, Duration timeout,
                                                 Integer threads, Map<String, Long> freeDims,
                                                 Map<String, ModelRegistry.ModelRef> externalData, SessionUse use, List<String> gpuOutputs,
                                                 String optimization, boolean graphCapture) {
        return load(sessionId, model, inline, ep, timeout, threads, freeDims, externalData, use, gpuOutputs, optimization, graphCapture, false);
    }

    /**
     * Same; with {@code placementAtRelease} a placement-checked session's check may wait for its release (the caller
     * awaits the release's answer: {@link Released#placementCheck}): on a page whose engine for the provider has not
     * started, the page makes the timed session first, so its figure holds the engine's start as a bare page's first
     * session does, and checks once the case's memory window has closed.
     */
    public CompletableFuture<LoadedSession> load(String sessionId, ModelRegistry.ModelRef model, byte[] inline, ExecutionProviderSpec ep, Duration timeout,
                                                 Integer threads, Map<String, Long> freeDims,
                                                 Map<String, ModelRegistry.ModelRef> externalData, SessionUse use, List<String> gpuOutputs,
                                                 String optimization, boolean graphCapture, boolean placementAtRelease) {
        String job = JobMessages.nextId("j");
        Map<String, String> where = new java.util.LinkedHashMap<>();
        gpuOutputs.forEach(o -> where.put(o, "gpu-buffer"));
        LoadJob.SessionOptions options = new LoadJob.SessionOptions(optimization, 2, threads,
                use == SessionUse.PROFILED ? Boolean.TRUE : null, use.checksPlacement() ? Boolean.TRUE : null,
                use == SessionUse.PLACEMENT_LISTED ? Boolean.TRUE : null, placementAtRelease && use.checksPlacement() ? Boolean.TRUE : null, freeDims,
                graphCapture ? Boolean.TRUE : null, where);
        LoadJob load = JobMessages.load(sessionId, model, inline, ep, options, externalData);
        if (inline != null) {
            ByteBuffer frame = JobMessages.withPayload(PageMessages.envelope(load, job), inline);
            return page.jobs.<JsonNode>submit(job, MessageKind.LOAD, timeout, () -> page.channel.sendBinary(frame))
                    .thenApply(JobMessages::toLoaded);
        }
        String text = PageMessages.text(load, job);
        return page.jobs.<JsonNode>submit(job, MessageKind.LOAD, timeout, () -> page.channel.sendText(text)).thenApply(JobMessages::toLoaded);
    }

    /** Creates a session from model bytes sent in a binary frame (for models that are not files). */
    public CompletableFuture<LoadedSession> loadBytes(String name, byte[] model, ExecutionProviderSpec ep, Duration timeout) {
        return loadBytes(newSessionId(), name, model, ep, timeout);
    }

    /** {@link #loadBytes(String, byte[], ExecutionProviderSpec, Duration)} under a session id chosen first ({@link #newSessionId()}). */
    public CompletableFuture<LoadedSession> loadBytes(String sessionId, String name, byte[] model, ExecutionProviderSpec ep, Duration timeout) {
        String job = JobMessages.nextId("j");
        LoadJob load = new LoadJob(sessionId, new LoadJob.Model(null, null, name, model.length, List.of()), JobMessages.ep(ep),
                LoadJob.SessionOptions.at("all"));
        ByteBuffer frame = JobMessages.withPayload(PageMessages.envelope(load, job), model);
        return page.jobs.<JsonNode>submit(job, MessageKind.LOAD, timeout, () -> page.channel.sendBinary(frame)).thenApply(JobMessages::toLoaded);
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
        return run(sessionId, inputs, warmups, iterations, MinDurations.NONE, timeout, budget,
                CaseProgress.NONE);
    }

    /**
     * Same; {@code inputs} null reuses the inputs of the session's previous job ({@code "sameInputs"}, so large inputs
     * cross once), the warm-ups and the timed runs go on past their counts until their {@code durations} have passed
     * ({@link dev.accelbridge.core.MinDurations}), and the page's progress messages go to {@code progress}.
     */
    public CompletableFuture<RunOutcome> run(String sessionId, List<NamedTensor> inputs, int warmups, int iterations,
                                             MinDurations durations, Duration timeout, OutputBudget budget,
                                             CaseProgress progress) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = PageMessages.envelope(RunJob.timed(sessionId, warmups, iterations, durations, inputs == null), job);
        return page.jobs.<FrameCodec.Frame>submit(job, MessageKind.RUN, timeout, budget, progress,
                        () -> sendTensors(job, msg, inputs == null ? List.of() : inputs))
                .thenApply(JobMessages::toOutcome);
    }

    /**
     * A generation job ({@link MessageKind#GENERATE}): the cold generation, {@code warmups} more, {@code iterations} timed ones and the
     * teacher-forced pass, the decode loop of {@code generate.mjs} in the page; {@code prompt} is the case's inputs.
     */
    public CompletableFuture<RunOutcome> generate(String sessionId, List<NamedTensor> prompt, Generation g,
                                                  int warmups, int iterations, Duration timeout, OutputBudget budget,
                                                  CaseProgress progress) {
        return generate(sessionId, prompt, g, null, warmups, MinDurations.NONE, iterations, timeout, budget, progress);
    }

    /**
     * Same, for an encoder-decoder: the page makes the encoder's session from {@code encoder} (the model the bridge serves)
     * beside the decoder's, runs it at the start of each generation and feeds its states to every step. Whole generations
     * are the loops' runs under {@code durations}, as a single pass's: the warm-up goes on past {@code warmups} for its
     * least duration, then until it settles ({@code settle.mjs}); the timed ones past {@code iterations} for theirs.
     */
    public CompletableFuture<RunOutcome> generate(String sessionId, List<NamedTensor> prompt, Generation g,
                                                  ModelRegistry.ModelRef encoder, int warmups,
                                                  MinDurations durations, int iterations, Duration timeout,
                                                  OutputBudget budget, CaseProgress progress) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = PageMessages.envelope(new GenerateJob(sessionId, warmups, durations.warmup().toMillis(), iterations,
                durations.timed().toMillis(), durations.maxSamples(iterations), FrameCodec.CHUNK_BYTES, spec(g, encoder)), job);
        return page.jobs.<FrameCodec.Frame>submit(job, MessageKind.GENERATE, timeout, budget, progress, () -> sendTensors(job, msg, prompt))
                .thenApply(JobMessages::toOutcome);
    }

    /**
     * The session's first run alone ({@code "firstOnly"}): completes with its time in {@link RunOutcome#firstMs} (NaN when
     * the session had run before) and no outputs. The page keeps the inputs for the next job of the session.
     */
    public CompletableFuture<RunOutcome> runFirst(String sessionId, List<NamedTensor> inputs, Duration timeout) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = PageMessages.envelope(RunJob.firstOnly(sessionId), job);
        return page.jobs.<FrameCodec.Frame>submit(job, MessageKind.RUN, timeout, () -> sendTensors(job, msg, inputs))
                .thenApply(JobMessages::toOutcome);
    }

    /** What a generation job asks the page's decode loop for: the tokens, the decoder's layout, its encoder, the teacher. */
    private static GenerateJob.Spec spec(Generation g, ModelRegistry.ModelRef encoder) {
        DecoderLayout l = g.layout();
        GenerateJob.Encoder enc = g.encoder() != null && encoder != null ? new GenerateJob.Encoder(encoder.urlPath(),
                g.encoder().model().name(), g.encoder().features(), g.encoder().output()) : null;
        return new GenerateJob.Spec(g.newTokens(), l.inputIds(), l.attentionMask(), l.positionIds(), l.logits(), l.kvHeads(),
                l.headDim(), l.cacheType().webName(), l.encoderHidden(), l.useCacheBranch(), enc,
                l.cache().stream().map(c -> new GenerateJob.Cache(c.past(), c.present())).toList(), g.teacher());
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
            page.channel.sendBinary(ByteBuffer.wrap(FrameCodec.encode(msg, tensors)));
            return;
        }
        page.channel.sendBinary(ByteBuffer.wrap(FrameCodec.encodeChunkedHeader(msg, tensors)));
        for (int i = 0; i < tensors.size(); i++) {
            byte[] d = tensors.get(i).data();
            for (int off = 0; off < d.length; off += FrameCodec.CHUNK_BYTES) {
                int len = Math.min(FrameCodec.CHUNK_BYTES, d.length - off);
                ObjectNode h = PageMessages.envelope(new ToPage.Chunk(i, off), job);
                page.channel.sendBinary(FrameCodec.encodeChunk(h, d, off, len));
            }
        }
    }

    /** Releases a session in the page. */
    public CompletableFuture<Void> release(String sessionId, Duration timeout) {
        return releaseMeasured(sessionId, timeout).thenApply(x -> null);
    }

    /** Releases a session; completes with the page's JS heap after the release, -1 when the browser does not tell. */
    public CompletableFuture<Long> releaseMeasured(String sessionId, Duration timeout) {
        return releaseWithLedger(sessionId, timeout).thenApply(Released::jsHeapBytes);
    }

    /** Releases a session; completes with what the page said of its memory then ({@link Released}). */
    public CompletableFuture<Released> releaseWithLedger(String sessionId, Duration timeout) {
        String job = JobMessages.nextId("j");
        String text = PageMessages.text(new ToPage.Release(sessionId), job);
        return page.jobs.<JsonNode>submit(job, MessageKind.RELEASE, timeout, () -> page.channel.sendText(text))
                .thenApply(Released::of);
    }

    /**
     * Profiles a session made with profiling on: one untimed run, then {@code iterations} profiled runs; completes with
     * the page's answer ({@code samplesMs}, the profiler's node events {@code nodes}, WebGPU kernel times
     * {@code gpuKernels}).
     */
    public CompletableFuture<Profiled> profile(String sessionId, List<NamedTensor> inputs, int iterations, Duration timeout) {
        String job = JobMessages.nextId("j");
        ObjectNode msg = PageMessages.envelope(new ToPage.Profile(sessionId, iterations), job);
        return page.jobs.<JsonNode>submit(job, MessageKind.PROFILE, timeout, () -> sendTensors(job, msg, inputs))
                .thenApply(n -> PageMessages.read(n, Profiled.class));
    }
}
