package dev.accelbridge.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.fetch.TreeManifest;
import dev.accelbridge.nativerunner.TinyOnnx;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark (not a test): what keeping an app's model on disk costs beside reading it once. An app fetches a model of
 * about N MiB (an MLP of 4096-wide layers, 64 MiB each) and makes a wasm session of it; observed, the model the session
 * was given is moved from the page to a file ({@link PageObserver#keep}: 8 MiB parts, hashed as they come). Printed per
 * round and as medians: the page's own fetch of the bytes (by its clock: reading them once, over the network), the
 * session's creation, the keeping, and reading the kept file once from disk with its sha256 (the bare baseline in this
 * process), and the ratios. Run with {@code bench/observe/keep.sh [mib=256] [rounds=5] [downloads|parts]}.
 */
public final class ObserveKeepBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String APP = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const t0 = performance.now();
            const bytes = new Uint8Array(await (await fetch('/files/big.onnx')).arrayBuffer());
            const t1 = performance.now();
            await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
            document.body.dataset.done = JSON.stringify({ fetch: t1 - t0, create: performance.now() - t1 });
            """;

    private ObserveKeepBench() {
    }

    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        PageObserver.Handover handover = args.length > 2 ? PageObserver.Handover.valueOf(args[2].toUpperCase(Locale.ROOT))
                : PageObserver.Handover.DOWNLOADS;
        Path dir = Files.createTempDirectory("accelbridge-keep-bench");
        try (ObservedApp app = new ObservedApp(dir); Playwright pw = Playwright.create(); Browser browser = TestChromium.launch(pw)) {
            byte[] model = TinyOnnx.mlp(4, 4096, 2, Math.max(1, mib / 64) + 1, 11L).bytes();
            app.put("big.onnx", model);
            app.put("keep.js", APP.getBytes(StandardCharsets.UTF_8));
            System.out.printf(Locale.ROOT, "keeping a %.1f MiB model on disk, handed over as %s (ms; %d rounds)%n", model.length / 1048576.0,
                    handover, rounds);
            System.out.printf(Locale.ROOT, "%-6s %10s %10s %10s %10s %12s %12s%n", "round", "fetch", "create", "keep", "disk read",
                    "keep/fetch", "keep/disk");
            List<double[]> all = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                double[] r = round(browser, app.url("/page/keep"), dir.resolve("kept-" + i), model.length, handover);
                all.add(r);
                print(String.valueOf(i + 1), r);
            }
            double[] med = new double[4];
            for (int p = 0; p < med.length; p++) {
                int part = p;
                double[] v = all.stream().mapToDouble(x -> x[part]).sorted().toArray();
                med[p] = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
            }
            print("median", med);
        } finally {
            Caches.deleteTree(dir);
        }
    }

    private static void print(String label, double[] r) {
        System.out.printf(Locale.ROOT, "%-6s %10.1f %10.1f %10.1f %10.1f %12.2f %12.2f%n", label, r[0], r[1], r[2], r[3], r[2] / r[0], r[2] / r[3]);
    }

    /** One visit in a fresh context: {fetch, create} by the page's clock, the keeping and the disk read by this process's. */
    private static double[] round(Browser browser, String url, Path to, long size, PageObserver.Handover handover) throws Exception {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page, 4L << 30, handover);
            page.navigate(url);
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED)
                    .setTimeout(300_000));
            JsonNode f = JSON.readTree(page.evaluate("document.body.dataset.done").toString());
            Observed seen = observer.read();
            Observed.Session s = seen.sessions().get(0);
            long t0 = System.nanoTime();
            PageObserver.KeptModel kept = observer.keep(seen, s, to, 4L << 30).orElseThrow(() -> new IllegalStateException("not kept"));
            double keepMs = (System.nanoTime() - t0) / 1e6;
            if (kept.size() != size) {
                throw new IllegalStateException("kept " + kept.size() + " bytes of " + size);
            }
            long t1 = System.nanoTime();
            TreeManifest.sha256(kept.file());
            double diskMs = (System.nanoTime() - t1) / 1e6;
            Caches.deleteTree(to);
            return new double[] {f.path("fetch").asDouble(), f.path("create").asDouble(), keepMs, diskMs};
        }
    }
}
