package dev.accelbridge.bridge;

import dev.accelbridge.browser.provider.BrowserBackendProvider;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.npm.NpmPackage;
import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.browser.page.OrtWebBuild;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * onnxruntime-web 1.17.0 fetched into a cache of the test's (npm installs it from its own cache, where the build's
 * lockfile put it): the registry's integrity kept with the tarball, each served file only as its verified bytes, an edited
 * file never served, the entry repaired at its next use, and the page in real Chromium running the repaired release.
 */
@RequiresBrowser
class FetchedOrtWebTest {
    static final String V = "1.17.0";
    @TempDir
    static Path cache;
    @TempDir
    static Path dir;
    static NpmPackage fetched;
    static ModelCase mc;
    static List<NamedTensor> reference;

    @BeforeAll
    static void fetch() throws Exception {
        fetched = NpmRegistry.cached(cache, OrtWebBuild.PACKAGE, V);
        ModelSpec spec = TinyOnnx.write(TinyOnnx.mlp(8, 16, 4, 2, 5L), dir, "mlp");
        float[] x = new float[2 * 8];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) Math.sin(i * 0.3);
        }
        mc = new ModelCase(spec, "test", List.of(NamedTensor.ofFloats("x", new long[] {2, 8}, x)), Optional.empty());
        reference = new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofMinutes(1))).outputs();
    }

    @Test
    void theCachedReleaseCarriesTheRegistrysIntegrityVerifiedAgainstItsTarball() {
        NpmPackage build = NpmRegistry.installed(OrtWebBuild.PACKAGE, V).orElseThrow(); // the lockfile's: the registry's
        assertThat(fetched.source()).isEqualTo("cache");
        assertThat(fetched.integrity()).isEqualTo(build.integrity());
        assertThat(fetched.verified()).startsWith(build.integrity() + " of the kept tarball").contains("manifest sha256");
        assertThat(fetched.sha256()).containsKey("dist/esm/ort.all.min.js");
        assertThat(NpmRegistry.inCache(cache, OrtWebBuild.PACKAGE, V)).isPresent();
    }

    @Test
    void anEditedFileIsNeverServedAndTheNextUseRepairsTheReleaseWhichThenRunsInThePage() throws Exception {
        OrtWebBuild build = OrtWebBuild.of(fetched);
        Path bundle = build.dist().resolve(build.entry());
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            server.pageUrl("s1", build.served());
            HttpClient http = HttpClient.newHttpClient();
            URI url = URI.create(server.baseUrl() + "/ort-web/" + V + "/" + build.entry());
            assertThat(http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
            // found when tried: a silent append to a cached onnxruntime-web was served, run, and the case PASSED
            Files.writeString(bundle, "\n;globalThis.tampered = true;\n", StandardOpenOption.APPEND);
            HttpResponse<String> refused = http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(409);
            assertThat(refused.body()).doesNotContain("tampered");
            // found when tried: a hard link planted in the cache was served under /ort-web/
            Path secret = Files.writeString(dir.resolve("secret.mjs"), "export const secret = 'not for serving';");
            Files.createLink(build.dist().resolve("planted.mjs"), secret);
            HttpResponse<String> link = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/ort-web/" + V + "/planted.mjs"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(link.statusCode()).isEqualTo(404);
            assertThat(link.body()).doesNotContain("not for serving");
        }
        NpmPackage repaired = NpmRegistry.cached(cache, OrtWebBuild.PACKAGE, V);
        assertThat(repaired.verified()).contains("fetched again").contains("planted.mjs was not there when it was unpacked");
        assertThat(build.dist().resolve("planted.mjs")).doesNotExist();
        assertThat(Files.readString(bundle)).doesNotContain("tampered");
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
             BrowserBackendProvider p = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM)
                     .driver(DriverKind.PLAYWRIGHT).build(), BrowserLaunchers.forDriver(DriverKind.PLAYWRIGHT), OrtWebBuild.of(repaired))) {
            Execution e = p.execute(new ExecutionRequest(BackendId.WASM, mc, 1, 2, Duration.ofMinutes(2)));
            assertThat(Parity.compare(reference, e.outputs(), 1e-5, "native-cpu").within()).isTrue();
            assertThat(e.provenance().verified()).hasEntrySatisfying("onnxruntime-web " + V, v -> assertThat(v)
                    .startsWith(repaired.integrity()).contains("the cached copy was fetched again", "planted.mjs"));
        }
    }
}
