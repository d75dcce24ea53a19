package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * onnxruntime-web inlined into an app's own bundle by a real bundler (esbuild, pinned in browser-runtime's package.json):
 * no module of onnxruntime-web is left to hook, its names are the bundler's, and the observer still names the session by
 * its model and engine and records its run, on wasm and on WebGPU (SwiftShader), whose outputs agree with native.
 */
@RequiresBrowser
class BundledAppTest {
    @TempDir
    Path dir;

    @Nightly(guardedBy = "BundledAppTest#anAppThatBundledOnnxruntimeWebIsObservedAsOneThatImportedIt") // docs/testing.md#the-nightly-tier
    @ParameterizedTest
    @CsvSource({"wasm, JSEP"})
    void theBundledAppOnWasmToo(String ep, OrtWebEngine engine) throws Exception {
        anAppThatBundledOnnxruntimeWebIsObservedAsOneThatImportedIt(ep, engine);
    }

    @ParameterizedTest
    @CsvSource({"webgpu, JSEP"})
    void anAppThatBundledOnnxruntimeWebIsObservedAsOneThatImportedIt(String ep, OrtWebEngine engine) throws Exception {
        Path src = Files.writeString(dir.resolve("app.mjs"), ObservedApp.script("onnxruntime-web"));
        Path out = dir.resolve("bundle.js");
        ProcessBuilder pb = new ProcessBuilder("node", Path.of("node_modules/esbuild/bin/esbuild").toAbsolutePath().toString(),
                src.toString(), "--bundle", "--format=esm", "--platform=browser", "--minify", "--log-level=error", "--outfile=" + out)
                .redirectErrorStream(true);
        pb.environment().put("NODE_PATH", Path.of("src/main/web/node_modules").toAbsolutePath().toString());
        Process p = pb.start();
        String said = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("esbuild: %s", said).isZero();
        String bundle = Files.readString(out);
        assertThat(bundle).as("onnxruntime-web inlined, not imported").doesNotContain("from\"onnxruntime-web\"")
                .doesNotContain("from \"onnxruntime-web\"").contains("InferenceSession");

        try (ObservedApp app = new ObservedApp(dir); Playwright pw = Playwright.create(); Browser browser = TestChromium.launch(pw,
                TestChromium.SOFTWARE_WEBGPU)) {
            app.put("bundle.js", Files.readAllBytes(out));
            Page page = browser.newPage();
            PageObserver observer = PageObserver.install(page);
            app.drive(page, "/bundled?ep=" + ep);
            Observed seen = observer.read();
            assertThat(seen.sessions()).hasSize(1);
            Observed.Session s = seen.sessions().get(0);
            assertThat(s.sha256()).isEqualTo(TinyOnnx.sha256(app.modelBytes));
            assertThat(s.ortWebEngine()).contains(engine);
            assertThat(s.backend()).contains(ep.equals("webgpu") ? BackendId.WEBGPU : BackendId.WASM);
            assertThat(s.runCount()).isEqualTo(1);
            // the run the bundle made, held to native ONNX Runtime's on the inputs it fed
            NamedTensor x = s.runs().get(0).inputs().get(0).tensor().orElseThrow();
            float[] got = s.runs().get(0).outputs().get(0).tensor().orElseThrow().toFloats();
            float[] want = new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU,
                    new ModelCase(app.model, x.name(), List.of(x), Optional.empty()), 0, 1, Duration.ofMinutes(1))).outputs().get(0).toFloats();
            assertThat(got).hasSameSizeAs(want);
            for (int i = 0; i < want.length; i++) {
                assertThat(got[i]).as("output %d", i).isCloseTo(want[i], org.assertj.core.data.Offset.offset(1e-4f));
            }
        }
    }
}
