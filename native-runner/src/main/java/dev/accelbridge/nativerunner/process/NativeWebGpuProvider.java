package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostGpuNodes;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.fetch.CacheEntry;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The {@code native-webgpu} backend: ONNX Runtime's native WebGPU EP (Dawn), the EP onnxruntime-web's native-EP engine
 * compiles to WebAssembly, run natively in a runner process of its own ({@link ProcessRuntimeProvider}: one ONNX Runtime
 * library a process), on ONNX Runtime Java 1.29.0 with onnxruntime-node 1.29.0's library ({@link NativeWebGpuLibrary}).
 * On a host that shows a GPU, Dawn picks its adapter itself (the device is then unverified: the EP does not name it to
 * Java). On a host without one, the only Vulkan driver Dawn takes is SwiftShader's (Mesa's lavapipe lacks what Dawn
 * requires): the headless shell's, from its verified entry in Accelbridge's cache, with the EP told to accept a software
 * adapter ({@code ORT_WEBGPU_EP_ALLOW_SOFTWARE_ADAPTER=1}) and every row labelled a software adapter. Single passes only:
 * the runner process takes no generation and no session options yet, and says so.
 */
@PublicApi
public final class NativeWebGpuProvider implements BackendProvider {
    /**
     * The files of {@code native-runner/webgpu} an offline bundle carries for this backend (relative to that folder): the
     * package descriptions and the linux-x64 library, which the application verifies against its pinned sha256 at first use.
     */
    public static final List<String> CARRIED = List.of("package.json", "node_modules/onnxruntime-node/package.json",
            NativeWebGpuLibrary.IN_PACKAGE);
    /** The software Vulkan driver's ICD file in a headless shell's cache entry. */
    static final String SWIFTSHADER_ICD = "vk_swiftshader_icd.json";

    private ProcessRuntimeProvider runner;
    private String unavailable;
    private String adapter;
    private Path library;
    private boolean software;

    /** {@code native-runner/webgpu} where the build installed it (under {@code accelbridge.home}, else above the working directory). */
    public static Optional<Path> packageDir() {
        return NativeWebGpuLibrary.packageDir();
    }

    @Override
    public String name() {
        return "onnxruntime-node " + NativeWebGpuLibrary.VERSION + " WebGPU EP (runner process)";
    }

    @Override
    public Set<BackendId> backends() {
        return Set.of(BackendId.NATIVE_WEBGPU);
    }

    /** Above this process's own provider, whose ONNX Runtime build has no WebGPU EP. */
    @Override
    public int priority() {
        return 10;
    }

    @Override
    public Optional<String> runtimeVersion() {
        return Optional.of(NativeWebGpuLibrary.VERSION);
    }

    @Override
    public synchronized Availability probe(BackendId backend) {
        if (backend != BackendId.NATIVE_WEBGPU) {
            return Availability.unavailable(backend, name() + " serves native-webgpu only", name());
        }
        if (!started()) {
            return Availability.unavailable(backend, unavailable, name());
        }
        Availability a = runner.probe(backend);
        return new Availability(backend, a.available(), a.evidence() + "; adapter: " + adapter, a.where(), software);
    }

    @Override
    public synchronized Execution execute(ExecutionRequest request) {
        if (!started()) {
            throw new BackendUnavailableException(unavailable, "see docs/native-gpu.md");
        }
        Execution e = runner.execute(request);
        return e.provenance() == null ? e : new Execution(e.outputs(), e.timings(), e.memory(),
                e.provenance().withVerified(Map.of("onnxruntime-node " + NativeWebGpuLibrary.VERSION + " libonnxruntime.so.1",
                        NativeWebGpuLibrary.SHA256 + " (" + library + ")")), e.warnings(), e.analysis());
    }

    /** Starts the runner once; false with {@link #unavailable} said when it cannot be. */
    private boolean started() {
        if (runner != null) {
            return true;
        }
        if (unavailable != null) {
            return false;
        }
        try {
            OrtJars.Jar jar = OrtJars.defaults().jar(NativeWebGpuLibrary.VERSION);
            library = NativeWebGpuLibrary.folder(jar);
            Map<String, String> env = environment(HostGpuNodes.present(), softwareIcd(Caches.root()));
            software = "1".equals(env.get(DjlOnnxRuntimeProvider.NATIVE_WEBGPU_SOFTWARE));
            adapter = env.getOrDefault(DjlOnnxRuntimeProvider.NATIVE_WEBGPU_ADAPTER, "Dawn's own choice on this host's GPU (unnamed)");
            runner = new ProcessRuntimeProvider(NativeWebGpuLibrary.VERSION, OrtJars.defaults(),
                    List.of("-Donnxruntime.native.path=" + library), env, "native-webgpu's runner process",
                    "on webgpu in the browser, against native cpu");
            return true;
        } catch (BackendUnavailableException e) {
            unavailable = e.getMessage() + (e.fix() == null ? "" : " (" + e.fix() + ")");
            return false;
        }
    }

    /**
     * The environment of the runner: on a host with a GPU, none (Dawn's own choice); without one, SwiftShader's Vulkan driver
     * ({@code icd}) accepted as a software adapter, and the adapter said to the runner for its rows.
     *
     * @throws BackendUnavailableException without a GPU and without a software driver
     */
    static Map<String, String> environment(boolean hostHasGpu, Optional<Path> icd) {
        if (hostHasGpu) {
            return Map.of();
        }
        Path file = icd.orElseThrow(() -> new BackendUnavailableException("This host shows no GPU, and no software Vulkan driver "
                + "Dawn takes is here (lavapipe lacks what Dawn requires)", "launch the headless shell once (any run with "
                + "--browser chromium-shell unpacks it, and its SwiftShader, into Accelbridge's cache)"));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("VK_DRIVER_FILES", file.toString());
        env.put("VK_ICD_FILENAMES", file.toString());
        env.put("ORT_WEBGPU_EP_ALLOW_SOFTWARE_ADAPTER", "1");
        env.put(DjlOnnxRuntimeProvider.NATIVE_WEBGPU_ADAPTER, "SwiftShader Device (Vulkan) (software adapter)");
        env.put(DjlOnnxRuntimeProvider.NATIVE_WEBGPU_SOFTWARE, "1");
        return env;
    }

    /** SwiftShader's ICD file in a headless shell's cache entry that verifies intact now; empty when none does. */
    static Optional<Path> softwareIcd(Path cacheRoot) {
        Path shells = cacheRoot.resolve("chromium-shell");
        if (!Files.isDirectory(shells)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(shells)) {
            for (Path d : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                String name = d.getFileName().toString();
                if (name.startsWith(".") || !Files.isRegularFile(d.resolve(SWIFTSHADER_ICD))) {
                    continue;
                }
                Optional<CacheEntry.Verified> v;
                try {
                    v = new CacheEntry(cacheRoot, "chromium-shell", name).existing(CacheEntry.Check.NONE);
                } catch (RuntimeException e) {
                    continue; // not an entry's name, or not one of this user's
                }
                if (v.isPresent() && v.get().tree().files().containsKey(SWIFTSHADER_ICD)) {
                    return Optional.of(v.get().dir().resolve(SWIFTSHADER_ICD));
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    @Override
    public synchronized void close() {
        if (runner != null) {
            runner.close();
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
