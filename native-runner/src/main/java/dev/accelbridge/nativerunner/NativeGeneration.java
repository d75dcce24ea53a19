package dev.accelbridge.nativerunner;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.GenerationCheck;
import dev.accelbridge.core.HostClock;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Settling;
import dev.accelbridge.core.Timings;
import dev.accelbridge.core.UnsupportedModelException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A generation case run natively: ONNX Runtime's own {@code session.run} once per token, the KV cache fed back as the
 * {@link DecoderLayout} says, each step timed from the moment its feeds are made to the moment its token is known (logits
 * read, argmax done). The first generation after the session is made is the cold one; then the warm-ups, the timed
 * generations, and one teacher-forced pass (fed the reference's tokens) whose logits the verdict compares. The page's
 * {@code generate.mjs} is the same loop.
 */
final class NativeGeneration {
    private final DjlOnnxRuntimeProvider provider;
    private final ModelLoader loader;
    private final ExecutionRequest request;
    private final Generation gen;
    private final ModelSpec spec;
    private final BackendId backend;

    NativeGeneration(DjlOnnxRuntimeProvider provider, ModelLoader loader, ExecutionRequest request, Generation gen, ModelSpec spec,
                     BackendId backend) {
        this.provider = provider;
        this.loader = loader;
        this.request = request;
        this.gen = gen;
        this.spec = spec;
        this.backend = backend;
    }

    /**
     * One generation's tokens, its steps' times (the first from the generation's start: an encoder's run included), the
     * teacher-forced logits when kept, the cache's size at its end, and its encoder's own time (NaN without one).
     */
    record Generated(long[] tokens, double[] stepsMs, float[] logits, int vocab, long cacheBytes, double encoderMs) {
        double totalMs() {
            return Arrays.stream(stepsMs).sum();
        }
    }

    Execution run(boolean cold) {
        long deadline = request.timeout() == null ? Long.MAX_VALUE : System.nanoTime() + request.timeout().toNanos();
        long[] prompt = request.modelCase().inputs().stream().filter(t -> t.name().equals(gen.layout().inputIds())).findFirst()
                .orElseThrow(() -> new UnsupportedModelException("A generation case of '" + spec.name() + "' has no prompt '"
                        + gen.layout().inputIds() + "'", "give the prompt as input_ids [1, P]", null)).toLongs();
        boolean kernelPeak = ProcessMemory.resetKernelPeak();
        long rssBefore = ProcessMemory.rss();
        long t0 = System.nanoTime();
        Generation.Encoder enc = gen.encoder();
        try (ModelLoader.Loaded loaded = loader.load(backend, spec, request.threads(), Map.of(), request.modelCase().runtimeOptions());
             ModelLoader.Loaded encoderLoaded = enc == null ? null
                     : loader.load(backend, enc.model(), request.threads(), Map.of(), request.modelCase().runtimeOptions());
             Decoder d = new Decoder(OrtEnvironment.getEnvironment(), session(loaded), gen.layout(), prompt, gen.newTokens())) {
            double loadMs = (System.nanoTime() - t0) / 1e6;
            if (enc != null) {
                NamedTensor features = request.modelCase().inputs().stream().filter(t -> t.name().equals(enc.features())).findFirst()
                        .orElseThrow(() -> new UnsupportedModelException("A speech-to-text case of '" + spec.name() + "' has no '" + enc.features()
                                + "' for its encoder", "give the log-mel features as " + enc.features(), null));
                d.encoder(session(encoderLoaded), enc, features);
            }
            List<long[]> tokens = new ArrayList<>();
            Generated first = d.generate(null, false);
            tokens.add(first.tokens());
            check(deadline, "the first generation");
            // at least --warmups and --warmup-duration of whole generations, then on until they stop getting faster (Settling)
            Settling.Loop warm = new Settling.Loop(request.warmups(), request.durations());
            long warmStart = System.nanoTime();
            while (warm.more(System.nanoTime() - warmStart)) {
                Generated w = d.generate(null, false);
                tokens.add(w.tokens());
                warm.add(w.totalMs());
                check(deadline, "warm-up generation " + warm.done());
                request.progress().update("warmup", warm.done(), request.warmups());
            }
            double warmupMs = (System.nanoTime() - warmStart) / 1e6;
            // at least --iterations, and on until --min-duration of timed generations (up to the request's cap), as a single
            // pass's timed runs
            List<double[]> steps = new ArrayList<>();
            List<Double> totals = new ArrayList<>();
            List<Double> encoderMs = new ArrayList<>();
            long cacheBytes = first.cacheBytes();
            long timedNanos = 0;
            for (int i = 0; request.moreSamples(i, timedNanos); i++) {
                Generated g = d.generate(null, false);
                tokens.add(g.tokens());
                steps.add(g.stepsMs());
                totals.add(g.totalMs());
                timedNanos += (long) (g.totalMs() * 1e6);
                if (enc != null) {
                    encoderMs.add(g.encoderMs());
                }
                cacheBytes = g.cacheBytes();
                check(deadline, "timed generation " + (i + 1) + " of " + request.iterations());
                request.progress().update("timed", i + 1, request.iterations());
            }
            Generated teacher = d.generate(gen.teacher() != null ? gen.teacher() : first.tokens(), true);
            long rssAfter = ProcessMemory.rss();
            long peak = Math.max(rssBefore, rssAfter);
            if (kernelPeak) {
                peak = Math.max(peak, ProcessMemory.kernelPeak());
            }
            Timings t = Timings.of(loadMs, first.totalMs(), warm.done(), totals).withClock(HostClock.nanoTimeResolutionMs(), Double.NaN);
            t = t.withQuality(t.quality().withWarmup(warmupMs, warm.settled(), warm.trend()))
                    .withDecoding(Decoding.of(prompt.length, gen.newTokens(), steps.toArray(new double[0][]), first.stepsMs(),
                    java.util.OptionalLong.of(cacheBytes)).withEncoder(encoderMs.stream().mapToDouble(Double::doubleValue).toArray()));
            long[] all = tokens.stream().flatMapToLong(Arrays::stream).toArray();
            List<NamedTensor> outputs = List.of(
                    NamedTensor.ofLongs(Generation.TOKENS, new long[] {tokens.size(), gen.newTokens()}, all),
                    NamedTensor.ofFloats(Generation.TEACHER_LOGITS, new long[] {gen.newTokens(), teacher.vocab()}, teacher.logits()));
            return new Execution(outputs, t, new MemoryUsage(rssBefore, rssAfter, peak),
                    provider.provenance(backend).withThreads(provider.threadsUsed(request, backend)), List.of(),
                    new Analysis(null, null, new ColdStart(Double.NaN, loadMs, first.totalMs(), t.p50Ms(), cold), null, null));
        } catch (OrtException | RuntimeException e) {
            if (e instanceof dev.accelbridge.core.BackendException be) {
                throw be;
            }
            throw new ExecutionFailedException(Phase.RUN, "Decoder '" + spec.name() + "' failed to generate on " + backend + " (ONNX Runtime "
                    + DjlOnnxRuntimeProvider.environment().ortVersion() + "): "
                    + DjlOnnxRuntimeProvider.oneLine(DjlOnnxRuntimeProvider.rootMessage(e)),
                    "check that the model's inputs are " + gen.layout().inputIds() + ", attention_mask, position_ids and its cache", e);
        }
    }

    private static OrtSession session(ModelLoader.Loaded loaded) {
        OrtSession session = OrtSessions.of(loaded.model().getBlock());
        if (session == null) {
            throw new UnsupportedModelException("DJL's ONNX Runtime block does not expose its session, which a decode loop needs",
                    "use the DJL version Accelbridge pins", null);
        }
        return session;
    }

    private void check(long deadline, String where) {
        if (System.nanoTime() > deadline) {
            throw new ExecutionFailedException(Phase.TIMEOUT, "Decoder '" + spec.name() + "' on " + backend + " exceeded its time limit after "
                    + where, "raise --timeout or lower --new-tokens / --iterations / --warmups", null);
        }
    }

    /** The decode loop over one session (closing it closes what it made for an encoder). */
    static final class Decoder implements AutoCloseable {
        private final OrtEnvironment env;
        private final OrtSession session;
        private final DecoderLayout layout;
        private final long[] prompt;
        private final int newTokens;
        private OrtSession encoder;
        private Generation.Encoder encoderSpec;
        private OnnxTensor features;

        Decoder(OrtEnvironment env, OrtSession session, DecoderLayout layout, long[] prompt, int newTokens) {
            this.env = env;
            this.session = session;
            this.layout = layout;
            this.prompt = prompt.clone();
            this.newTokens = newTokens;
        }

        /**
         * Runs {@code session} on {@code features} at the start of each generation, its states fed to every step. The features
         * tensor is made here, once, as the page makes its own before any generation: a generation's time starts at the run.
         */
        void encoder(OrtSession session, Generation.Encoder spec, NamedTensor features) throws OrtException {
            this.encoder = session;
            this.encoderSpec = spec;
            this.features = OnnxTensor.createTensor(env, FloatBuffer.wrap(features.toFloats()), features.shape());
        }

        /** Closes the features tensor {@link #encoder} made. */
        @Override
        public void close() {
            if (features != null) {
                features.close();
                features = null;
            }
        }

        /**
         * One greedy generation; with {@code forced} the token fed after each step is {@code forced}'s, not the argmax (the
         * teacher-forced pass), and with {@code keepLogits} each step's last-position logits are kept.
         */
        Generated generate(long[] forced, boolean keepLogits) throws OrtException {
            long[] out = new long[newTokens];
            double[] steps = new double[newTokens];
            float[] kept = null;
            int vocab = -1;
            Map<String, OnnxTensor> past = emptyCache();
            List<AutoCloseable> owned = new ArrayList<>(past.values());
            OrtSession.Result previous = null;
            long[] ids = prompt;
            int pos = 0;
            long cacheBytes = 0;
            double encoderMs = Double.NaN;
            OrtSession.Result encoded = null;
            OnnxTensor hidden = null;
            try {
                long t = System.nanoTime();
                if (encoder != null) {
                    encoded = encoder.run(Map.of(encoderSpec.features(), features));
                    hidden = (OnnxTensor) encoded.get(encoderSpec.output()).orElseThrow(() -> new UnsupportedModelException("The encoder '"
                            + encoderSpec.model().name() + "' has no output '" + encoderSpec.output() + "'", "export the encoder with its "
                            + "last_hidden_state", null));
                    encoderMs = (System.nanoTime() - t) / 1e6;
                }
                for (int s = 0; s < newTokens; s++) {
                    int len = ids.length;
                    int total = pos + len;
                    Map<String, OnnxTensor> feeds = new LinkedHashMap<>();
                    List<OnnxTensor> made = new ArrayList<>();
                    made.add(longs(feeds, layout.inputIds(), ids, len));
                    if (layout.attentionMask() != null) {
                        long[] mask = new long[total];
                        Arrays.fill(mask, 1);
                        made.add(longs(feeds, layout.attentionMask(), mask, total));
                    }
                    if (layout.positionIds() != null) {
                        long[] p = new long[len];
                        for (int i = 0; i < len; i++) {
                            p[i] = pos + i;
                        }
                        made.add(longs(feeds, layout.positionIds(), p, len));
                    }
                    feeds.putAll(past);
                    if (hidden != null && layout.encoderHidden() != null) {
                        feeds.put(layout.encoderHidden(), hidden);
                    }
                    if (layout.useCacheBranch() != null) {
                        OnnxTensor branch = OnnxTensor.createTensor(env, ByteBuffer.allocateDirect(1).order(ByteOrder.nativeOrder())
                                .put(0, (byte) (pos > 0 ? 1 : 0)), new long[] {1}, OnnxJavaType.BOOL);
                        made.add(branch);
                        feeds.put(layout.useCacheBranch(), branch);
                    }
                    OrtSession.Result res = session.run(feeds);
                    OnnxTensor logits = (OnnxTensor) res.get(layout.logits()).orElseThrow();
                    long[] shape = logits.getInfo().getShape();
                    vocab = (int) shape[shape.length - 1];
                    FloatBuffer fb = logits.getFloatBuffer();
                    float[] row = new float[vocab];
                    fb.position((len - 1) * vocab);
                    fb.get(row);
                    int next = GenerationCheck.argmax(row, 0, vocab);
                    long now = System.nanoTime();
                    steps[s] = (now - t) / 1e6;
                    t = now;
                    out[s] = next;
                    if (keepLogits) {
                        kept = kept == null ? new float[newTokens * vocab] : kept;
                        System.arraycopy(row, 0, kept, s * vocab, vocab);
                    }
                    for (OnnxTensor m : made) {
                        m.close();
                    }
                    if (previous != null) {
                        previous.close();
                    }
                    previous = res;
                    past = new LinkedHashMap<>();
                    for (DecoderLayout.Cache c : layout.cache()) {
                        OnnxValue v = res.get(c.present()).orElseThrow();
                        past.put(c.past(), (OnnxTensor) v);
                    }
                    cacheBytes = 0;
                    for (OnnxTensor c : past.values()) {
                        cacheBytes += c.getInfo().getNumElements() * layout.cacheType().byteSize();
                    }
                    ids = new long[] {forced != null ? forced[s] : next};
                    pos = total;
                }
            } finally {
                if (previous != null) {
                    previous.close();
                }
                if (encoded != null) {
                    encoded.close();
                }
                for (AutoCloseable c : owned) {
                    try {
                        c.close();
                    } catch (Exception e) {
                        // closing a tensor of ours does not fail
                    }
                }
            }
            return new Generated(out, steps, kept, vocab, cacheBytes, encoderMs);
        }

        private OnnxTensor longs(Map<String, OnnxTensor> feeds, String name, long[] v, int len) throws OrtException {
            OnnxTensor t = OnnxTensor.createTensor(env, LongBuffer.wrap(v), new long[] {1, len});
            feeds.put(name, t);
            return t;
        }

        /** The first step's cache: {@code [1, kv_heads, 0, head_dim]} per cache input. */
        private Map<String, OnnxTensor> emptyCache() throws OrtException {
            Map<String, OnnxTensor> m = new LinkedHashMap<>();
            OnnxJavaType type = layout.cacheType() == DType.FLOAT16 ? OnnxJavaType.FLOAT16 : OnnxJavaType.FLOAT;
            for (DecoderLayout.Cache c : layout.cache()) {
                m.put(c.past(), OnnxTensor.createTensor(env, ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder()),
                        new long[] {1, layout.kvHeads(), 0, layout.headDim()}, type));
            }
            return m;
        }
    }
}
