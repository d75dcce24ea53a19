package dev.accelbridge.nativerunner;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.inference.Predictor;
import ai.djl.nn.Block;
import ai.djl.training.ParameterStore;
import ai.djl.translate.NoopTranslator;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostClock;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.Timings;

import java.time.Duration;
import java.util.ArrayList;
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
        // Every run is ONNX Runtime's own session.run on the tensors DJL made (DJL loaded the model and owns the session):
        // nothing of DJL's per-call work is inside a measurement, and each run can be stopped at the case's deadline
        // (RunGuard). Where DJL's block does not expose its session, the predictor and the block's forward run instead.
        Block block = loaded.model().getBlock();
        ParameterStore ps = new ParameterStore(manager, false);
        Map<String, OnnxTensor> feeds = OrtSessions.feeds(modelInputs, inputs);
        OrtSession session = feeds == null ? null : OrtSessions.of(block);
        double firstMs;
        NativePasses.WarmUp warm;
        double[] samples;
        List<NamedTensor> outputs;
        try (RunGuard guard = new RunGuard(deadline)) {
            NativePasses passes = new NativePasses(request, spec, backend, predictor, inputs, ordered, deadline, session, feeds, guard);
            firstMs = passes.first();
            warm = passes.warmUp();
            memory.stopSampling();
            samples = passes.timed(block, ps);
            outputs = passes.outputs();
        } catch (OrtException e) {
            throw NativePasses.runFailure(spec, backend, e);
        }
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
                        .getOrDefault(RuntimeOption.OPTIMIZATION, "all")).orElse(null) : null);
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

}
