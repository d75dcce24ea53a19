package dev.accelbridge.bridge.server;

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
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Timings;
import dev.accelbridge.browser.page.FrameCodec;

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
 * <p>Arguments: {@code [backend=wasm] [iterations=100] [family=vision]}.
 */
public final class BrowserBench {
    public static void main(String[] args) throws Exception {
        BackendId backend = BackendId.parse(args.length > 0 ? args[0] : "wasm");
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        ModelFamily family = ModelFamily.parse(args.length > 2 ? args[2] : "vision");
        int warmups = 5;
        ModelCase mc = SuiteFixtures.cases(family).get(0);
        System.out.printf("bench: %s on %s, %d warm-ups + %d timed, onnxruntime-web 1.30.0, host %d cores%n", mc.key(), backend,
                warmups, iterations, Runtime.getRuntime().availableProcessors());

        long t0 = System.nanoTime();
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            long tServer = System.nanoTime();
            BrowserBackendProvider chromium = new BrowserBackendProvider(server, LaunchOptions.builder()
                    .browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT).build());
            long tJoined = System.nanoTime();
            Execution first = chromium.execute(new ExecutionRequest(backend, mc, 0, 1, Duration.ofSeconds(120)));
            long tFirst = System.nanoTime();
            System.out.printf("%n[1] cold start → first result: %.0f ms total (bridge start %.0f ms, browser launch + page join %.0f ms, "
                            + "first case %.0f ms of which session create %.1f ms and first run %.2f ms in the page)%n",
                    ms(tFirst - t0), ms(tServer - t0), ms(tJoined - tServer), ms(tFirst - tJoined), first.timings().loadMs(),
                    first.timings().firstMs());

            Execution harness = chromium.execute(new ExecutionRequest(backend, mc, warmups, iterations, Duration.ofSeconds(300)));
            Timings h = harness.timings();

            Path tmp = Files.createTempDirectory("accelbridge-bench");
            Path inputs = Files.write(tmp.resolve("inputs.abf"), FrameCodec.encode(new ObjectMapper().createObjectNode()
                    .put("v", 1).put("type", "inputs"), mc.inputs()));
            ModelRegistry.ModelRef modelRef = server.models().register(mc.model().path());
            ModelRegistry.ModelRef inputRef = server.models().register(inputs);
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
                        + "&ep=" + ep + "&warmups=" + warmups + "&iterations=" + iterations);
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

    private static double ms(long ns) {
        return ns / 1e6;
    }
}
