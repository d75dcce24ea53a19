package dev.accelbridge.bench;

import dev.accelbridge.bridge.SuiteFixtures;
import dev.accelbridge.core.SampleStats;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.ModelRegistry;

import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.browser.provider.BrowserBackendProvider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.launch.PlaywrightLauncher;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.core.Timings;
import dev.accelbridge.bridge.protocol.FrameCodec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * bench/browser/run.sh: in one run, (1) cold browser start → first result, (2) the harness's in-page p50 vs a bare
 * page that only loops session.run on the same model and inputs (served by the same bridge), (3) the WebSocket round
 * trip of a ping job. Real browser, real onnxruntime-web; prints the numbers. Not a test.
 *
 * <p>Arguments: {@code [backend=wasm] [iterations=100] [family=vision] [engine=jsep] [rounds=10]} (an onnxruntime-web engine: the
 * harness's lane and the bare page import its bundle).
 */
public final class BrowserBench {
    /** The harness's cold start: a Playwright launch with the bridge starting beside it, to the first result. */
    private static double harnessColdStart(ModelCase mc, BackendId backend, OrtWebBuild build) throws Exception {
        long c0 = System.nanoTime();
        try (PlaywrightLauncher launcher = new PlaywrightLauncher()) {
            launcher.prewarm(); // what a run does: the driver starts while the bridge starts
            try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
                 BrowserBackendProvider p = new BrowserBackendProvider(server, LaunchOptions.builder()
                         .browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT).build(), launcher, build)) {
                p.execute(new ExecutionRequest(backend, mc, 0, 1, Duration.ofSeconds(120)));
                return ms(System.nanoTime() - c0);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        BackendId backend = BackendId.parse(args.length > 0 ? args[0] : "wasm");
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        ModelFamily family = ModelFamily.parse(args.length > 2 ? args[2] : "vision");
        OrtWebEngine engine = OrtWebEngine.of(args.length > 3 ? args[3] : "jsep");
        OrtWebBuild build = OrtWebBuild.pinned().withEngine(engine);
        int warmups = 5;
        ModelCase mc = SuiteFixtures.cases(family).get(0);
        System.out.printf("bench: %s on %s, %d warm-ups + %d timed, onnxruntime-web 1.30.0 on %s (%s), host %d cores%n", mc.key(), backend,
                warmups, iterations, engine.description(), engine.bundle(), Runtime.getRuntime().availableProcessors());

        // [1] cold start to the first result, against a bare baseline measured in the same run: a plain Playwright
        // Chromium launch and a bare page that fetches the same model and creates the same session (served by a
        // static server that is already up). Rounds alternate so neither side gets the other's warm caches alone.
        // enough rounds that the ratio's interval can tell 5 % apart: three medians could not here (0.94 to 1.18)
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 10;
        double[] abCold = new double[rounds];
        double[] bareCold = new double[rounds];
        try (BridgeServer staticServer = BridgeServer.start(BridgeOptions.defaults())) {
            Path tmp0 = Files.createTempDirectory("accelbridge-bench-cold");
            Path coldInputs = Files.write(tmp0.resolve("inputs.abf"), FrameCodec.encode(new ObjectMapper().createObjectNode()
                    .put("v", 1).put("type", "inputs"), mc.inputs()));
            ModelRegistry.ModelRef m0 = ModelRegistry.of(staticServer).register(mc.model().path());
            ModelRegistry.ModelRef i0 = ModelRegistry.of(staticServer).register(coldInputs);
            for (int round = 0; round < rounds; round++) {
                // the two sides alternate which goes first, so neither always follows the other's exit
                if (round % 2 == 0) {
                    bareCold[round] = bareColdStart(staticServer, m0, i0, backend, engine);
                    abCold[round] = harnessColdStart(mc, backend, build);
                } else {
                    abCold[round] = harnessColdStart(mc, backend, build);
                    bareCold[round] = bareColdStart(staticServer, m0, i0, backend, engine);
                }
                System.out.printf("[1] round %d: accelbridge cold start → first result %.0f ms, bare %.0f ms%n", round + 1,
                        abCold[round], bareCold[round]);
            }
        }
        double abMed = Timings.percentile(Arrays.stream(abCold).sorted().toArray(), 50);
        double bareMed = Timings.percentile(Arrays.stream(bareCold).sorted().toArray(), 50);
        double[] paired = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            paired[i] = abCold[i] / bareCold[i];
        }
        Arrays.sort(paired);
        var ci = SampleStats.ratioCi(bareCold, abCold);
        var pairedCi = SampleStats.quantileCi(paired, 0.5);
        System.out.printf("cold-start ratio: %.2f (accelbridge %.0f ms, bare %.0f ms; medians of %d alternating rounds; 95 %% interval %s); "
                        + "median of the rounds' own ratios %.2f (95 %% interval %s)%n", abMed / bareMed, abMed, bareMed, rounds,
                ci == null ? "–" : String.format("%.2f–%.2f", ci.lo(), ci.hi()), Timings.percentile(paired, 50),
                pairedCi == null ? "– (under 6 rounds)" : String.format("%.2f–%.2f", pairedCi.lo(), pairedCi.hi()));

        long t0 = System.nanoTime();
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            long tServer = System.nanoTime();
            BrowserBackendProvider chromium = new BrowserBackendProvider(server, LaunchOptions.builder()
                    .browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT).build(),
                    BrowserLaunchers.forDriver(DriverKind.PLAYWRIGHT), build);
            long tJoined = System.nanoTime();
            Execution first = chromium.execute(new ExecutionRequest(backend, mc, 0, 1, Duration.ofSeconds(120)));
            long tFirst = System.nanoTime();
            System.out.printf("%n[1b] where a warm-JVM cold start goes: %.0f ms total (bridge start %.0f ms, browser launch + page join %.0f ms, "
                            + "first case %.0f ms of which session create %.1f ms and first run %.2f ms in the page)%n",
                    ms(tFirst - t0), ms(tServer - t0), ms(tJoined - tServer), ms(tFirst - tJoined), first.timings().loadMs(),
                    first.timings().firstMs());

            Execution harness = chromium.execute(new ExecutionRequest(backend, mc, warmups, iterations, Duration.ofSeconds(300)));
            Timings h = harness.timings();

            Path tmp = Files.createTempDirectory("accelbridge-bench");
            Path inputs = Files.write(tmp.resolve("inputs.abf"), FrameCodec.encode(new ObjectMapper().createObjectNode()
                    .put("v", 1).put("type", "inputs"), mc.inputs()));
            ModelRegistry.ModelRef modelRef = ModelRegistry.of(server).register(mc.model().path());
            ModelRegistry.ModelRef inputRef = ModelRegistry.of(server).register(inputs);
            double[] bare;
            double bareSession;
            Map<String, String> env = new HashMap<>();
            env.put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
            if (Files.isExecutable(Path.of("/usr/bin/node"))) {
                env.put("PLAYWRIGHT_NODEJS_PATH", "/usr/bin/node");
            }
            InstalledBrowser b = BrowserDiscovery.require(BrowserKind.CHROMIUM);
            try (Playwright pw = Playwright.create(new Playwright.CreateOptions().setEnv(env));
                 Browser browser = pw.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(b.executable())
                         .setHeadless(true).setArgs(ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.PLAYWRIGHT, true, List.of())))) {
                Page page = browser.newPage();
                String ep = backend == BackendId.WEBGPU ? "webgpu" : "wasm";
                page.navigate(server.baseUrl() + "/bare.html?model=" + modelRef.urlPath() + "&inputs=" + inputRef.urlPath()
                        + "&ep=" + ep + "&warmups=" + warmups + "&iterations=" + iterations + "&ortEntry=" + engine.bundle());
                page.waitForFunction("() => window.benchResult !== undefined", null,
                        new Page.WaitForFunctionOptions().setTimeout(300_000));
                JsonNode r = new ObjectMapper().readTree(String.valueOf(page.evaluate("() => JSON.stringify(window.benchResult)")));
                if (r.has("error")) {
                    throw new IllegalStateException("bare page failed: " + r.get("error").asText());
                }
                bareSession = r.path("sessionMs").asDouble();
                bare = new double[r.path("samples").size()];
                for (int i = 0; i < bare.length; i++) {
                    bare[i] = r.path("samples").get(i).asDouble();
                }
            }
            Timings bt = Timings.of(bareSession, Double.NaN, warmups, bare);
            System.out.printf("%n[2] in-page session.run (%s, %d timed)%n", backend, iterations);
            System.out.printf("    harness page : p50 %8.3f ms  p90 %8.3f ms  mean %8.3f ms  (session create %.1f ms)%n",
                    h.p50Ms(), h.p90Ms(), h.meanMs(), h.loadMs());
            System.out.printf("    bare loop    : p50 %8.3f ms  p90 %8.3f ms  mean %8.3f ms  (session create %.1f ms)%n",
                    bt.p50Ms(), bt.p90Ms(), bt.meanMs(), bt.loadMs());
            System.out.printf("    harness/bare p50 ratio: %.3f%n", h.p50Ms() / bt.p50Ms());

            ConnectedPage page = chromium.page();
            int pings = 200;
            double[] rtt = new double[pings];
            for (int i = 0; i < 20; i++) {
                page.ping(Duration.ofSeconds(10)).get();
            }
            for (int i = 0; i < pings; i++) {
                rtt[i] = page.ping(Duration.ofSeconds(10)).get();
            }
            Timings rt = Timings.of(0, 0, 20, rtt);
            System.out.printf("%n[3] WebSocket round trip (ping job, %d after 20 warm-up): p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.3f ms%n",
                    pings, rt.p50Ms(), rt.p90Ms(), rt.p99Ms(), Arrays.stream(rtt).max().orElse(Double.NaN));
            chromium.close();
        }
        // The shared Playwright launcher keeps a non-daemon thread until its shutdown hook runs: exit explicitly.
        System.exit(0);
    }

    /** Nothing running → a plain Playwright Chromium on the bare page → its first result, in ms. */
    private static double bareColdStart(BridgeServer staticServer, ModelRegistry.ModelRef model, ModelRegistry.ModelRef inputs,
                                        BackendId backend, OrtWebEngine engine) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
        if (Files.isExecutable(Path.of("/usr/bin/node"))) {
            env.put("PLAYWRIGHT_NODEJS_PATH", "/usr/bin/node");
        }
        InstalledBrowser b = BrowserDiscovery.require(BrowserKind.CHROMIUM);
        long t0 = System.nanoTime();
        try (Playwright pw = Playwright.create(new Playwright.CreateOptions().setEnv(env));
             Browser browser = pw.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(b.executable())
                     .setHeadless(true).setArgs(ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.PLAYWRIGHT, true, List.of())))) {
            Page page = browser.newPage();
            String ep = backend == BackendId.WEBGPU ? "webgpu" : "wasm";
            page.navigate(staticServer.baseUrl() + "/bare.html?model=" + model.urlPath() + "&inputs=" + inputs.urlPath()
                    + "&ep=" + ep + "&warmups=0&iterations=1&ortEntry=" + engine.bundle());
            page.waitForFunction("() => window.benchResult !== undefined", null, new Page.WaitForFunctionOptions().setTimeout(120_000));
            double elapsed = ms(System.nanoTime() - t0);
            Object err = page.evaluate("() => window.benchResult.error || null");
            if (err != null) {
                throw new IllegalStateException("bare page failed: " + err);
            }
            return elapsed;
        }
    }

    private static double ms(long ns) {
        return ns / 1e6;
    }
}
