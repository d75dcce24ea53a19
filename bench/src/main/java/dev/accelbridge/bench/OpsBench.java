package dev.accelbridge.bench;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.ModelRegistry;
import dev.accelbridge.core.UnsupportedModelException;

import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.browser.provider.PageCheck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.bridge.protocol.FrameCodec;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * bench/ops/run.sh (not a test): the op suite's sweep rate through the harness's provider (one browser and page, a
 * session per case, one timed run, outputs back, release, placement checked: what {@code run --suites ops --warmups 0
 * -n 1} does per browser case) against a bare page that fetches, creates, runs once and releases the same models in a
 * loop with nothing of the harness. Both recover from a failed inference the same least way (the page check, and a fresh
 * onnxruntime-web only when it fails), so their verdicts agree and the ratio is the harness's own cost. Two rounds, each
 * harness then bare in fresh browsers, so an order effect shows as a difference between rounds. Prints cases per second,
 * the ratio (goal ≥ 0.8), each side's per-case split and any verdict the two do not share.
 */
public final class OpsBench {
    private static final Duration CASE_TIMEOUT = Duration.ofSeconds(60);

    private OpsBench() {
    }

    public static void main(String[] args) throws Exception {
        BackendId backend = BackendId.parse(args.length > 0 ? args[0] : "wasm");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        Path cache = Files.createTempDirectory("accelbridge-ops-bench");
        List<ModelCase> cases = SuiteCatalog.create(new SuiteOptions(cache, ModelSize.SMALL, SuiteOptions.DEFAULT_SEED)).cases(ModelFamily.OPS);
        System.out.printf("bench: %d op-suite cases on %s, onnxruntime-web 1.30.0, host %d cores, %d rounds%n", cases.size(), backend,
                Runtime.getRuntime().availableProcessors(), rounds);
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            String listUrl = bareList(server, cases, cache);
            double harnessSum = 0;
            double bareSum = 0;
            for (int round = 1; round <= rounds; round++) {
                Side h = harness(server, backend, cases);
                Side b = bare(server, backend, listUrl);
                harnessSum += h.seconds;
                bareSum += b.seconds;
                System.out.printf("round %d harness: %d cases in %.1f s = %.1f cases/s, %d failed; per case %s%n", round, cases.size(), h.seconds,
                        cases.size() / h.seconds, h.failed.size(), h.split);
                System.out.printf("round %d bare   : %d cases in %.1f s = %.1f cases/s, %d failed; per case %s%n", round, cases.size(), b.seconds,
                        cases.size() / b.seconds, b.failed.size(), b.split);
                System.out.printf("round %d ratio (harness/bare rate): %.2f%n", round, b.seconds / h.seconds);
                TreeSet<String> onlyHarness = new TreeSet<>(h.failed);
                onlyHarness.removeAll(b.failed);
                TreeSet<String> onlyBare = new TreeSet<>(b.failed);
                onlyBare.removeAll(h.failed);
                onlyBare.removeAll(h.declined);
                System.out.printf("round %d verdicts: %s%s%n", round, onlyHarness.isEmpty() && onlyBare.isEmpty() ? "the same failures on both"
                        : "failed only in the harness " + onlyHarness + ", only on the bare page " + onlyBare, h.declined.isEmpty() ? ""
                        : "; " + h.declined.size() + " declined by the harness before loading (float16 without shader-f16; the bare page "
                        + "runs them with their nodes on the CPU)");
            }
            System.out.printf("ops sweep rate ratio (harness/bare), all rounds: %.2f (goal >= 0.80)%n", bareSum / harnessSum);
        }
        System.exit(0);
    }

    /** {@code declined}: cases the harness refused before loading, by the lane's known limits (float16 without shader-f16). */
    record Side(double seconds, TreeSet<String> failed, TreeSet<String> declined, String split) {
    }

    /** The harness's provider in a fresh browser, its first case once (the page up, the runtime compiled), then every case. */
    private static Side harness(BridgeServer server, BackendId backend, List<ModelCase> cases) {
        TreeSet<String> failed = new TreeSet<>();
        TreeSet<String> declined = new TreeSet<>();
        double fetch = 0;
        double create = 0;
        double inference = 0;
        double passWall = 0;
        int passed = 0;
        long t0;
        long total;
        int fresh;
        int checks;
        int restarts;
        try (BrowserBackendProvider chromium = new BrowserBackendProvider(server, LaunchOptions.builder()
                .browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT).build())) {
            try {
                chromium.execute(new ExecutionRequest(backend, cases.get(0), 0, 1, CASE_TIMEOUT));
            } catch (RuntimeException e) {
                // judged in the loop
            }
            int fresh0 = chromium.freshPages();
            int checks0 = chromium.pageChecks();
            int restarts0 = chromium.restarts();
            t0 = System.nanoTime();
            for (ModelCase mc : cases) {
                long c0 = System.nanoTime();
                try {
                    Execution e = chromium.execute(new ExecutionRequest(backend, mc, 0, 1, CASE_TIMEOUT));
                    ColdStart cs = e.analysis().coldStart();
                    fetch += cs.fetchMs();
                    create += cs.createMs();
                    inference += cs.firstRunMs();
                    passWall += (System.nanoTime() - c0) / 1e6;
                    passed++;
                } catch (UnsupportedModelException e) {
                    (e.getMessage().contains("computes in float16 but") ? declined : failed).add(mc.model().name());
                } catch (RuntimeException e) {
                    failed.add(mc.model().name());
                }
            }
            total = System.nanoTime() - t0;
            fresh = chromium.freshPages() - fresh0;
            checks = chromium.pageChecks() - checks0;
            restarts = chromium.restarts() - restarts0;
        }
        int n = cases.size();
        double failedWall = total / 1e6 - passWall;
        String split = String.format("%.1f ms: a passing case %.1f ms = in the page fetch %.1f + session %.1f + inference %.1f, outside the "
                        + "page's jobs %.1f; failed cases %.1f ms in all (%d page checks, %d fresh pages, %d relaunches)", total / 1e6 / n,
                passWall / passed, fetch / passed, create / passed, inference / passed, (passWall - fetch - create - inference) / passed,
                failedWall, checks, fresh, restarts);
        return new Side(total / 1e9, failed, declined, split);
    }

    /** The bare page in a fresh browser over the same models and inputs. */
    static Side bare(BridgeServer server, BackendId backend, String listUrl) throws Exception {
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
            bare.navigate(server.baseUrl() + "/bare.html?list=" + listUrl + "&ep=" + (backend == BackendId.WEBGPU ? "webgpu" : "wasm"));
            bare.waitForFunction("() => window.benchResult !== undefined", null, new Page.WaitForFunctionOptions().setTimeout(600_000));
            r = new ObjectMapper().readTree(String.valueOf(bare.evaluate("() => JSON.stringify(window.benchResult)")));
        }
        if (r.has("error")) {
            throw new IllegalStateException("bare page failed: " + r.get("error").asText());
        }
        TreeSet<String> failed = new TreeSet<>();
        r.path("errors").forEach(e -> failed.add(e.asText().substring(0, Math.max(0, e.asText().indexOf(':')))));
        JsonNode ms = r.path("phaseMs");
        int n = r.path("cases").asInt();
        String split = String.format("%.1f ms: fetch %.1f + session %.1f + inference %.1f + release %.1f, after failed inferences %.1f ms in "
                        + "all (%d checks, %d fresh onnxruntime-web)", r.path("ms").asDouble() / n, ms.path("fetch").asDouble() / n,
                ms.path("create").asDouble() / n, ms.path("run").asDouble() / n, ms.path("release").asDouble() / n,
                ms.path("recover").asDouble(), r.path("checks").asInt(), r.path("fresh").asInt());
        return new Side(r.path("ms").asDouble() / 1000, failed, new TreeSet<>(), split);
    }

    /** The bare page's list: every case's model and inputs by URL, and the page check's model, inputs and exact answer. */
    static String bareList(BridgeServer server, List<ModelCase> cases, Path dir) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode list = json.createObjectNode();
        var arr = list.putArray("cases");
        for (ModelCase mc : cases) {
            arr.addObject().put("name", mc.model().name()).put("model", ModelRegistry.of(server).register(mc.model().path()).urlPath())
                    .put("inputs", ModelRegistry.of(server).register(inputs(dir, mc.model().name(), mc.inputs())).urlPath());
        }
        Path check = Files.write(dir.resolve("page-check.onnx"), PageCheck.MODEL);
        ObjectNode c = list.putObject("check").put("model", ModelRegistry.of(server).register(check).urlPath())
                .put("inputs", ModelRegistry.of(server).register(inputs(dir, "page-check", List.of(NamedTensor.ofFloats("x",
                        PageCheck.X_SHAPE, PageCheck.X)))).urlPath());
        var expected = c.putArray("expected");
        for (float v : PageCheck.EXPECTED) {
            expected.add(v);
        }
        return ModelRegistry.of(server).register(Files.writeString(dir.resolve("list.json"), list.toString())).urlPath();
    }

    private static Path inputs(Path dir, String name, List<NamedTensor> tensors) throws Exception {
        ObjectNode head = new ObjectMapper().createObjectNode().put("v", 1).put("type", "inputs");
        return Files.write(dir.resolve(name.replaceAll("[^A-Za-z0-9._=+-]", "_") + ".abf"), FrameCodec.encode(head, tensors));
    }
}
