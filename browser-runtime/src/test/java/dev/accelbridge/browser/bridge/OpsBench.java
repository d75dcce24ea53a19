package dev.accelbridge.browser.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.page.FrameCodec;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * bench/ops/run.sh (not a test): the op suite's sweep rate, in one run, through the harness's page path (one page, a
 * session per case, one first run and one timed run, outputs back, release: what {@code run --suites ops} does per
 * browser case) against a bare page that fetches, creates, runs once and releases the same models in a loop with
 * nothing of the harness. Prints cases per second for both and the ratio (goal ≥ 0.8).
 */
public final class OpsBench {
    private OpsBench() {
    }

    public static void main(String[] args) throws Exception {
        BackendId backend = BackendId.parse(args.length > 0 ? args[0] : "wasm");
        Path cache = Files.createTempDirectory("accelbridge-ops-bench");
        List<ModelCase> cases = SuiteCatalog.create(new SuiteOptions(cache, ModelSize.SMALL, SuiteOptions.DEFAULT_SEED)).cases(ModelFamily.OPS);
        System.out.printf("bench: %d op-suite cases on %s, onnxruntime-web 1.30.0, host %d cores%n", cases.size(), backend,
                Runtime.getRuntime().availableProcessors());
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            BrowserBackendProvider chromium = new BrowserBackendProvider(server, LaunchOptions.builder()
                    .browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT).build());
            chromium.execute(new ExecutionRequest(backend, cases.get(0), 0, 1, Duration.ofSeconds(60))); // page up, runtime compiled
            int failed = 0;
            long t0 = System.nanoTime();
            for (ModelCase mc : cases) {
                try {
                    chromium.execute(new ExecutionRequest(backend, mc, 0, 1, Duration.ofSeconds(60)));
                } catch (RuntimeException e) {
                    failed++;
                }
            }
            double harnessS = (System.nanoTime() - t0) / 1e9;
            // where a case's time goes on the page path, job by job (the same jobs the provider sends)
            ConnectedPage page = chromium.page();
            ExecutionProviderSpec eps = ExecutionProviderSpec.of(backend);
            long[] phase = new long[5];
            for (ModelCase mc : cases) {
                long a = System.nanoTime();
                ModelRegistry.ModelRef ref = server.models().register(mc.model().path());
                LoadedSession s;
                try {
                    s = page.load(ref, eps, Duration.ofSeconds(60), null, mc.freeDims(), Map.of(), SessionUse.TIMED).get();
                } catch (Exception e) {
                    continue;
                }
                long b = System.nanoTime();
                try {
                    page.runFirst(s.sessionId(), mc.inputs(), Duration.ofSeconds(60)).get();
                    long c = System.nanoTime();
                    page.run(s.sessionId(), null, 0, 1, dev.accelbridge.core.MinDurations.NONE, Duration.ofSeconds(60),
                            OutputBudget.cap(OutputBudget.DEFAULT_CAP), dev.accelbridge.core.CaseProgress.NONE).get();
                    long d = System.nanoTime();
                    phase[1] += c - b;
                    phase[2] += d - c;
                } catch (Exception e) {
                    // a case that fails here is counted by the loop above
                }
                long e0 = System.nanoTime();
                page.release(s.sessionId(), Duration.ofSeconds(10)).get();
                server.models().unregister(ref);
                long f = System.nanoTime();
                phase[0] += b - a;
                phase[3] += f - e0;
                phase[4] += f - a;
            }
            System.out.printf("page path by job, per case: load %.1f ms, first run %.1f ms, timed run %.1f ms, release %.1f ms; "
                            + "jobs alone %.1f ms (the provider's whole case %.1f ms)%n", phase[0] / 1e6 / cases.size(),
                    phase[1] / 1e6 / cases.size(), phase[2] / 1e6 / cases.size(), phase[3] / 1e6 / cases.size(),
                    phase[4] / 1e6 / cases.size(), harnessS * 1000 / cases.size());
            chromium.close();

            ObjectMapper json = new ObjectMapper();
            ArrayNode list = json.createArrayNode();
            for (ModelCase mc : cases) {
                Path in = Files.write(cache.resolve(mc.model().name() + ".abf"), FrameCodec.encode(json.createObjectNode()
                        .put("v", 1).put("type", "inputs"), mc.inputs()));
                list.addObject().put("model", server.models().register(mc.model().path()).urlPath())
                        .put("inputs", server.models().register(in).urlPath());
            }
            Path listFile = Files.writeString(cache.resolve("list.json"), list.toString());
            String listUrl = server.models().register(listFile).urlPath();
            Map<String, String> env = new HashMap<>();
            env.put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
            if (Files.isExecutable(Path.of("/usr/bin/node"))) {
                env.put("PLAYWRIGHT_NODEJS_PATH", "/usr/bin/node");
            }
            InstalledBrowser b = BrowserDiscovery.require(BrowserKind.CHROMIUM);
            JsonNode r;
            try (Playwright pw = Playwright.create(new Playwright.CreateOptions().setEnv(env));
                 Browser browser = pw.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(b.executable())
                         .setHeadless(true).setArgs(ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.PLAYWRIGHT, true, List.of())))) {
                Page bare = browser.newPage();
                String ep = backend == BackendId.WEBGPU ? "webgpu" : "wasm";
                bare.navigate(server.baseUrl() + "/bare.html?list=" + listUrl + "&ep=" + ep);
                bare.waitForFunction("() => window.benchResult !== undefined", null, new Page.WaitForFunctionOptions().setTimeout(600_000));
                r = json.readTree(String.valueOf(bare.evaluate("() => JSON.stringify(window.benchResult)")));
            }
            if (r.has("error")) {
                throw new IllegalStateException("bare page failed: " + r.get("error").asText());
            }
            double bareS = r.path("ms").asDouble() / 1000;
            double harnessRate = cases.size() / harnessS;
            double bareRate = r.path("cases").asInt() / bareS;
            System.out.printf("harness page path: %d cases in %.1f s = %.1f cases/s (%d failed)%n", cases.size(), harnessS, harnessRate, failed);
            System.out.printf("bare page loop   : %d cases in %.1f s = %.1f cases/s (%d failed: %s)%n", r.path("cases").asInt(), bareS,
                    bareRate, r.path("errorCount").asInt(), r.path("errors"));
            System.out.printf("ops sweep rate ratio (harness/bare): %.2f (goal >= 0.80)%n", harnessRate / bareRate);
        }
        System.exit(0);
    }
}
