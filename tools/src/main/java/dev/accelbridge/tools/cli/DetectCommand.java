package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.accelbridge.run.NativeProviders;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.HeadlessSurface;
import dev.accelbridge.browser.launch.HeadlessSurfaces;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendKind;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.nativerunner.HostDetector;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code accelbridge detect}: the host, each native backend's availability with evidence, the browsers found. */
@Command(name = "detect", mixinStandardHelpOptions = true,
        description = "Shows CPU, SIMD flags, memory, GPUs, each native backend's availability with evidence, and the browsers found.")
public final class DetectCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        HostInfo host = HostDetector.detect();
        List<Availability> backends = new ArrayList<>();
        try (NativeProviders natives = NativeProviders.load()) {
            for (BackendId b : BackendId.ofKind(BackendKind.NATIVE)) {
                backends.add(natives.forBackend(b).probe(b));
            }
        }
        List<InstalledBrowser> browsers = BrowserDiscovery.findAll();
        // what a local Chromium seeking the GPU's WebGPU adapter would get: the one decision every launcher makes
        HeadlessSurface layer = HeadlessSurfaces.onThisHost();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", host);
            m.put("backends", backends.stream().map(a -> {
                Map<String, Object> b = new LinkedHashMap<>();
                b.put("id", a.backend().id());
                b.put("kind", a.backend().kind().name().toLowerCase(Locale.ROOT));
                b.put("available", a.available());
                b.put("evidence", a.evidence());
                return b;
            }).toList());
            m.put("browsers", browsers.stream().map(b -> {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("name", b.kind().id());
                x.put("path", b.executable().toString());
                x.put("version", b.version());
                return x;
            }).toList());
            Map<String, Object> hs = new LinkedHashMap<>();
            hs.put("state", layer.getClass().getSimpleName().toLowerCase(Locale.ROOT));
            hs.put("says", layer.describe());
            m.put("headlessSurfaceLayer", hs);
            out.println(new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS).writeValueAsString(m));
            return Main.OK;
        }
        out.printf("host        %s (%s, %s)%n", host.hostname(), host.os(), host.arch());
        out.printf("fingerprint %s%n", host.fingerprint());
        out.printf("cpu         %s, %d physical / %d logical cores%n", host.cpuModel(), host.physicalCores(), host.logicalCores());
        out.printf("simd        %s%n", host.simdFlags().isEmpty() ? "(none reported)" : String.join(" ", host.simdFlags()));
        out.printf(Locale.ROOT, "memory      %.1f GiB%n", host.memoryBytes() / (1024.0 * 1024 * 1024));
        out.printf("gpus        %s%n", host.gpus().isEmpty() ? "none found (lspci lists none, or pciutils is missing)" : String.join("; ", host.gpus()));
        out.printf("java        %s%n%n", host.javaVersion());
        out.println("native backends");
        for (Availability a : backends) {
            out.printf("  %-9s %-11s %s%n", a.backend().id(), a.available() ? "available" : "UNAVAILABLE", a.evidence());
        }
        out.println();
        out.println("browsers");
        if (browsers.isEmpty()) {
            out.println("  none found: install Debian's chromium (./setup.sh does)");
        }
        for (InstalledBrowser b : browsers) {
            out.printf("  %-15s %-18s %s%n", b.kind().id(), b.version(), b.executable());
        }
        out.println();
        out.printf("headless-surface layer (a Chromium seeking the GPU's WebGPU adapter)%n  %s%n%n", layer.describe());
        out.println("Browser backends (webgpu, webnn-*, wasm) are probed inside each browser's page when a run starts.");
        return Main.OK;
    }
}
