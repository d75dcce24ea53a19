package dev.accelbridge.nativerunner;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.HostClock;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Settling;
import dev.accelbridge.core.Timings;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.nativerunner.DecodeLoop.Generated;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A generation case run natively: ONNX Runtime's own {@code session.run} once per token, the KV cache fed back as the
 * {@link DecoderLayout} says, each step timed from the moment its feeds are made to the moment its token is known (logits
 * read, argmax done). The first generation after the session is made is the cold one; then the warm-ups, the timed
 * generations, and one teacher-forced pass (fed the reference's tokens) whose logits the verdict compares. The page's
 * {@code generate.mjs} is the same loop ({@link DecodeLoop} here).
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

    Execution run(boolean cold) {
        long deadline = request.timeout() == null ? Long.MAX_VALUE : System.nanoTime() + request.timeout().toNanos();
        long[] prompt = prompt();
        boolean kernelPeak = ProcessMemory.resetKernelPeak();
        long rssBefore = ProcessMemory.rss();
        long t0 = System.nanoTime();
        Generation.Encoder enc = gen.encoder();
        try (ModelLoader.Loaded loaded = loader.load(backend, spec, request.threads(), Map.of(), request.modelCase().runtimeOptions());
             ModelLoader.Loaded encoderLoaded = enc == null ? null
                     : loader.load(backend, enc.model(), request.threads(), Map.of(), request.modelCase().runtimeOptions());
             DecodeLoop d = new DecodeLoop(OrtEnvironment.getEnvironment(), session(loaded), gen.layout(), prompt, gen.newTokens())) {
            double loadMs = (System.nanoTime() - t0) / 1e6;
            if (enc != null) {
                NamedTensor features = features(enc);
                d.encoder(session(encoderLoaded), enc, features);
            }
            List<long[]> tokens = new ArrayList<>();
            Generated first = d.generate(null, false);
            tokens.add(first.tokens());
            check(deadline, "the first generation");
            WarmUp warm = warmUp(d, tokens, deadline);
            Timed timed = timed(d, tokens, deadline, first.cacheBytes(), enc != null);
            long tt = System.nanoTime();
            Generated teacher = d.generate(gen.teacher() != null ? gen.teacher() : first.tokens(), true);
            double teacherMs = (System.nanoTime() - tt) / 1e6;
            long rssAfter = ProcessMemory.rss();
            long peak = Math.max(rssBefore, rssAfter);
            if (kernelPeak) {
                peak = Math.max(peak, ProcessMemory.kernelPeak());
            }
            Timings t = timings(loadMs, first, warm, timed, prompt.length, teacherMs);
            return new Execution(outputs(tokens, teacher), t, new MemoryUsage(rssBefore, rssAfter, peak),
                    provider.provenance(backend).withThreads(provider.threadsUsed(request, backend)), List.of(),
                    new Analysis(null, null, new ColdStart(Double.NaN, loadMs, first.totalMs(), t.p50Ms(), cold), null, null));
        } catch (OrtException | RuntimeException e) {
            throw failure(e);
        }
    }

    /** The warm-up's generations and how long they took, all of them. */
    private record WarmUp(Settling.Loop loop, double ms) {
    }

    /** The timed generations: each one's steps and total, its encoder's time (with one), and the cache's size at the end. */
    private record Timed(List<double[]> steps, List<Double> totals, List<Double> encoderMs, long cacheBytes) {
    }

    /** The prompt's ids: the case's input the layout names. */
    private long[] prompt() {
        return request.modelCase().inputs().stream().filter(t -> t.name().equals(gen.layout().inputIds())).findFirst()
                .orElseThrow(() -> new UnsupportedModelException("A generation case of '" + spec.name() + "' has no prompt '"
                        + gen.layout().inputIds() + "'", "give the prompt as input_ids [1, P]", null)).toLongs();
    }

    /** What an encoder-decoder's encoder is fed: the case's input its encoder names. */
    private NamedTensor features(Generation.Encoder enc) {
        return request.modelCase().inputs().stream().filter(t -> t.name().equals(enc.features())).findFirst()
                .orElseThrow(() -> new UnsupportedModelException("A speech-to-text case of '" + spec.name() + "' has no '" + enc.features()
                        + "' for its encoder", "give the log-mel features as " + enc.features(), null));
    }

    /** At least --warmups and --warmup-duration of whole generations, then on until they stop getting faster (Settling). */
    private WarmUp warmUp(DecodeLoop d, List<long[]> tokens, long deadline) throws OrtException {
        Settling.Loop warm = new Settling.Loop(request.warmups(), request.durations());
        long warmStart = System.nanoTime();
        while (warm.more(System.nanoTime() - warmStart)) {
            Generated w = d.generate(null, false);
            tokens.add(w.tokens());
            warm.add(w.totalMs());
            check(deadline, "warm-up generation " + warm.done());
            request.progress().update("warmup", warm.done(), request.warmups());
        }
        return new WarmUp(warm, (System.nanoTime() - warmStart) / 1e6);
    }

    /**
     * At least --iterations, and on until --min-duration of timed generations (up to the request's cap), as a single
     * pass's timed runs.
     */
    private Timed timed(DecodeLoop d, List<long[]> tokens, long deadline, long firstCacheBytes, boolean encoder) throws OrtException {
        List<double[]> steps = new ArrayList<>();
        List<Double> totals = new ArrayList<>();
        List<Double> encoderMs = new ArrayList<>();
        long cacheBytes = firstCacheBytes;
        long timedNanos = 0;
        for (int i = 0; request.moreSamples(i, timedNanos); i++) {
            Generated g = d.generate(null, false);
            tokens.add(g.tokens());
            steps.add(g.stepsMs());
            totals.add(g.totalMs());
            timedNanos += (long) (g.totalMs() * 1e6);
            if (encoder) {
                encoderMs.add(g.encoderMs());
            }
            cacheBytes = g.cacheBytes();
            check(deadline, "timed generation " + (i + 1) + " of " + request.iterations());
            request.progress().update("timed", i + 1, request.iterations());
        }
        return new Timed(steps, totals, encoderMs, cacheBytes);
    }

    /** The timed generations' figures, their warm-up's, and the decoding's own (time to first token, steps, cache). */
    private Timings timings(double loadMs, Generated first, WarmUp warm, Timed timed, int promptLength, double teacherMs) {
        Timings t = Timings.of(loadMs, first.totalMs(), warm.loop().done(), timed.totals())
                .withClock(HostClock.nanoTimeResolutionMs(), Double.NaN);
        return t.withQuality(t.quality().withWarmup(warm.ms(), warm.loop().settled(), warm.loop().trend()))
                .withDecoding(Decoding.of(promptLength, gen.newTokens(), timed.steps().toArray(new double[0][]), first.stepsMs(),
                java.util.OptionalLong.of(timed.cacheBytes())).withEncoder(timed.encoderMs().stream().mapToDouble(Double::doubleValue).toArray())
                .withTeacherMs(teacherMs));
    }

    /** Every generation's tokens, in the order they ran, and the teacher-forced pass's logits: what the verdict reads. */
    private List<NamedTensor> outputs(List<long[]> tokens, Generated teacher) {
        long[] all = tokens.stream().flatMapToLong(Arrays::stream).toArray();
        return List.of(
                NamedTensor.ofLongs(Generation.TOKENS, new long[] {tokens.size(), gen.newTokens()}, all),
                NamedTensor.ofFloats(Generation.TEACHER_LOGITS, new long[] {gen.newTokens(), teacher.vocab()}, teacher.logits()));
    }

    /** A failure as the case's: a backend's verdict as it is, anything else a failed generation on this runtime. */
    private RuntimeException failure(Exception e) {
        if (e instanceof BackendException be) {
            return be;
        }
        return new ExecutionFailedException(Phase.RUN, "Decoder '" + spec.name() + "' failed to generate on " + backend + " (ONNX Runtime "
                + DjlOnnxRuntimeProvider.environment().ortVersion() + "): "
                + DjlOnnxRuntimeProvider.oneLine(DjlOnnxRuntimeProvider.rootMessage(e)),
                "check that the model's inputs are " + gen.layout().inputIds() + ", attention_mask, position_ids and its cache", e);
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
}
