package dev.accelbridge.nativerunner;

import ai.djl.Model;
import ai.djl.nn.Block;
import ai.onnxruntime.OnnxTensor;
import ai.djl.training.ParameterStore;
import ai.djl.engine.Engine;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.translate.NoopTranslator;
import ai.djl.translate.TranslateException;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.Settling;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.HostClock;
import dev.accelbridge.core.Timings;
import dev.accelbridge.core.TimeBudget;
import dev.accelbridge.core.UnsupportedModelException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs cases natively with ONNX Runtime through DJL's OnnxRuntime engine, on the {@code cpu}, {@code cuda},
 * {@code rocm}, {@code coreml} and {@code openvino} execution providers. Registered as a
 * {@link BackendProvider} service.
 *
 * <p>Per case: the model is loaded from {@link ModelSpec#path()} into a fresh DJL model/ORT session with the
 * backend's execution provider (timed: {@code loadMs}), the inputs are turned into named NDArrays once, then
 * the first inference, the warm-ups and the timed iterations run through a {@link NoopTranslator} predictor,
 * with {@link System#nanoTime()} read immediately around each {@code predictor.predict} call. Process RSS is
 * read before load and after the timed iterations, and its peak is tracked by a background sampler and, on
 * Linux, the kernel's VmHWM. The model and predictor are closed at the end of every case; the engine (and ONNX
 * Runtime's environment) is shared by the process.
 *
 * <p>DJL must start ONNX Runtime's environment itself (it sets global thread options), so this class always
 * starts the engine before it touches {@link OrtEnvironment}.
 */
public final class DjlOnnxRuntimeProvider implements BackendProvider {
    /** DJL's engine name; always given explicitly so another engine on the class path can't become default. */
    public static final String ENGINE = "OnnxRuntime";

    private static final Set<BackendId> BACKENDS = Collections.unmodifiableSet(
            EnumSet.of(BackendId.CPU, BackendId.CUDA, BackendId.ROCM, BackendId.COREML, BackendId.OPENVINO));

    private static volatile NativeEnvironment environment;
    private final ModelLoader loader;
    /** Cases this provider ran: the first found this process's runtime cold (ColdStart.freshPage). */
    private final java.util.concurrent.atomic.AtomicInteger cases = new java.util.concurrent.atomic.AtomicInteger();

    private final NativeRunnerOptions options;

    /** With {@link NativeRunnerOptions#defaults()}; the constructor {@link java.util.ServiceLoader} uses. */
    public DjlOnnxRuntimeProvider() {
        this(NativeRunnerOptions.defaults());
    }

    /** With explicit options. */
    public DjlOnnxRuntimeProvider(NativeRunnerOptions options) {
        this.loader = new ModelLoader(options);
        this.options = options == null ? NativeRunnerOptions.defaults() : options;
    }

    @Override
    public String name() {
        return "djl-onnxruntime";
    }

    @Override
    public Set<BackendId> backends() {
        return BACKENDS;
    }

    /** The options in force. */
    public NativeRunnerOptions options() {
        return options;
    }

    @Override
    public Availability probe(BackendId backend) {
        return NativeProbe.decide(backend, environment());
    }

    /**
     * What the probes decide on, gathered once per process: ONNX Runtime's version and providers (after
     * starting DJL's engine), the exact error each accelerated provider raises when added to session options,
     * DJL's CUDA device count, OSHI's GPUs and CPU.
     */
    public static NativeEnvironment environment() {
        NativeEnvironment e = environment;
        if (e == null) {
            synchronized (DjlOnnxRuntimeProvider.class) {
                if (environment == null) {
                    environment = NativeThread.call(OrtProviders::gather);
                }
                e = environment;
            }
        }
        return e;
    }

    /** The ONNX Runtime native library this process loaded ({@code 1.29.0}); empty when it did not load. */
    @Override
    public java.util.Optional<String> runtimeVersion() {
        return java.util.Optional.ofNullable(environment().ortVersion());
    }

    /**
     * Versions for provenance: {@code djl}, {@code onnxruntime} (the native library actually loaded, not DJL's
     * compiled-against version), {@code java}.
     */
    public static Map<String, String> runtimeVersions() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("djl", Engine.getDjlVersion());
        NativeEnvironment env = environment();
        if (env.ortVersion() != null) {
            v.put("onnxruntime", env.ortVersion());
        }
        v.put("java", Runtime.version().toString());
        return v;
    }

    @Override
    public Execution execute(ExecutionRequest request) {
        return NativeThread.call(() -> executeOnNativeThread(request));
    }

    private Execution executeOnNativeThread(ExecutionRequest request) {
        BackendId backend = request.backend();
        if (!BACKENDS.contains(backend)) {
            throw new BackendUnavailableException(backend + " is not served by " + name() + " (it serves "
                    + BACKENDS + ")", "run browser backends through the bridge");
        }
        Availability availability = probe(backend);
        if (!availability.available()) {
            throw new BackendUnavailableException(availability.evidence(), NativeProbe.fix(backend));
        }
        ModelSpec spec = request.modelCase().model();
        Path path = spec.path();
        if (path == null || !Files.isRegularFile(path)) {
            throw new ExecutionFailedException(Phase.LOAD, "Model file " + path + " of model '" + spec.name()
                    + "' does not exist or is not a file", "check the model path (--model PATH)", null);
        }
        long deadline = request.timeout() == null ? Long.MAX_VALUE : System.nanoTime() + request.timeout().toNanos();
        List<String> warnings = new ArrayList<>();
        boolean kernelPeak = ProcessMemory.resetKernelPeak();
        long rssBefore = ProcessMemory.rss();
        // The kernel's own high-water mark needs no sampler; without it a sampler covers load and warm-up only, and
        // is stopped before the timed loop so nothing of ours competes with ONNX Runtime while it is timed.
        ProcessMemory.Sampler sampler = kernelPeak || options.memorySampleInterval().isZero() ? null
                : new ProcessMemory.Sampler(options.memorySampleInterval());
        long sampledPeak = -1;
        try {
            long t0 = System.nanoTime();
            try (ModelLoader.Loaded loaded = loader.load(backend, spec, request.threads(), request.modelCase().freeDims())) {
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
                            for (Map.Entry<String, ai.onnxruntime.OnnxValue> e : res) {
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
                    } else if (options.memorySampleInterval().isZero()) {
                        warnings.add("peak RSS is the larger of before/after only (sampler off, kernel peak not resettable)");
                    }
                    Timings timings = Timings.of(loadMs, firstMs, warmed, java.util.Arrays.copyOf(samples, taken))
                            .withClock(HostClock.nanoTimeResolutionMs(), Double.NaN);
                    timings = timings.withQuality(timings.quality().withWarmup(warmupMs, warm.settled(), warm.trend()));
                    // the drill-down runs after the timed session, each part on a session of its own
                    NativeAnalysis na = new NativeAnalysis(loader, backend, spec, request.threads(),
                            request.modelCase().freeDims(), ordered);
                    Analysis analysis = new Analysis(null,
                            request.profileIterations() == 0 ? null : na.profile(request.profileIterations()),
                            new ColdStart(Double.NaN, loadMs, firstMs, timings.p50Ms(), cases.getAndIncrement() == 0),
                            request.recreate() == 0 ? null : na.recreate(request.recreate()),
                            request.checksPlacement() && backend == BackendId.CPU
                                    ? Placement.onRequested(Placement.CPU_EP, "native ONNX Runtime with the CPU EP alone") : null);
                    return new Execution(outputs, timings, new MemoryUsage(rssBefore, rssAfter, peak),
                            provenance(backend).withThreads(threadsUsed(request.threads())), warnings, analysis);
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
                + " (ONNX Runtime " + environment().ortVersion() + "): " + oneLine(rootMessage(e)),
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

    private Provenance provenance(BackendId backend) {
        NativeEnvironment env = environment();
        String device = switch (backend) {
            case CPU -> "CPU: " + env.cpuModel();
            case CUDA -> "CUDA device 0" + gpuSuffix(env, "nvidia");
            case ROCM -> "ROCm device 0" + gpuSuffix(env, "amd");
            case COREML -> "CoreML (" + env.arch() + ")";
            case OPENVINO -> "OpenVINO (default device)";
            default -> backend.id();
        };
        return Provenance.of(null, null, "djl", device, null, env.ortProviders(), runtimeVersions());
    }

    private static String gpuSuffix(NativeEnvironment env, String vendor) {
        return env.gpus().stream().filter(g -> g.toLowerCase().contains(vendor)).findFirst()
                .map(g -> ": " + g).orElse("");
    }

    /** The intra-op threads a session uses: the request's, this provider's option, else ORT's default (one per core). */
    private Integer threadsUsed(Integer requested) {
        if (requested != null) {
            return requested;
        }
        return options.intraOpThreads() != null ? options.intraOpThreads() : Runtime.getRuntime().availableProcessors();
    }

    /** A loaded DJL model and the session options made for it. */
    ModelLoader.Loaded load(BackendId backend, ModelSpec spec) {
        return loader.load(backend, spec, null, Map.of());
    }

    /** The deepest cause's message (ORT's own words), or the class name when it has none. */
    static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        String m = c.getMessage();
        return m == null || m.isBlank() ? c.getClass().getSimpleName() : m;
    }

    static String oneLine(String s) {
        return s.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
