package dev.accelbridge.nativerunner;

import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DiagnosedLoadException;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.suites.onnx.KernelGap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Loads a model into ONNX Runtime through DJL for one backend: the execution provider, the intra-op threads, the
 * free-dimension overrides, and what ORT's load errors mean (a runtime that does not implement what the model uses is
 * UNSUPPORTED; anything else FAILED with ORT's own words).
 */
final class ModelLoader {
    private static final String ENGINE = DjlOnnxRuntimeProvider.ENGINE;
    private final NativeRunnerOptions options;

    ModelLoader(NativeRunnerOptions options) {
        this.options = options;
    }

    /** A loaded DJL model and the session options made for it (DJL closes only its own). */
    record Loaded(Model model, OrtSession.SessionOptions ownOptions) implements AutoCloseable {
        @Override
        public void close() {
            model.close();
            if (ownOptions != null) {
                ownOptions.close();
            }
        }
    }

    Loaded load(BackendId backend, ModelSpec spec, Integer threads, Map<String, Long> freeDims) {
        return load(backend, spec, threads, freeDims, null, RuntimeOptions.DEFAULT);
    }

    /** Same, at the session options {@code ro} (their native meaning: {@link #apply}). */
    Loaded load(BackendId backend, ModelSpec spec, Integer threads, Map<String, Long> freeDims, RuntimeOptions ro) {
        return load(backend, spec, threads, freeDims, null, ro);
    }

    Loaded load(BackendId backend, ModelSpec spec, Integer threads, Map<String, Long> freeDims, String profilePrefix) {
        return load(backend, spec, threads, freeDims, profilePrefix, RuntimeOptions.DEFAULT);
    }

    /** The native meaning of the session options: the graph optimization level and intra-op threads (the others are the page's). */
    static void apply(OrtSession.SessionOptions so, RuntimeOptions ro) throws OrtException {
        Integer intra = intraOpThreads(ro, null);
        if (intra != null) {
            so.setIntraOpNumThreads(intra);
        }
        if (ro.values().containsKey(RuntimeOption.OPTIMIZATION)) {
            so.setOptimizationLevel(LoadDiagnostician.LEVELS.getOrDefault(ro.get(RuntimeOption.OPTIMIZATION),
                    OrtSession.SessionOptions.OptLevel.ALL_OPT));
        }
    }

    /**
     * The intra-op threads {@code ro} sets on {@code backend} (any backend when null), or null where it sets none
     * ({@code auto}: the run's).
     */
    static Integer intraOpThreads(RuntimeOptions ro, BackendId backend) {
        RuntimeOptions on = backend == null ? ro : ro.on(backend);
        String v = on.values().get(RuntimeOption.INTRA_OP_THREADS);
        return v == null || v.equals(RuntimeOption.INTRA_OP_THREADS.defaultValue()) ? null : Integer.valueOf(v);
    }

    /**
     * Same; with {@code profilePrefix} the session is made with ONNX Runtime's profiler on, writing its trace to a file
     * of that prefix (a session made for profiling alone: the timed session never has it on).
     */
    Loaded load(BackendId backend, ModelSpec spec, Integer threads, Map<String, Long> freeDims, String profilePrefix, RuntimeOptions ro) {
        Path path = spec.path().toAbsolutePath();
        if (!java.nio.file.Files.isRegularFile(path)) {
            throw new ExecutionFailedException(Phase.LOAD, "Model '" + spec.name() + "' was not found at " + path,
                    "check the model path (--model PATH)", null);
        }
        try {
            // every session is made from options made here, so ONNX Runtime's own log stays at errors: its warnings quote the
            // model's names ("Removing initializer ...") straight to the terminal, escape sequences and all
            OrtSession.SessionOptions so = new OrtSession.SessionOptions();
            try {
                so.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR);
                Map<String, Object> opts = new HashMap<>(stringOptions(threads));
                Device device = Device.cpu(); // explicit: DJL's default device is the GPU when CUDA is present
                if (backend == BackendId.OPENVINO || backend == BackendId.NATIVE_WEBGPU || !freeDims.isEmpty() || profilePrefix != null || !ro.on(backend).isDefault()) {
                    // DJL 0.38's OrtModel knows ortDevice TensorRT/ROCM/CoreML only (not OpenVINO, not WebGPU), and no free-dimension overrides: both go
                    // in as ONNX Runtime session options made here (the same overrides the page gives onnxruntime-web).
                    OrtProviders.addProvider(so, backend);
                    if (profilePrefix != null) {
                        so.enableProfiling(profilePrefix);
                    }
                    for (Map.Entry<String, Long> d : freeDims.entrySet()) {
                        so.setSymbolicDimensionValue(d.getKey(), d.getValue());
                    }
                    Integer intra = threads != null ? threads : options.intraOpThreads();
                    if (intra != null) {
                        so.setIntraOpNumThreads(intra);
                    }
                    if (options.interOpThreads() != null) {
                        so.setInterOpNumThreads(options.interOpThreads());
                    }
                    apply(so, ro.on(backend)); // after the run's threads: a swept option wins
                } else {
                    // DJL's own providers: CUDA by the model's device, ROCm and CoreML by its ortDevice option
                    switch (backend) {
                        case CUDA -> device = Device.gpu(0);
                        case ROCM -> opts.put("ortDevice", "ROCM");
                        case COREML -> opts.put("ortDevice", "CoreML");
                        default -> { }
                    }
                }
                opts.put("sessionOptions", so);
                Model model = Model.newInstance(spec.name(), device, ENGINE);
                try {
                    model.load(path, spec.name(), opts);
                    return new Loaded(model, so);
                } catch (IOException | MalformedModelException | RuntimeException e) {
                    model.close();
                    throw e;
                }
            } catch (OrtException | IOException | MalformedModelException | RuntimeException e) {
                so.close();
                throw e;
            }
        } catch (OrtException | IOException | MalformedModelException | RuntimeException e) {
            throw loadFailure(backend, spec, path, e, ro.on(backend).values().getOrDefault(RuntimeOption.OPTIMIZATION, "all"));
        }
    }

    private Map<String, String> stringOptions(Integer threads) {
        Map<String, String> m = new LinkedHashMap<>();
        Integer intra = threads != null ? threads : options.intraOpThreads();
        if (intra != null) {
            m.put("intraOpNumThreads", intra.toString());
        }
        if (options.interOpThreads() != null) {
            m.put("interOpNumThreads", options.interOpThreads().toString());
        }
        if (options.optLevel() != null) {
            m.put("optLevel", options.optLevel());
        }
        return m;
    }

    /**
     * ORT's words for "this runtime has no implementation of what the model uses", or is older than the model's format
     * ("Unsupported model IR version: 10, max supported IR version: 9", ONNX Runtime 1.17 on an opset-22 model): the
     * backend is present, the model is not runnable on it.
     */
    static final java.util.regex.Pattern UNSUPPORTED = java.util.regex.Pattern.compile(
            "(?i)(" + UnsupportedModelException.ORT_WORDS + "|is not supported)");

    static BackendException loadFailure(BackendId backend, ModelSpec spec, Path path, Exception e) {
        return loadFailure(backend, spec, path, e, null);
    }

    /**
     * The failure of a load at the optimization level {@code level} (null: not diagnosed): on the CPU, a model ONNX Runtime
     * rejects is loaded again at lower levels, and a level that loads it is said with the optimizer at fault
     * ({@link LoadDiagnostician}).
     */
    static BackendException loadFailure(BackendId backend, ModelSpec spec, Path path, Exception e, String level) {
        String msg = DjlOnnxRuntimeProvider.oneLine(DjlOnnxRuntimeProvider.rootMessage(e));
        if (UNSUPPORTED.matcher(msg).find()) {
            // the runtime's words, and what the model adds to them: the node's domain and its inputs' types
            String gap = KernelGap.describe(path, msg).map(k -> " (" + k + ")").orElse("");
            return new UnsupportedModelException("ONNX Runtime " + DjlOnnxRuntimeProvider.environment().ortVersion() + " cannot run model '"
                    + spec.name() + "' on " + backend + ": " + msg + gap, "the model uses an op, domain, type or format version this "
                    + "runtime does not implement; re-export it with standard ops at an older opset, or run it on a newer runtime", e);
        }
        OrtException ort = find(e, OrtException.class);
        boolean epFailure = backend != BackendId.CPU && ort != null
                && (ort.getCode() == OrtException.OrtErrorCode.ORT_EP_FAIL
                || msg.contains("shared provider") || msg.contains("not compiled with") || msg.contains("provider"));
        String ortVersion = DjlOnnxRuntimeProvider.environment().ortVersion();
        if (epFailure) {
            return new ExecutionFailedException(Phase.LOAD, "ONNX Runtime " + ortVersion + " could not create a session for model '"
                    + spec.name() + "' with " + NativeProbe.providerName(backend) + " (" + backend + "): " + msg,
                    NativeProbe.fix(backend), e);
        }
        Optional<LoadDiagnosis> diagnosis = backend == BackendId.CPU && level != null && LoadDiagnostician.LEVELS.containsKey(level)
                ? LoadDiagnostician.diagnose(path, level, msg) : Optional.empty();
        if (diagnosis.isPresent()) {
            return new DiagnosedLoadException("Model '" + spec.name() + "' " + diagnosis.get().sentence() + " ("
                    + msg + ")", diagnosis.get(), e);
        }
        return new ExecutionFailedException(Phase.LOAD, "Model '" + spec.name() + "' (" + path
                + ") could not be loaded by ONNX Runtime " + ortVersion + ": " + msg,
                "check that the file is a complete ONNX model (not truncated, not a Git LFS pointer) with an opset "
                        + "ONNX Runtime " + ortVersion + " supports; re-export or regenerate it", e);
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

}
