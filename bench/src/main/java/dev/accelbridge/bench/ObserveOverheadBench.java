package dev.accelbridge.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.browser.testing.TestChromium;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark (not a test): what observing costs an app, in the app's own figures. The same app ({@code /loop}: makes a
 * session, runs it N times, times both by the page's clock) is opened in a fresh context unobserved (bare) and observed
 * (the observer installed, workers entered through CDP), alternating, on the page's thread and in a module worker; the
 * medians and their ratio are printed per part (the session's creation, the runs) and for the whole. Run with
 * {@code bench/observe/run.sh [runs=200] [rounds=7]}.
 */
public final class ObserveOverheadBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ObserveOverheadBench() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Path dir = Files.createTempDirectory("accelbridge-observe-bench");
        try (ObservedApp app = new ObservedApp(dir); Playwright pw = Playwright.create(); Browser browser = TestChromium.launch(pw)) {
            System.out.printf(Locale.ROOT, "observe overhead: the app's own figures (ms, median of %d rounds, %d runs a round)%n", rounds, runs);
            System.out.printf(Locale.ROOT, "%-8s %-6s %12s %12s %12s%n", "where", "part", "bare", "observed", "ratio");
            for (String where : List.of("page", "worker")) {
                String url = app.url("/loop?n=" + runs + "&in=" + where);
                visit(browser, url, false); // warm the server, the browser's caches and the wasm compile cache for both
                List<double[]> bare = new ArrayList<>();
                List<double[]> observed = new ArrayList<>();
                for (int i = 0; i < rounds; i++) {
                    bare.add(visit(browser, url, false));
                    observed.add(visit(browser, url, true));
                }
                String[] parts = {"load", "runs", "whole"};
                for (int p = 0; p < parts.length; p++) {
                    double b = median(bare, p);
                    double o = median(observed, p);
                    System.out.printf(Locale.ROOT, "%-8s %-6s %12.1f %12.1f %12.3f%n", where, parts[p], b, o, o / b);
                }
            }
        }
    }

    /** One visit in a fresh context: the app's {load, runs, whole} by its own clock. */
    private static double[] visit(Browser browser, String url, boolean observe) throws Exception {
        try (BrowserContext context = browser.newContext()) {
            Page page = context.newPage();
            if (observe) {
                PageObserver.install(page);
            }
            page.navigate(url);
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED)
                    .setTimeout(120_000));
            JsonNode f = JSON.readTree(page.evaluate("document.body.dataset.done").toString());
            double load = f.path("load").asDouble();
            double runs = f.path("runs").asDouble();
            return new double[] {load, runs, load + runs};
        }
    }

    private static double median(List<double[]> xs, int part) {
        double[] v = xs.stream().mapToDouble(x -> x[part]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
