package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * onnxruntime-web inlined into an app's own bundle by a real bundler (esbuild, pinned in browser-runtime's package.json):
 * no module of onnxruntime-web is left to hook, its names are the bundler's, and the observer still names the session by
 * its model and engine and records its run.
 */
@RequiresBrowser
class BundledAppTest {
    @TempDir
    Path dir;

    @Test
    void anAppThatBundledOnnxruntimeWebIsObservedAsOneThatImportedIt() throws Exception {
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

        try (ObservedApp app = new ObservedApp(dir); Playwright pw = Playwright.create(); Browser browser = TestChromium.launch(pw)) {
            app.put("bundle.js", Files.readAllBytes(out));
            Page page = browser.newPage();
            PageObserver observer = PageObserver.install(page);
            app.drive(page, "/bundled");
            Observed seen = observer.read();
            assertThat(seen.sessions()).hasSize(1);
            Observed.Session s = seen.sessions().get(0);
            assertThat(s.sha256()).isEqualTo(TinyOnnx.sha256(app.modelBytes));
            assertThat(s.ortWebEngine()).contains(OrtWebEngine.JSEP);
            assertThat(s.runCount()).isEqualTo(1);
            assertThat(s.runs().get(0).outputs().get(0).tensor()).isPresent();
        }
    }
}
