package dev.accelbridge.bridge.server;

import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.BrowserKind;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Debian's Chromium driven by Playwright: the page's probe, the three suites on wasm and on WebGPU (SwiftShader)
 * against the native CPU reference, WebNN unavailable with the browser's own sentence, and a browser killed mid-case.
 * One browser for the whole class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PlaywrightChromiumTest {
    static BridgeServer server;
    static BrowserBackendProvider chromium;

    @BeforeAll
    static void start() {
        assumeTrue(BrowserDiscovery.find(BrowserKind.CHROMIUM).isPresent(), "Debian's chromium is not installed");
        server = BridgeServer.start(BridgeOptions.defaults());
        chromium = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM)
                .driver(DriverKind.PLAYWRIGHT).build());
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void probeCarriesTheBrowsersRealValues() {
        String major = chromium.browserVersion().split("\\.")[0];
        assertThat(chromium.pageProbe().userAgent()).contains("Chrome/" + major + ".");
        assertThat(chromium.pageProbe().crossOriginIsolated()).isTrue();
        assertThat(chromium.pageProbe().webgpu().architecture()).isEqualTo("swiftshader");
        assertThat(chromium.pageProbe().webgpu().label()).isEqualTo("google swiftshader (software adapter)");
        assertThat(chromium.probe(BackendId.WASM).evidence()).contains("SIMD yes", "threads yes");
        assertThat(chromium.probe(BackendId.WEBGPU).available()).isTrue();
        for (BackendId nn : new BackendId[] {BackendId.WEBNN_CPU, BackendId.WEBNN_GPU, BackendId.WEBNN_NPU}) {
            Availability a = chromium.probe(nn);
            assertThat(a.available()).isFalse();
            assertThat(a.evidence()).contains("NotSupportedError", "WebNN is not supported on this platform.");
            assertThat(a.where()).isEqualTo("chromium " + chromium.browserVersion());
        }
        assertThat(chromium.driver()).isEqualTo(DriverKind.PLAYWRIGHT);
    }

    @Test
    @Order(2)
    void allThreeSuitesRunOnWasmAndMatchNativeCpu() {
        for (ModelCase mc : SuiteFixtures.allCases()) {
            Execution e = SuiteFixtures.runAndCompare(chromium, BackendId.WASM, mc);
            assertThat(e.provenance().driver()).isEqualTo("playwright");
            assertThat(e.provenance().adapter()).isNull();
        }
    }

    @Test
    @Order(3)
    void allThreeSuitesRunOnTheSoftwareWebgpuAdapterAndMatch() {
        for (ModelCase mc : SuiteFixtures.allCases()) {
            Execution e = SuiteFixtures.runAndCompare(chromium, BackendId.WEBGPU, mc);
            assertThat(e.provenance().adapter()).isEqualTo("google swiftshader (software adapter)");
            assertThat(e.provenance().softwareAdapter()).isTrue();
            assertThat(e.provenance().executionProviders()).containsExactly("webgpu");
        }
    }

    @Test
    @Order(4)
    void webnnIsUnavailableWithTheProbeEvidence() {
        ModelCase mc = SuiteFixtures.cases(ModelFamily.TEXT).get(0);
        assertThatThrownBy(() -> chromium.execute(new ExecutionRequest(BackendId.WEBNN_GPU, mc, 0, 1, Duration.ofSeconds(30))))
                .isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("WebNN is not supported on this platform.")
                .satisfies(t -> assertThat(((BackendException) t).status()).isEqualTo(Status.UNAVAILABLE));
    }

    @Test
    @Order(5)
    void killingTheBrowserMidCaseFailsThatCaseAndTheNextOneRuns() throws Exception {
        ModelCase vision = SuiteFixtures.cases(ModelFamily.VISION).get(0);
        ConnectedPage before = chromium.page();
        // Many timed WebGPU iterations on the software adapter: the case is certainly still running when we kill.
        CompletableFuture<Execution> running = CompletableFuture.supplyAsync(() -> chromium.execute(
                new ExecutionRequest(BackendId.WEBGPU, vision, 0, 500, Duration.ofSeconds(120))));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (before.pendingJobs() == 0 && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        Thread.sleep(300);
        chromium.handle().orElseThrow().kill();
        assertThatThrownBy(() -> running.get(60, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ExecutionFailedException.class)
                .hasMessageContaining("Browser crashed or page left")
                .satisfies(t -> assertThat(((BackendException) t).phase()).isEqualTo(BackendException.Phase.CRASH));
        Execution next = SuiteFixtures.runAndCompare(chromium, BackendId.WASM, SuiteFixtures.cases(ModelFamily.TEXT).get(0));
        assertThat(next.outputs()).isNotEmpty();
        assertThat(chromium.restarts()).isEqualTo(1);
        assertThat(chromium.page()).isNotSameAs(before);
    }
}
