package dev.accelbridge.bridge;

import dev.accelbridge.browser.provider.BrowserBackendProvider;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.npm.NpmPackage;
import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.browser.page.PageAssets;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.browser.launch.BrowserMajorAxis;
import dev.accelbridge.browser.page.OrtWebAxis;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * onnxruntime-web releases beside the pinned one, and another headless-shell major, as the build installed them
 * ({@code browser-runtime/versions}, no fetch): found by their lockfile, served by the bridge, loaded by the page in real
 * Chromium, and what an old release cannot do here is UNSUPPORTED with its own words.
 */
class OrtWebVersionsTest {
    @TempDir
    static Path dir;
    static ModelSpec spec;
    static ModelCase mc;
    static List<NamedTensor> reference;

    @BeforeAll
    static void model() throws Exception {
        spec = TinyOnnx.write(TinyOnnx.mlp(8, 16, 4, 2, 5L), dir, "mlp");
        float[] x = new float[2 * 8];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) Math.cos(i * 0.7);
        }
        mc = new ModelCase(spec, "test", List.of(NamedTensor.ofFloats("x", new long[] {2, 8}, x)), Optional.empty());
        reference = new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofMinutes(1))).outputs();
    }

    @Test
    void theBuildsReleasesAreFoundByTheirLockfileWithTheRegistrysIntegrity() {
        NpmPackage p = NpmRegistry.installed(OrtWebBuild.PACKAGE, "1.17.0").orElseThrow();
        assertThat(p.source()).isEqualTo("build");
        assertThat(p.integrity()).startsWith("sha512-");
        assertThat(p.dir().resolve("package.json")).exists();
        assertThat(NpmRegistry.installedVersions(OrtWebBuild.PACKAGE)).contains("1.17.0", "1.18.0");
        // 1.17 and 1.18 ship their ES module bundle under esm/, later releases beside the wasm
        assertThat(OrtWebBuild.of("1.17.0").entry()).isEqualTo("esm/ort.all.min.js");
        assertThat(OrtWebBuild.of("1.17.0").pageQuery()).isEqualTo("ort=1.17.0&ortEntry=esm/ort.all.min.js");
        assertThat(OrtWebBuild.of(PageAssets.ortWebVersion()).isPinned()).isTrue();
    }

    @Test
    void theBridgeServesARegisteredReleaseOnlyAndOnlyItsScripts() throws Exception {
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            HttpClient http = HttpClient.newHttpClient();
            String base = server.baseUrl() + "/ort-web/1.17.0/";
            assertThat(get(http, base + "esm/ort.all.min.js").statusCode()).as("not registered yet").isEqualTo(404);
            URI page = server.pageUrl("s1", OrtWebBuild.of("1.17.0").served());
            assertThat(page.getQuery()).contains("ort=1.17.0", "ortEntry=esm/ort.all.min.js", "slot=s1");
            HttpResponse<String> js = get(http, base + "esm/ort.all.min.js");
            assertThat(js.statusCode()).isEqualTo(200);
            assertThat(js.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
            assertThat(js.headers().firstValue("cross-origin-embedder-policy")).contains("require-corp");
            assertThat(get(http, base + "ort-wasm-simd-threaded.jsep.wasm").statusCode()).isEqualTo(200);
            assertThat(get(http, base + "../package.json").statusCode()).isIn(400, 404);
            assertThat(get(http, base + "%2e%2e/%2e%2e/package.json").statusCode()).isIn(400, 404);
            assertThat(get(http, base + "esm/package.json").statusCode()).as("not a script").isEqualTo(404);
            assertThat(get(http, server.baseUrl() + "/ort-web/9.9.9/ort.all.min.mjs").statusCode()).isEqualTo(404);
        }
    }

    @RequiresBrowser
    @Test
    void anOlderReleaseLoadsInThePageComputesTheSameAndNamesItselfInTheLane() throws Exception {
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
             BrowserBackendProvider p = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM)
                     .driver(DriverKind.PLAYWRIGHT).build(), BrowserLaunchers.forDriver(DriverKind.PLAYWRIGHT), OrtWebBuild.of("1.17.0"))) {
            assertThat(p.page().ortVersion()).isEqualTo("1.17.0");
            LaneId lane = p.laneId();
            assertThat(lane.version(OrtWebAxis.DIMENSION.name())).isEqualTo("1.17.0");
            assertThat(lane.version(BrowserMajorAxis.DIMENSION.name())).isEqualTo(LaneId.majorOf(p.browserVersion()));
            Execution e = p.execute(new ExecutionRequest(BackendId.WASM, mc, 1, 3, Duration.ofMinutes(2)));
            assertThat(e.provenance().runtimeVersions()).containsEntry("onnxruntime-web", "1.17.0");
            // the module the page loaded (1.17 names its JSEP build ort-wasm-simd.jsep.wasm), with the sha256 of its file
            Path dist = OrtWebBuild.of("1.17.0").dist();
            assertThat(e.provenance().runtimeVersions()).containsEntry("onnxruntime-web-module",
                    "ort-wasm-simd.jsep.wasm sha256:" + java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                            .digest(java.nio.file.Files.readAllBytes(dist.resolve("ort-wasm-simd.jsep.wasm")))));
            Parity parity = Parity.compare(reference, e.outputs(), 1e-5, "native-cpu");
            assertThat(parity.within()).as("%s", parity).isTrue();
        }
    }

    @RequiresBrowser
    @Test
    void aBundleThatLoadsAnotherEnginesModuleFailsTheCaseNamingBoth() {
        // 1.17's esm/ort.webgpu.min.js is named like the native EP's bundle but loads JSEP's module: asked and loaded disagree
        OrtWebBuild old = OrtWebBuild.of("1.17.0");
        OrtWebBuild misnamed = new OrtWebBuild(old.version(), old.dist(), "esm/ort.webgpu.min.js", null, old.source());
        assertThat(misnamed.engine()).isEqualTo(OrtWebEngine.WEBGPU_EP);
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
             BrowserBackendProvider p = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM)
                     .driver(DriverKind.PLAYWRIGHT).build(), BrowserLaunchers.forDriver(DriverKind.PLAYWRIGHT), misnamed)) {
            assertThat(p.laneId().key()).endsWith("+ort-web@1.17.0+engine@webgpu-ep");
            assertThatThrownBy(() -> p.execute(new ExecutionRequest(BackendId.WASM, mc, 0, 1, Duration.ofMinutes(2))))
                    .isInstanceOf(ExecutionFailedException.class)
                    .hasMessageContaining("asked for the native WebGPU EP (asyncify)").hasMessageContaining(".jsep.wasm");
        }
    }

    @RequiresBrowser
    @Test
    void aReleaseWhoseProviderCannotStartInThisBrowserIsUnsupportedInItsOwnWords() {
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
             BrowserBackendProvider p = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM)
                     .driver(DriverKind.PLAYWRIGHT).build(), BrowserLaunchers.forDriver(DriverKind.PLAYWRIGHT), OrtWebBuild.of("1.18.0"))) {
            // 1.18.0's WebGPU backend asks the adapter for requestAdapterInfo(), which Chromium no longer has
            assertThatThrownBy(() -> p.execute(new ExecutionRequest(BackendId.WEBGPU, mc, 0, 1, Duration.ofMinutes(2))))
                    .isInstanceOfSatisfying(UnsupportedModelException.class, ex -> {
                        assertThat(ex.status()).isEqualTo(Status.UNSUPPORTED);
                        assertThat(ex.getMessage()).contains("no webgpu execution provider that starts in this browser",
                                "requestAdapterInfo", "onnxruntime-web 1.18.0");
                    });
            // a property of the lane: the next case learns it without a page job or a relaunch
            int restarts = p.restarts();
            assertThatThrownBy(() -> p.execute(new ExecutionRequest(BackendId.WEBGPU, mc, 0, 1, Duration.ofMinutes(2))))
                    .isInstanceOf(UnsupportedModelException.class).hasMessageContaining("requestAdapterInfo");
            assertThat(p.restarts()).isEqualTo(restarts);
            // the same page's wasm is fine: only the provider that cannot start is UNSUPPORTED
            assertThat(Parity.compare(reference, p.execute(new ExecutionRequest(BackendId.WASM, mc, 0, 1, Duration.ofMinutes(2))).outputs(),
                    1e-5, "native-cpu").within()).isTrue();
        }
    }

    @RequiresBrowser(BrowserKind.CHROMIUM_SHELL)
    @Test
    void anotherHeadlessShellMajorRunsWebnnAndOneWithoutTheProviderIsUnsupported() {
        Optional<InstalledBrowser> shell141 = BrowserDiscovery.find(new BrowserSpec(BrowserKind.CHROMIUM_SHELL, "141"));
        assumeTrue(shell141.isPresent(), "the build did not install the 141 shell");
        assertThat(shell141.get().version()).startsWith("141.");
        LaunchOptions lo = LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).driver(DriverKind.PLAYWRIGHT)
                .executable(shell141.get().executable()).build();
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
             BrowserBackendProvider pinned = new BrowserBackendProvider(server, lo, BrowserLaunchers.forDriver(DriverKind.PLAYWRIGHT),
                     OrtWebBuild.pinned());
             BrowserBackendProvider old = new BrowserBackendProvider(server, lo, BrowserLaunchers.forDriver(DriverKind.PLAYWRIGHT),
                     OrtWebBuild.of("1.17.0"))) {
            assertThat(pinned.laneId().key()).isEqualTo("chromium-shell@141+ort-web@" + PageAssets.ortWebVersion());
            Execution e = pinned.execute(new ExecutionRequest(BackendId.WEBNN_CPU, mc, 0, 2, Duration.ofMinutes(2)));
            assertThat(Parity.compare(reference, e.outputs(), 1e-3, "native-cpu").within()).isTrue();
            // 1.17.0 was built without a WebNN execution provider
            assertThatThrownBy(() -> old.execute(new ExecutionRequest(BackendId.WEBNN_CPU, mc, 0, 1, Duration.ofMinutes(2))))
                    .isInstanceOf(UnsupportedModelException.class).hasMessageContaining("not supported in this build");
        }
    }

    private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
