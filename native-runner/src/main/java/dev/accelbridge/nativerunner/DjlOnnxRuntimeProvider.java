package dev.accelbridge.nativerunner;

import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.translate.NoopTranslator;
import ai.onnxruntime.OrtEnvironment;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.DjlDefaults;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
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
            EnumSet.of(BackendId.CPU, BackendId.CUDA, BackendId.ROCM, BackendId.COREML, BackendId.OPENVINO, BackendId.NATIVE_WEBGPU));

    static {
        OrtTelemetry.off(); // before any engine or environment exists
        DjlDefaults.apply(); // before DJL looks for an alternative engine
    }

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
        boolean cold = cases.getAndIncrement() == 0;
        // the native side's one dispatch on what a case does
        return request.modelCase().scenario().accept(new Scenario.Cases<Execution>() {
            @Override
            public Execution singlePass(Scenario.SinglePass s) {
                return new NativeRun(DjlOnnxRuntimeProvider.this, loader, request, spec, backend).run(cold);
            }

            @Override
            public Execution generation(Generation g) {
                return new NativeGeneration(DjlOnnxRuntimeProvider.this, loader, request, g, spec, backend).run(cold);
            }
        });
    }

    /** The variable a native WebGPU runner process is told its adapter by (the Vulkan driver its parent gave it). */
    public static final String NATIVE_WEBGPU_ADAPTER = "ACCELBRIDGE_NATIVE_WEBGPU_ADAPTER";
    /** {@code 1} where that adapter is a software one (SwiftShader's Vulkan). */
    public static final String NATIVE_WEBGPU_SOFTWARE = "ACCELBRIDGE_NATIVE_WEBGPU_SOFTWARE";

    Provenance provenance(BackendId backend) {
        NativeEnvironment env = environment();
        String gpu = backend == BackendId.CUDA ? gpuSuffix(env, "nvidia") : backend == BackendId.ROCM ? gpuSuffix(env, "amd") : "";
        String device = switch (backend) {
            case CPU -> "CPU: " + env.cpuModel();
            case CUDA -> "CUDA device 0" + gpu;
            case ROCM -> "ROCm device 0" + gpu;
            case COREML -> "CoreML (" + env.arch() + ")";
            case OPENVINO -> "OpenVINO (default device)";
            // the Vulkan driver the parent gave this runner process, said by the parent (NativeWebGpuProvider)
            case NATIVE_WEBGPU -> Optional.ofNullable(System.getenv(NATIVE_WEBGPU_ADAPTER)).orElse("Dawn's default adapter (unnamed)");
            default -> backend.id();
        };
        if (backend == BackendId.NATIVE_WEBGPU) {
            Boolean software = System.getenv(NATIVE_WEBGPU_ADAPTER) == null ? null : "1".equals(System.getenv(NATIVE_WEBGPU_SOFTWARE));
            return Provenance.of(null, null, "djl", device, software, env.ortProviders(), runtimeVersions());
        }
        // a GPU provider's device is shown where the host names its GPU (the provider ran on device 0 of that vendor): the
        // one evidence of hardware a native row has; OpenVINO's default device and CoreML's own choice name none
        return Provenance.of(null, null, "djl", device, gpu.isEmpty() ? null : Boolean.FALSE, env.ortProviders(), runtimeVersions());
    }

    private static String gpuSuffix(NativeEnvironment env, String vendor) {
        return env.gpus().stream().filter(g -> g.toLowerCase().contains(vendor)).findFirst()
                .map(g -> ": " + g).orElse("");
    }

    /**
     * The intra-op threads a session of {@code request} on {@code backend} uses: a swept {@code intra-op-threads} first
     * (it wins over the run's, as {@link ModelLoader#apply} sets it last), then the request's, this provider's option,
     * else ORT's default (one per core).
     */
    Integer threadsUsed(ExecutionRequest request, BackendId backend) {
        Integer intra = ModelLoader.intraOpThreads(request.modelCase().runtimeOptions(), backend);
        if (intra != null) {
            return intra;
        }
        if (request.threads() != null) {
            return request.threads();
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
