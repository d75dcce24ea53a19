package dev.accelbridge.bridge;

import dev.accelbridge.bridge.protocol.PageHost;
import dev.accelbridge.browser.provider.BrowserBackendProvider;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.testing.Nightly;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The same page through the other launch paths, one browser each: Debian's Chromium through Selenium (three suites
 * on wasm), the @sparticuz/chromium headless shell (WebNN cpu/gpu for real; its WebGPU adapter as asked for), Firefox ESR
 * as a plain process and WebKitGTK under its own WebDriver. One bridge serves all of them.
 */
class OtherBrowsersTest {
    static BridgeServer server;

    @BeforeAll
    static void start() {
        server = BridgeServer.start(BridgeOptions.defaults());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @RequiresBrowser
    @Test
    void seleniumChromiumProbesAndRunsTheThreeSuitesOnWasm() {
        try (BrowserBackendProvider p = new BrowserBackendProvider(server,
                LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.SELENIUM).build())) {
            assertThat(p.pageProbe().userAgent()).contains("Chrome/" + p.browserVersion().split("\\.")[0] + ".");
            assertThat(p.pageProbe().webgpu().architecture()).isEqualTo("swiftshader");
            assertThat(p.probe(BackendId.WEBNN_CPU).evidence()).contains("WebNN is not supported on this platform.");
            for (ModelCase mc : SuiteFixtures.allCases()) {
                Execution e = SuiteFixtures.runAndCompare(p, BackendId.WASM, mc);
                assertThat(e.provenance().driver()).isEqualTo("selenium");
            }
        }
    }

    @RequiresBrowser(BrowserKind.CHROMIUM_SHELL)
    @Test
    void chromiumShellRunsTheSuitesOnWebnnCpuAndGpu() {
        try (BrowserBackendProvider p = new BrowserBackendProvider(server,
                LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).driver(DriverKind.PLAYWRIGHT).build())) {
            for (BackendId nn : new BackendId[] {BackendId.WEBNN_CPU, BackendId.WEBNN_GPU}) {
                Availability a = p.probe(nn);
                assertThat(a.available()).as(a.evidence()).isTrue();
                assertThat(a.evidence()).contains("createContext({\"deviceType\":\"" + nn.webnnDeviceType() + "\"}) succeeded");
                for (ModelCase mc : SuiteFixtures.allCases()) {
                    Execution e = SuiteFixtures.runAndCompare(p, nn, mc);
                    assertThat(e.provenance().browser()).isEqualTo("chromium-shell");
                    assertThat(e.provenance().executionProviders()).containsExactly("webnn/" + nn.webnnDeviceType());
                }
            }
        }
    }

    @RequiresBrowser(BrowserKind.FIREFOX)
    @Test
    void firefoxLaunchedAsAProcessJoinsAndRunsWasm() {
        try (BrowserBackendProvider p = new BrowserBackendProvider(server,
                LaunchOptions.builder().browser(BrowserKind.FIREFOX).driver(DriverKind.PROCESS).build())) {
            assertThat(p.pageProbe().userAgent()).contains("Firefox/");
            assertThat(p.probe(BackendId.WEBNN_CPU).evidence()).isEqualTo("navigator.ml undefined");
            ModelCase mc = SuiteFixtures.cases(ModelFamily.TEXT).get(0);
            Execution e = SuiteFixtures.runAndCompare(p, BackendId.WASM, mc);
            assertThat(e.provenance().driver()).isEqualTo("process");
            assertThat(e.provenance().browser()).isEqualTo("firefox");
            assertThat(e.timings().quality().timerResolutionMs()).as("measured by the page").isPositive().isLessThan(2);
            assertThat(e.timings().quality().latencyFloorMs()).as("wasm has no readback to poll").isNaN();
            // found when tried: Firefox's WebGPU (lavapipe) learns of a finished readback by polling, so every sample sat
            // on a ~100 ms step and was charted as latency. The page measures the empty readback, the case is floored
            // (never ranked), and the GPU's own time comes from timestamp queries where the device has them.
            Availability gpu = p.probe(BackendId.WEBGPU);
            assumeTrue(gpu.available(), "Firefox has no WebGPU adapter here: " + gpu.evidence());
            Execution w = p.execute(new dev.accelbridge.core.ExecutionRequest(BackendId.WEBGPU, mc, 1, 6,
                    java.time.Duration.ofSeconds(120)));
            var q = w.timings().quality();
            System.out.printf("firefox webgpu: p50 %.2f ms, readback %.2f ms, floor %.2f ms, gpu %.2f ms%n",
                    w.timings().p50Ms(), q.readbackMs(), q.latencyFloorMs(), q.gpuMs());
            assertThat(q.readbackMs()).as("the empty readback round trip").isGreaterThan(50);
            assertThat(q.floored()).as("samples %s on readback %.1f ms", java.util.Arrays.toString(w.timings().samplesMs()),
                    q.readbackMs()).isTrue();
            assertThat(q.latencyFloorMs()).isEqualTo(q.readbackMs());
            if (Double.isFinite(q.gpuMs())) {
                assertThat(q.gpuMs()).as("the GPU's own time is below the polled floor").isPositive().isLessThan(q.readbackMs());
            }
            assertThat(q.floorStopped()).as("exact counts are never cut").isFalse();
            assertThat(w.timings().samplesMs()).hasSize(6);

            // Under the default rule (least durations), the page stops once its runs show the floor (3 at least: a first
            // sample off the poll's steps asks for more evidence), and says so.
            var rule = new dev.accelbridge.core.MinDurations(java.time.Duration.ofMillis(500), java.time.Duration.ofMillis(500));
            Execution f = p.execute(new dev.accelbridge.core.ExecutionRequest(BackendId.WEBGPU, mc, 3, 10,
                    java.time.Duration.ofSeconds(120), null, null, 0, 0, dev.accelbridge.core.CaseProgress.NONE, rule));
            assertThat(f.timings().quality().floorStopped()).as("samples %s", java.util.Arrays.toString(f.timings().samplesMs())).isTrue();
            assertThat(f.timings().samplesMs()).hasSizeBetween(dev.accelbridge.core.FloorStop.RUNS, 8);
            assertThat(f.timings().warmups()).isBetween(3, 8);
            assertThat(f.timings().quality().caveatList()).anyMatch(c -> c.contains("sampling stopped once its runs showed it"));

            // A generation: the cold generation's steps show the floor, so no warm-up runs and one timed generation does;
            // every generation that ran (the cold one, the timed one) still gives its tokens for the verdict.
            ModelCase gen = SuiteFixtures.cases(ModelFamily.TEXT_GENERATION).get(0);
            java.util.List<dev.accelbridge.core.NamedTensor> ref = SuiteFixtures.reference(gen);
            Execution g = p.execute(new dev.accelbridge.core.ExecutionRequest(BackendId.WEBGPU, gen, 3, 10,
                    java.time.Duration.ofSeconds(180), null, null, 0, 0, dev.accelbridge.core.CaseProgress.NONE, rule));
            var d = ((dev.accelbridge.core.Decoding) g.timings().figures());
            assertThat(g.timings().quality().floorStopped()).as("steps %s", java.util.Arrays.toString(d.itlMs())).isTrue();
            assertThat(g.timings().warmups()).isZero();
            assertThat(d.ttftMs()).hasSize(1);
            dev.accelbridge.core.GenerationCheck.Verdict v = dev.accelbridge.core.GenerationCheck.judge(ref, g.outputs(),
                    dt -> dev.accelbridge.core.Tolerance.defaults(BackendId.WEBGPU, dt, dev.accelbridge.core.Precision.FP32), "native-cpu", 8);
            assertThat(v.generations()).as("the cold one and one timed").isEqualTo(2);
            assertThat(v.wrong()).as(v.reason()).isFalse();
        }
    }

    /**
     * Safari's engine: WebKitGTK's MiniBrowser under WebKitGTK's own WebDriver (through Selenium's RemoteWebDriver), on a
     * virtual display of its own. Every suite runs on wasm (JavaScriptCore) and matches native; WebGPU and WebNN are
     * unavailable with the page's own evidence, and the lane is named from the driver's version, not the user agent's.
     */
    @RequiresBrowser(BrowserKind.WEBKIT)
    @Test
    void webkitThroughItsWebDriverRunsTheSuitesOnWasm() {
        long pid;
        try (BrowserBackendProvider p = new BrowserBackendProvider(server,
                LaunchOptions.builder().browser(BrowserKind.WEBKIT).driver(DriverKind.SELENIUM).build())) {
            assertThat(p.pageProbe().userAgent()).contains("AppleWebKit/").doesNotContain("Chrome/");
            assertThat(PageHost.browserFromUserAgent(p.pageProbe().userAgent())[0]).as("a Linux WebKit is not Safari").isEqualTo("webkit");
            assertThat(p.browserVersion()).as("WebKitGTK's release, from its driver").matches("2\\.\\d+\\.\\d+");
            assertThat(p.laneId().key()).startsWith("webkit@2." );
            Availability gpu = p.probe(BackendId.WEBGPU);
            assertThat(gpu.available()).isFalse();
            assertThat(gpu.evidence()).startsWith("navigator.gpu ");
            assertThat(p.probe(BackendId.WEBNN_CPU).evidence()).isEqualTo("navigator.ml undefined");
            Availability wasm = p.probe(BackendId.WASM);
            assertThat(wasm.evidence()).contains("SIMD yes").contains("JSPI no");
            for (ModelCase mc : SuiteFixtures.allCases()) {
                Execution e = SuiteFixtures.runAndCompare(p, BackendId.WASM, mc);
                assertThat(e.provenance().browser()).isEqualTo("webkit");
                assertThat(e.provenance().driver()).isEqualTo("selenium");
                assertThat(e.provenance().runtimeVersions()).as("WebKit has no V8 flags").doesNotContainKey("v8-flags");
            }
            var handle = p.handle().orElseThrow();
            assertThat(handle.isAlive()).isTrue();
            pid = handle.pid().orElseThrow();
            assertThat(ProcessHandle.of(pid).flatMap(ph -> ph.info().command())).hasValueSatisfying(c -> assertThat(c).endsWith("MiniBrowser"));
        }
        assertThat(running(pid)).as("MiniBrowser ended with its lane").isFalse();
    }

    /** Alive and not a zombie (a killed child nobody has reaped yet still answers isAlive()). */
    private static boolean running(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (java.io.IOException e) {
            return false; // gone
        }
    }

    /**
     * The adapter choice on the real headless shell, on a host whose only WebGPU adapter is SwiftShader: asked for the
     * GPU's, the lane tries every hardware flag set, refuses the software adapter they gave (a Vulkan set sometimes gives
     * none here), and says what each gave as WebGPU's evidence (wasm still runs).
     */
    @RequiresBrowser(BrowserKind.CHROMIUM_SHELL)
    @Nightly(guardedBy = "HardwareAdapterSearchTest#softwareEverywhereIsRefusedNamingWhatEachSetGaveAndTheLastJoinedIsKept")
    @Test
    void askedForTheGpusAdapterALaneRefusesSoftwareWithWhatEachFlagSetGave() {
        try (BrowserBackendProvider p = shellWith(dev.accelbridge.browser.launch.WebGpuAdapter.HARDWARE)) {
            Availability gpu = p.probe(BackendId.WEBGPU);
            assertThat(gpu.available()).isFalse();
            assertThat(gpu.evidence()).startsWith("no hardware WebGPU adapter (--webgpu-adapter hardware): ");
            // each flag set named with what it gave: SwiftShader, refused as software, (a Vulkan set on Mesa's lavapipe, at
            // times) no adapter at all, or (the EGL set, whose GPU process finds no EGL display here) no page; at least one
            // gave the software adapter, which the lane refused
            for (var set : dev.accelbridge.browser.launch.ChromiumFlags.HARDWARE_WEBGPU) {
                assertThat(gpu.evidence()).containsPattern(java.util.regex.Pattern.quote(String.join(" ", set)) + " gave (google swiftshader "
                        + "\\(software adapter\\)|'navigator.gpu present, requestAdapter\\(\\) returned null'|no page \\()");
            }
            assertThat(gpu.evidence()).contains(" gave google swiftshader (software adapter)");
            ModelCase mc = SuiteFixtures.cases(ModelFamily.VISION).get(0);
            SuiteFixtures.runAndCompare(p, BackendId.WASM, mc);
        }
    }

    /** Asked for software, the lane gets SwiftShader by the flag that forces it. */
    @RequiresBrowser(BrowserKind.CHROMIUM_SHELL)
    @Test
    void askedForSoftwareALaneGetsSwiftShader() {
        try (BrowserBackendProvider p = shellWith(dev.accelbridge.browser.launch.WebGpuAdapter.SOFTWARE)) {
            Availability gpu = p.probe(BackendId.WEBGPU);
            assertThat(gpu.available()).as(gpu.evidence()).isTrue();
            assertThat(p.pageProbe().webgpu().software()).isTrue();
            assertThat(p.pageProbe().webgpu().architecture()).isEqualTo("swiftshader");
        }
    }

    private static BrowserBackendProvider shellWith(dev.accelbridge.browser.launch.WebGpuAdapter adapter) {
        return new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).driver(DriverKind.PLAYWRIGHT)
                .webGpuAdapter(adapter).build());
    }
}
