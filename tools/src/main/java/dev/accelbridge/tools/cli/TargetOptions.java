package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.run.PlanDefaults;
import dev.accelbridge.run.Targets;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where a run runs and on which versions ({@link Targets}), as {@code run}'s options: backends and their chains, browsers
 * and how they are launched or reached ({@link RemoteArgs}), runtime versions, lanes at once.
 */
@OptionSection("Where it runs: backends, browsers, versions, drivers")
final class TargetOptions {
    @Option(names = "--native", description = "Native backends only (default backends then: cpu).")
    boolean nativeOnly;

    @Option(names = {"-b", "--backends"}, paramLabel = "LIST", split = ",", converter = Converters.Backend.class,
            description = "Backends to request: webgpu, webnn-gpu, webnn-cpu, webnn-npu, wasm, cuda, rocm, coreml, openvino, cpu.")
    List<BackendId> backends;

    @Option(names = "--browser", paramLabel = "LIST", split = ",", converter = Converters.BrowserAt.class,
            description = "Browsers: chromium, chromium-shell, chrome, firefox, edge, webkit (default: chromium, and chromium-shell, firefox "
                    + "and webkit when installed). NAME@RELEASE asks for a release (a major version; WebKitGTK's major.minor, webkit@2.50): "
                    + "chromium-shell@141 is fetched from the npm registry at first use; another browser runs only at the version installed.")
    List<BrowserSpec> browsers;

    @Option(names = "--ort-web", paramLabel = "LIST", split = ",", converter = Converters.OrtWebVersion.class,
            description = "onnxruntime-web versions to run every browser case under, e.g. 1.22.0,1.30.0 (default: the pinned one); each is "
                    + "fetched from the npm registry at first use, its integrity checked against the registry's.")
    List<String> ortWeb;

    @Option(names = "--engines", paramLabel = "LIST", split = ",", converter = Converters.OrtWebEngine.class,
            description = "onnxruntime-web engines to run every browser case on: jsep (the JavaScript WebGPU EP, what transformers.js v3 "
                    + "loads), webgpu-ep (the native WebGPU EP, what onnxruntime-web/webgpu and transformers.js v4 load), webgpu-ep-jspi "
                    + "(the same over JSPI). Each is a lane of its own; wasm and WebNN run on the module each engine brings. Default: "
                    + "jsep for every browser backend, and webgpu-ep for webgpu.")
    List<String> engines;

    @Option(names = "--ort", paramLabel = "LIST", split = ",", converter = Converters.OrtVersion.class,
            description = "ONNX Runtime versions to run every native case under, e.g. 1.22.0,1.29.0 (default: the one this build loads); "
                    + "each other version runs in a runner process of its own, its jar fetched from Maven Central at first use.")
    List<String> ort;

    @Option(names = "--versions", paramLabel = "AXIS=LIST",
            description = "Versions of any version axis to run every case of its side under, e.g. ortWebVersion=1.22.0,1.30.0 (the "
                    + "axes: compare --by's version names). Repeatable; the same as the axis's own option where it has one.")
    Map<String, String> versions = new LinkedHashMap<>();

    @Option(names = "--driver", converter = Converters.Driver.class,
            description = "How browsers are launched: playwright (default, unless ACCELBRIDGE_DRIVER names another), selenium, process.")
    DriverKind driver;

    @Mixin
    RemoteArgs remote = new RemoteArgs();

    @Option(names = "--parallel", paramLabel = "N", converter = Converters.Positive.class,
            description = "Browser lanes at once, each with its own browser and page (default: cores / 4, at least 1). "
                    + "Lanes share the CPU: use 1 for timings you compare.")
    Integer parallel;

    @Option(names = "--headed", description = "Show the browser windows (needs a display).")
    boolean headed;

    @Option(names = "--webgpu-adapter", paramLabel = "auto|hardware|hardware-f16|software", converter = Converters.Adapter.class,
            description = "Chromium's WebGPU adapter: auto (the GPU's where the host has one, never software there; else "
                    + "SwiftShader), hardware (the GPU's or WebGPU unavailable), hardware-f16 (the GPU's with Dawn's "
                    + "vulkan_enable_f16_on_nvidia on: half precision where Chrome on Linux withholds it on NVIDIA, a labelled "
                    + "variant), software (SwiftShader). Default: auto.")
    WebGpuAdapter webGpuAdapter = WebGpuAdapter.AUTO;

    @Option(names = "--chain", paramLabel = "LIST",
            description = "A fallback chain, requested backend first, e.g. webgpu,webnn-gpu,wasm. Repeatable.")
    List<String> chains = new ArrayList<>();

    @Option(names = "--chain-file", paramLabel = "PATH", description = "Fallback chains, one per line: requested=hop,hop,...")
    Path chainFile;

    @Option(names = "--fallback-on-wrong-output", description = "Also move to the next hop when the output is outside tolerance.")
    boolean fallbackOnWrongOutput;

    @Option(names = "--remeasure-fallbacks", description = "Run a fallback's work again when it lands on a backend its lane "
            + "runs the same case on (by default it is judged on that one measurement, its figures named as that case's).")
    boolean remeasureFallbacks;

    /** Puts the options on the group's builder, with {@code run}'s defaults where they are silent. */
    Targets.Builder apply(Targets.Builder t) {
        List<BackendId> requested = backends != null && !backends.isEmpty() ? backends : PlanDefaults.backends(nativeOnly);
        if (nativeOnly && requested.stream().anyMatch(BackendId::isBrowser)) {
            throw new AccelbridgeException("--native was given with browser backends " + requested.stream()
                    .filter(BackendId::isBrowser).map(BackendId::id).toList(), "drop --native or the browser backends");
        }
        return remote.apply(t.setBackends(requested)
                .optChains(chains())
                .optPolicy(fallbackOnWrongOutput ? FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT : FallbackPolicy.ON_FAILURE)
                .optRemeasureFallbacks(remeasureFallbacks)
                .optBrowserSpecs(browsers == null || browsers.isEmpty() ? PlanDefaults.browsers(remote.remote(), requested) : browsers)
                .optVersions(versions())
                .optDriver(driver)
                .optParallel(parallel == null ? PlanDefaults.parallel() : parallel)
                .optHeadless(!headed).optWebGpuAdapter(webGpuAdapter));
    }

    /** The versions by axis: its own option's ({@code --ort-web}, {@code --ort}), then {@code --versions}'. */
    private Map<String, List<String>> versions() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        own("--ort-web", ortWeb, out);
        own("--engines", engines, out);
        own("--ort", ort, out);
        versions.forEach((axis, list) -> out.merge(axis, List.of(list.split(",")),
                (x, y) -> Stream.concat(x.stream(), y.stream()).toList()));
        return out;
    }

    private static void own(String flag, List<String> given, Map<String, List<String>> out) {
        if (given != null && !given.isEmpty()) {
            out.put(VersionAxes.byFlag(flag).map(VersionAxis::name).orElse(flag), given);
        }
    }

    private Chains chains() {
        Chains configured = Chains.defaults();
        if (chainFile != null) {
            if (!Files.isRegularFile(chainFile)) {
                throw new AccelbridgeException("Chain file " + chainFile + " does not exist", "give an existing file to --chain-file");
            }
            try {
                configured = configured.with(List.copyOf(Chains.parseConfig(Files.readString(chainFile)).asMap().values()));
            } catch (IOException e) {
                throw new AccelbridgeException("Cannot read chain file " + chainFile + ": " + e.getMessage(), null, e);
            }
        }
        for (String c : chains) {
            configured = configured.with(Chains.parse(c));
        }
        return configured;
    }
}
