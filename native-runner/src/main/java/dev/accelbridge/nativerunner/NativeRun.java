package dev.accelbridge.nativerunner;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.inference.Predictor;
import ai.djl.nn.Block;
import ai.djl.training.ParameterStore;
import ai.djl.translate.NoopTranslator;
import ai.djl.translate.TranslateException;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostClock;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.Settling;
import dev.accelbridge.core.TimeBudget;
import dev.accelbridge.core.Timings;
import dev.accelbridge.core.UnsupportedModelException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One request run natively, from loading the model to the {@link Execution}: the first inference, the warm-up until the
 * runs settle, the timed loop (ONNX Runtime's own {@code session.run}, nothing of DJL's per-call work inside the
 * window), the outputs read back untimed, memory, and the drill-down after. {@link DjlOnnxRuntimeProvider} decides
 * whether a request may run here; this runs it, on the native thread.
 */
final class NativeRun {
    private final DjlOnnxRuntimeProvider provider;
    private final ModelLoader loader;
    private final ExecutionRequest request;
    private final ModelSpec spec;
    private final BackendId backend;

    NativeRun(DjlOnnxRuntimeProvider provider, ModelLoader loader, ExecutionRequest request, ModelSpec spec, BackendId backend) {
        this.provider = provider;
        this.loader = loader;
        this.request = request;
        this.spec = spec;
        this.backend = backend;
    }

    /** Runs the request; {@code cold}: the first case this process's runtime ran. */
    Execution run(boolean cold) {
        long deadline = request.timeout() == null ? Long.MAX_VALUE : System.nanoTime() + request.timeout().toNanos();
        List<String> warnings = new ArrayList<>();
        boolean kernelPeak = ProcessMemory.resetKernelPeak();
        long rssBefore = ProcessMemory.rss();
        // The kernel's own high-water mark needs no sampler; without it a sampler covers load and warm-up only, and
        // is stopped before the timed loop so nothing of ours competes with ONNX Runtime while it is timed.
        ProcessMemory.Sampler sampler = kernelPeak || provider.options().memorySampleInterval().isZero() ? null
                : new ProcessMemory.Sampler(provider.options().memorySampleInterval());
        long sampledPeak = -1;
        try {
            long t0 = System.nanoTime();
            try (ModelLoader.Loaded loaded = loader.load(backend, spec, request.threads(), request.modelCase().freeDims(),
                    request.modelCase().runtimeOptions())) {
                double loadMs = (System.nanoTime() - t0) / 1e6;
                try (Predictor<NDList, NDList> predictor = loaded.model().newPredictor(new NoopTranslator());
                     NDManager manager = loaded.model().getNDManager().newSubManager()) {
                    List<String> modelInputs = loaded.model().describeInput() == null ? List.of()
                            : loaded.model().describeInput().keys();
                    List<NamedTensor> ordered = InputCheck.order(spec, modelInputs, request.modelCase().inputs());
                    NDList inputs = Tensors.toNd(manager, ordered);

                    long s = System.nanoTime();
                    NDList out = predict(predictor, inputs, spec, backend, ordered);
                    double firstMs = (System.nanoTime() - s) / 1e6;
                    checkDeadline(deadline, request, spec, "the first inference");
                    // the warm-ups and timed runs get a deadline derived from the first inference (TimeBudget), under the cap
                    deadline = Math.min(deadline, System.nanoTime() + TimeBudget.forTimedRuns(firstMs, request.warmups(),
                            request.iterations(), request.durations().budget(), 0).toNanos());
                    long lastProgress = System.nanoTime();
                    long warmStart = lastProgress;
                    // at least --warmups and --warmup-duration, then on until the runs stop getting faster (Settling)
                    Settling.Loop warm = new Settling.Loop(request.warmups(), request.durations());
                    while (warm.more(System.nanoTime() - warmStart)) {
                        out.close();
                        long w0 = System.nanoTime();
                        out = predict(predictor, inputs, spec, backend, ordered);
                        warm.add((System.nanoTime() - w0) / 1e6);
                        checkDeadline(deadline, request, spec, "warm-up " + warm.done() + " of " + request.warmups());
                        if (System.nanoTime() - lastProgress > 1_000_000_000L) {
                            lastProgress = System.nanoTime();
                            request.progress().update("warmup", warm.done(), request.warmups());
                        }
                    }
                    int warmed = warm.done();
                    double warmupMs = (System.nanoTime() - warmStart) / 1e6;
                    if (sampler != null) {
                        sampler.close();
                        sampledPeak = sampler.peak();
                        sampler = null;
                    }
                    // The timed call is ONNX Runtime's own session.run on the tensors DJL made (DJL loaded the model and
                    // owns the session): nothing of DJL's per-call work is inside the measurement. Where DJL's block
                    // does not expose its session, the block's forward is timed instead.
                    Block block = loaded.model().getBlock();
                    ParameterStore ps = new ParameterStore(manager, false);
                    Map<String, OnnxTensor> feeds = OrtSessions.feeds(modelInputs, inputs);
                    OrtSession session = feeds == null ? null : OrtSessions.of(block);
                    // at least --iterations, and on until --min-duration has passed (up to the request's cap); the
                    // running sum is of the timed windows only
                    double[] samples = new double[request.maxSamples()];
                    int taken = 0;
                    long timedNanos = 0;
                    for (int i = 0; request.moreSamples(i, timedNanos); i++) {
                        long a;
                        long b;
                        try {
                            if (session != null) {
                                a = System.nanoTime();
                                OrtSession.Result res = session.run(feeds);
                                b = System.nanoTime();
                                res.close();
                            } else {
                                out.close();
                                a = System.nanoTime();
                                out = block.forward(ps, inputs, false);
                                b = System.nanoTime();
                            }
                        } catch (OrtException | RuntimeException e) {
                            throw runFailure(spec, backend, e);
                        }
                        samples[i] = (b - a) / 1e6;
                        timedNanos += b - a;
                        taken = i + 1;
                        if (b > deadline) {
                            checkDeadline(deadline, request, spec, "timed iteration " + (i + 1) + " of at least " + request.iterations());
                        }
                        if (b - lastProgress > 1_000_000_000L) { // between timed windows, at most once a second
                            lastProgress = b;
                            request.progress().update("timed", i + 1, request.iterations());
                        }
                    }
                    List<NamedTensor> outputs = new ArrayList<>();
                    out.close();
                    if (session != null) {
                        // the outputs checked against the reference: one more (untimed) run of the same inputs, through ONNX
                        // Runtime itself, so every graph output comes back under its name (a model without inputs, or
                        // whose outputs are initializers, included) and each is copied onto the heap once
                        try (OrtSession.Result res = session.run(feeds)) {
                            for (Map.Entry<String, OnnxValue> e : res) {
                                outputs.add(Tensors.fromOrt(e.getValue(), e.getKey()));
                            }
                        } catch (NativeRunnerException e) {
                            throw new UnsupportedModelException(e.getMessage() + " (model '" + spec.name() + "')", e.fix(), e);
                        } catch (OrtException | RuntimeException e) {
                            throw runFailure(spec, backend, e);
                        }
                    } else {
                        out = predict(predictor, inputs, spec, backend, ordered);
                        for (int k = 0; k < out.size(); k++) {
                            NDArray arr = out.get(k);
                            try {
                                outputs.add(Tensors.fromNd(arr, "output_" + k));
                            } catch (NativeRunnerException e) {
                                throw new UnsupportedModelException(e.getMessage() + " (model '" + spec.name() + "')",
                                        e.fix(), e);
                            }
                        }
                        out.close();
                    }
                    long rssAfter = ProcessMemory.rss();
                    long peak = Math.max(Math.max(rssAfter, rssBefore), sampledPeak);
                    if (kernelPeak) {
                        peak = Math.max(peak, ProcessMemory.kernelPeak());
                    } else if (provider.options().memorySampleInterval().isZero()) {
                        warnings.add("peak RSS is the larger of before/after only (sampler off, kernel peak not resettable)");
                    }
                    Timings timings = Timings.of(loadMs, firstMs, warmed, Arrays.copyOf(samples, taken))
                            .withClock(HostClock.nanoTimeResolutionMs(), Double.NaN);
                    timings = timings.withQuality(timings.quality().withWarmup(warmupMs, warm.settled(), warm.trend()));
                    // the drill-down runs after the timed session, each part on a session of its own
                    NativeAnalysis na = new NativeAnalysis(loader, backend, spec, request.threads(),
                            request.modelCase().freeDims(), ordered);
                    Analysis analysis = new Analysis(null,
                            request.profileIterations() == 0 ? null : na.profile(request.profileIterations()),
                            new ColdStart(Double.NaN, loadMs, firstMs, timings.p50Ms(), cold),
                            request.recreate() == 0 ? null : na.recreate(request.recreate()),
                            backend == BackendId.CPU
                                    ? Placement.onRequested(Placement.CPU_EP, "native ONNX Runtime with the CPU EP alone") : null);
                    return new Execution(outputs, timings, new MemoryUsage(rssBefore, rssAfter, peak),
                            provider.provenance(backend).withThreads(provider.threadsUsed(request, backend)), warnings, analysis);
                }
            }
        } finally {
            if (sampler != null) {
                sampler.close();
            }
        }
    }

    private NDList predict(Predictor<NDList, NDList> predictor, NDList inputs, ModelSpec spec, BackendId backend,
                           List<NamedTensor> given) {
        try {
            return predictor.predict(inputs);
        } catch (TranslateException | RuntimeException e) {
            ExecutionFailedException f = runFailure(spec, backend, e);
            throw new ExecutionFailedException(Phase.RUN, f.getMessage() + " (inputs given: " + given + ")", f.fix(), e);
        }
    }

    private static ExecutionFailedException runFailure(ModelSpec spec, BackendId backend, Exception e) {
        return new ExecutionFailedException(Phase.RUN, "Model '" + spec.name() + "' failed to run on " + backend
                + " (ONNX Runtime " + DjlOnnxRuntimeProvider.environment().ortVersion() + "): " + DjlOnnxRuntimeProvider.oneLine(DjlOnnxRuntimeProvider.rootMessage(e)),
                "check the inputs' names, types and shapes against the model's declared inputs " + spec.inputs(), e);
    }

    private static void checkDeadline(long deadline, ExecutionRequest request, ModelSpec spec, String where) {
        if (System.nanoTime() > deadline) {
            throw new ExecutionFailedException(Phase.TIMEOUT, "Model '" + spec.name() + "' on " + request.backend()
                    + " exceeded its time budget after " + where + " (the warm-ups and timed runs may take 30 s + 3 x their count x"
                    + " the first inference; --timeout " + (request.timeout() == null ? "none" : request.timeout().toSeconds() + " s")
                    + " caps the case)", "raise --timeout or lower --iterations / --warmups", null);
        }
    }
}
