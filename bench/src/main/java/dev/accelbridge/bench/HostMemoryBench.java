package dev.accelbridge.bench;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.ChromiumFlags;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.core.BrowserKind;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark (not a test): what first touching memory costs on this host, against writing the same bytes once they are
 * mapped, in this JVM and in a Chromium page. Every fresh process, page and session here maps what it uses page by
 * page, so a host whose page faults are slow (a VM whose host handles them) makes every cold start slower, harness and
 * bare baseline alike; this says how slow, so that timings from two hosts (or two days) can be told apart from a change
 * in the code. Run with {@code bench/host/run.sh [MiB=256] [rounds=3]}.
 */
public final class HostMemoryBench {
    private static final int PAGE = 4096;

    private HostMemoryBench() {
    }

    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        System.out.printf("first touch of %d MiB against a second write of the same bytes, %d rounds%n", mib, rounds);
        for (int r = 1; r <= rounds; r++) {
            double[] jvm = jvmRound((long) mib << 20);
            System.out.printf("[jvm]    round %d: first touch %.0f ms (%.0f MiB/s), rewrite %.0f ms: ratio %.1f%n", r, jvm[0],
                    mib / (jvm[0] / 1000), jvm[1], jvm[0] / jvm[1]);
        }
        InstalledBrowser b = BrowserDiscovery.require(BrowserKind.CHROMIUM);
        Map<String, String> env = new HashMap<>();
        env.put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
        if (Files.isExecutable(Path.of("/usr/bin/node"))) {
            env.put("PLAYWRIGHT_NODEJS_PATH", "/usr/bin/node");
        }
        List<Double> launches = new ArrayList<>();
        try (Playwright pw = Playwright.create(new Playwright.CreateOptions().setEnv(env))) {
            for (int r = 1; r <= rounds; r++) {
                long t0 = System.nanoTime();
                try (Browser browser = pw.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(b.executable())
                        .setHeadless(true).setArgs(ChromiumFlags.forLaunch(BrowserKind.CHROMIUM, DriverKind.PLAYWRIGHT, true, List.of())))) {
                    Page page = browser.newPage();
                    page.navigate("about:blank");
                    launches.add((System.nanoTime() - t0) / 1e6);
                    // a wasm memory is mapped as it is first written, as onnxruntime-web's heap is
                    String js = "(mib) => { const m = new WebAssembly.Memory({initial: mib * 16}); const u = new Uint8Array(m.buffer);"
                            + " let t = performance.now(); for (let i = 0; i < u.length; i += " + PAGE + ") u[i] = 1;"
                            + " const first = performance.now() - t; t = performance.now();"
                            + " for (let i = 0; i < u.length; i += " + PAGE + ") u[i] = 2;"
                            + " const again = performance.now() - t; t = performance.now(); u.fill(3); const fill = performance.now() - t;"
                            + " return [first, again, fill]; }";
                    @SuppressWarnings("unchecked")
                    List<Number> t = (List<Number>) page.evaluate(js, mib);
                    double first = t.get(0).doubleValue();
                    double again = t.get(1).doubleValue() + t.get(2).doubleValue();
                    System.out.printf("[page]   round %d: first touch %.0f ms (%.0f MiB/s), rewrite %.0f ms: ratio %.1f%n", r, first,
                            mib / (first / 1000), again, first / again);
                }
            }
        }
        System.out.printf("[launch] Chromium launch to a blank page: %s ms%n",
                launches.stream().map(d -> String.format("%.0f", d)).toList());
    }

    /** First touch (the JVM zeroing a fresh direct buffer, which maps each of its pages) and a second write of the same bytes, in ms. */
    private static double[] jvmRound(long bytes) {
        long t0 = System.nanoTime();
        ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(bytes, Integer.MAX_VALUE - 8));
        double first = (System.nanoTime() - t0) / 1e6;
        byte[] zeros = new byte[1 << 20];
        t0 = System.nanoTime();
        buf.clear();
        while (buf.remaining() >= zeros.length) {
            buf.put(zeros);
        }
        double again = (System.nanoTime() - t0) / 1e6;
        return new double[] {first, again};
    }
}
