package dev.accelbridge.core;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One ONNX Runtime session option the matrix sweeps, declared once: its name, its values (the first is the default every
 * record without it had), the backends it applies to, and what it means. {@link RuntimeOptions} holds a case's values;
 * the page and the native runner each map a value onto their runtime's own session option in one place.
 */
public enum RuntimeOption {
    /**
     * Where a WebGPU session leaves its outputs ({@code preferredOutputLocation}): {@code auto} as users run it (a
     * decoder's cache stays on the GPU between steps, every other output is read back), {@code cpu} (every output read
     * back, the cache too), or {@code gpu-buffer} (every output left on the GPU and read back when it is consumed, inside
     * the timed run, so the time is never stopped before the output is usable).
     */
    OUTPUTS("outputs", List.of("auto", "cpu", "gpu-buffer"), Set.of(BackendId.WEBGPU), null,
            "where WebGPU leaves outputs: auto (a decoder's cache on the GPU), cpu, gpu-buffer (read back when consumed, timed)"),
    /**
     * WebGPU graph capture ({@code enableGraphCapture}): the first run's GPU work is recorded and replayed. onnxruntime-web
     * then takes inputs and outputs as GPU buffers only, so the page uploads the feeds once and leaves every output on
     * the GPU (read back inside the timed run); a model it cannot capture is refused in the release's own words.
     */
    GRAPH_CAPTURE("graph-capture", List.of("off", "on"), Set.of(BackendId.WEBGPU), null,
            "WebGPU graph capture: off, on (inputs uploaded once, outputs read back when consumed, timed; on the native WebGPU EP "
                    + "int64 then runs on the GPU as 32 bits)"),
    /** The graph optimization level of the session, on either side ({@code graphOptimizationLevel}). */
    OPTIMIZATION("optimization", List.of("all", "extended", "basic", "disabled"), null, null,
            "ONNX Runtime's graph optimization level, natively and in the page"),
    /**
     * Native ONNX Runtime's intra-op threads ({@code SessionOptions.setIntraOpNumThreads}); {@code auto} is the run's
     * {@code --threads}. Natively only: a page's wasm thread count is fixed when its runtime starts, so it stays the run's.
     */
    INTRA_OP_THREADS("intra-op-threads", List.of("auto", "1", "2", "4", "8", "16", "32", "64"),
            Set.of(BackendId.CPU, BackendId.CUDA, BackendId.ROCM, BackendId.COREML, BackendId.OPENVINO), null,
            "native intra-op threads: auto (the run's --threads), 1, 2, 4, 8, 16, 32, 64"),
    /**
     * The native WebGPU EP's WebGPU validation ({@code validationMode}): {@code basic} (its default), {@code disabled},
     * {@code wgpu-only} or {@code full}. JSEP has no such option and drops it unread, so it applies to the native EP only.
     * It is the GPU device's, not the session's: the EP keeps one device while any session holds it.
     */
    VALIDATION("validation", List.of("basic", "disabled", "wgpu-only", "full"), Set.of(BackendId.WEBGPU),
            Set.of(OrtWebEngine.WEBGPU_EP, OrtWebEngine.WEBGPU_EP_JSPI),
            "the native WebGPU EP's validation: basic, disabled, wgpu-only, full (not on JSEP, which has none)"),
    /**
     * How the native WebGPU EP caches its storage buffers ({@code storageBufferCacheMode}): {@code bucket} (its default),
     * {@code simple}, {@code lazy-release} or {@code disabled}. The native EP's only; JSEP drops it unread.
     */
    BUFFER_CACHE("buffer-cache", List.of("bucket", "simple", "lazy-release", "disabled"), Set.of(BackendId.WEBGPU),
            Set.of(OrtWebEngine.WEBGPU_EP, OrtWebEngine.WEBGPU_EP_JSPI),
            "the native WebGPU EP's storage buffer cache: bucket, simple, lazy-release, disabled (not on JSEP, which has none)");

    private final String id;
    private final List<String> choices;
    private final Set<BackendId> backends;
    private final Set<OrtWebEngine> engines;
    private final String help;

    RuntimeOption(String id, List<String> values, Set<BackendId> backends, Set<OrtWebEngine> engines, String help) {
        this.id = id;
        this.choices = values;
        this.backends = backends;
        this.engines = engines;
        this.help = help;
    }

    /** Its name ({@code outputs}). */
    public String id() {
        return id;
    }

    /** Its values, the default first. */
    public List<String> choices() {
        return choices;
    }

    /** The value a case without it ran at. */
    public String defaultValue() {
        return choices.get(0);
    }

    /** Whether it means anything on {@code backend} (on some engine). */
    public boolean appliesTo(BackendId backend) {
        return backends == null || backends.contains(backend);
    }

    /**
     * Whether it means anything on {@code backend} in {@code lane}: on the backend, and on the lane's onnxruntime-web engine
     * where it names one (a page joined by hand names none: its engine is its own).
     */
    public boolean appliesTo(BackendId backend, LaneId lane) {
        return switch (lane.side()) {
            case NATIVE -> appliesTo(backend) && engines == null;
            case BROWSER -> appliesTo(backend, OrtWebEngine.of(lane).orElse(null));
        };
    }

    /** Whether it means anything on {@code backend} on a page of {@code engine} (null: a page whose engine is its own). */
    public boolean appliesTo(BackendId backend, OrtWebEngine engine) {
        return appliesTo(backend) && (engines == null || engine == null || engines.contains(engine));
    }

    /** The backends it applies to, in their declared order. */
    public List<BackendId> backends() {
        return java.util.Arrays.stream(BackendId.values()).filter(this::appliesTo).toList();
    }

    /** The engines it applies to in a browser; empty: every engine. */
    public Set<OrtWebEngine> engines() {
        return engines == null ? Set.of() : engines;
    }

    /** One line for a person. */
    public String help() {
        return help;
    }

    /** The option called {@code name}. */
    public static RuntimeOption named(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (RuntimeOption o : values()) {
            if (o.id.equals(n)) {
                return o;
            }
        }
        throw new AccelbridgeException("Unknown runtime option " + Untrusted.quote(String.valueOf(name)),
                "use one of " + java.util.Arrays.stream(values()).map(RuntimeOption::id).toList());
    }

    /** {@code value} checked against the declared values. */
    public String check(String value) {
        String v = value == null ? "" : value.trim();
        if (!choices.contains(v)) {
            throw new AccelbridgeException("Runtime option " + id + " has no value " + Untrusted.quote(v), "use one of " + choices);
        }
        return v;
    }
}
