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

import java.time.Duration;
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
        CaseMemory memory = new CaseMemory(provider.options().memorySampleInterval());
        try {
            long t0 = System.nanoTime();
            try (ModelLoader.Loaded loaded = loader.load(backend, spec, request.threads(), request.modelCase().freeDims(),
                    request.modelCase().runtimeOptions())) {
                double loadMs = (System.nanoTime() - t0) / 1e6;
                try (Predictor<NDList, NDList> predictor = loaded.model().newPredictor(new NoopTranslator());
                     NDManager manager = loaded.model().getNDManager().newSubManager()) {
                    return measure(loaded, loadMs, predictor, manager, deadline, memory, warnings, cold);
                }
            }
        } finally {
            memory.close();
        }
    }

    /** The loaded model's passes (first, warm-up, timed, outputs), then the case's memory, timings and drill-down. */
    private Execution measure(ModelLoader.Loaded loaded, double loadMs, Predictor<NDList, NDList> predictor, NDManager manager,
                              long deadline, CaseMemory memory, List<String> warnings, boolean cold) {
        List<String> modelInputs = loaded.model().describeInput() == null ? List.of()
                : loaded.model().describeInput().keys();
        List<NamedTensor> ordered = InputCheck.order(spec, modelInputs, request.modelCase().inputs());
        NDList inputs = Tensors.toNd(manager, ordered);
        Passes passes = new Passes(predictor, inputs, ordered, deadline);
        double firstMs = passes.first();
        WarmUp warm = passes.warmUp();
        memory.stopSampling();
        // The timed call is ONNX Runtime's own session.run on the tensors DJL made (DJL loaded the model and
        // owns the session): nothing of DJL's per-call work is inside the measurement. Where DJL's block
        // does not expose its session, the block's forward is timed instead.
        Block block = loaded.model().getBlock();
        ParameterStore ps = new ParameterStore(manager, false);
        Map<String, OnnxTensor> feeds = OrtSessions.feeds(modelInputs, inputs);
        OrtSession session = feeds == null ? null : OrtSessions.of(block);
        double[] samples = passes.timed(session, feeds, block, ps);
        List<NamedTensor> outputs = passes.outputs(session, feeds);
        MemoryUsage mem = memory.usage(warnings);
        Timings timings = Timings.of(loadMs, firstMs, warm.loop().done(), samples)
                .withClock(HostClock.nanoTimeResolutionMs(), Double.NaN);
        timings = timings.withQuality(timings.quality().withWarmup(warm.ms(), warm.loop().settled(), warm.loop().trend()));
        Analysis analysis = analysis(ordered, loadMs, firstMs, timings, cold);
        return new Execution(outputs, timings, mem,
                provider.provenance(backend).withThreads(provider.threadsUsed(request, backend)), warnings, analysis);
    }

    /** The drill-down: it runs after the timed session, each part on a session of its own. */
    private Analysis analysis(List<NamedTensor> ordered, double loadMs, double firstMs, Timings timings, boolean cold) {
        NativeAnalysis na = new NativeAnalysis(loader, backend, spec, request.threads(),
                request.modelCase().freeDims(), ordered);
        return new Analysis(null,
                request.profileIterations() == 0 ? null : na.profile(request.profileIterations()),
                new ColdStart(Double.NaN, loadMs, firstMs, timings.p50Ms(), cold),
                request.recreate() == 0 ? null : na.recreate(request.recreate()),
                backend == BackendId.CPU
                        ? Placement.onRequested(Placement.CPU_EP, "native ONNX Runtime with the CPU EP alone") : null)
                .withComputed(backend == BackendId.CPU && request.modelCase().precision().halfFloat()
                        ? HalfPrecisionPlacement.of(spec.path(), spec.sha256(), request.modelCase().runtimeOptions().on(backend).values()
                        .getOrDefault(dev.accelbridge.core.RuntimeOption.OPTIMIZATION, "all")).orElse(null) : null);
    }

    /** The warm-up's runs and how long they took, all of them. */
    private record WarmUp(Settling.Loop loop, double ms) {
    }

    /**
     * The runs of one loaded model on its inputs, in their order: the output now held (each run's replaces the last, which
     * is closed first), the deadline (narrowed once the first inference is known), and when progress was last told.
     */
    private final class Passes {
        private final Predictor<NDList, NDList> predictor;
        private final NDList inputs;
        private final List<NamedTensor> ordered;
        private long deadline;
        private NDList out;
        private long lastProgress;

        Passes(Predictor<NDList, NDList> predictor, NDList inputs, List<NamedTensor> ordered, long deadline) {
            this.predictor = predictor;
            this.inputs = inputs;
            this.ordered = ordered;
            this.deadline = deadline;
        }

        /** The first inference, timed alone; its time sets the deadline of the warm-ups and timed runs. */
        double first() {
            long s = System.nanoTime();
            out = predict(predictor, inputs, spec, backend, ordered);
            double firstMs = (System.nanoTime() - s) / 1e6;
            checkDeadline(deadline, request, spec, "the first inference");
            // the warm-ups and timed runs get a deadline derived from the first inference (TimeBudget), under the cap
            deadline = Math.min(deadline, System.nanoTime() + TimeBudget.forTimedRuns(firstMs, request.warmups(),
                    request.iterations(), request.durations().budget(), 0).toNanos());
            return firstMs;
        }

        /** At least --warmups and --warmup-duration, then on until the runs stop getting faster (Settling). */
        WarmUp warmUp() {
            lastProgress = System.nanoTime();
            long warmStart = lastProgress;
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
            return new WarmUp(warm, (System.nanoTime() - warmStart) / 1e6);
        }

        /**
         * The timed runs' times: at least --iterations, and on until --min-duration has passed (up to the request's cap);
         * the running sum is of the timed windows only. {@code session} null: the block's forward is timed instead.
         */
        double[] timed(OrtSession session, Map<String, OnnxTensor> feeds, Block block, ParameterStore ps) {
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
            return Arrays.copyOf(samples, taken);
        }

        /** The outputs checked against the reference, read back untimed; the output held is closed first. */
        List<NamedTensor> outputs(OrtSession session, Map<String, OnnxTensor> feeds) {
            List<NamedTensor> outputs = new ArrayList<>();
            out.close();
            if (session != null) {
                // one more (untimed) run of the same inputs, through ONNX Runtime itself, so every graph output comes back
                // under its name (a model without inputs, or whose outputs are initializers, included) and each is copied
                // onto the heap once
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
            return outputs;
        }
    }

    /**
     * The process's memory over one case. The kernel's own high-water mark needs no sampler; without it a sampler covers
     * load and warm-up only, and is stopped before the timed loop so nothing of ours competes with ONNX Runtime while it
     * is timed.
     */
    private static final class CaseMemory implements AutoCloseable {
        private final Duration interval;
        private final boolean kernelPeak;
        private final long rssBefore;
        private ProcessMemory.Sampler sampler;
        private long sampledPeak = -1;

        CaseMemory(Duration interval) {
            this.interval = interval;
            this.kernelPeak = ProcessMemory.resetKernelPeak();
            this.rssBefore = ProcessMemory.rss();
            this.sampler = kernelPeak || interval.isZero() ? null : new ProcessMemory.Sampler(interval);
        }

        /** Stops the sampler (if any) before the timed loop, keeping the peak it saw. */
        void stopSampling() {
            if (sampler != null) {
                sampler.close();
                sampledPeak = sampler.peak();
                sampler = null;
            }
        }

        /** The case's memory now that its runs are done; says so in {@code warnings} when the peak is only a guess. */
        MemoryUsage usage(List<String> warnings) {
            long rssAfter = ProcessMemory.rss();
            long peak = Math.max(Math.max(rssAfter, rssBefore), sampledPeak);
            if (kernelPeak) {
                peak = Math.max(peak, ProcessMemory.kernelPeak());
            } else if (interval.isZero()) {
                warnings.add("peak RSS is the larger of before/after only (sampler off, kernel peak not resettable)");
            }
            return new MemoryUsage(rssBefore, rssAfter, peak);
        }

        /** Stops a sampler a failed case left running. */
        @Override
        public void close() {
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
