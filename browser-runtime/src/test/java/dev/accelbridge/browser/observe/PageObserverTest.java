package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's page, not Accelbridge's: an app on its own server that imports onnxruntime-web itself, makes a session from a
 * model file it fetches and runs it. The observer, installed before the page loads, names the session's model by its
 * sha256, the engine that made it and the run with its inputs and outputs; the outputs agree with native ONNX Runtime
 * on the same model and the inputs the page fed. A page that makes no session is observed as one with none.
 */
@RequiresBrowser
class PageObserverTest {
    @TempDir
    static Path dir;
    static ObservedApp app;
    static Playwright pw;
    static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        app = new ObservedApp(dir);
        pw = Playwright.create();
        browser = TestChromium.launch(pw);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (pw != null) {
            pw.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theAppsSessionIsNamedByItsModelAndEngineAndItsRunAgreesWithNative() throws Exception {
        try (var context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            app.drive(page, "/");
            Observed seen = observer.read();
            assertThat(seen.notes()).isEmpty();
            assertThat(seen.sessions()).hasSize(1);
            Observed.Session s = seen.sessions().get(0);
            assertThat(s.sha256()).isEqualTo(TinyOnnx.sha256(app.modelBytes));
            assertThat(s.byteLength()).isEqualTo(app.modelBytes.length);
            assertThat(s.created()).isTrue();
            assertThat(s.providers()).as("wasm is onnxruntime's CPU provider: none appended").isEmpty();
            assertThat(s.ortWebEngine()).as("ort.all.min.mjs loads the JSEP build").contains(OrtWebEngine.JSEP);
            assertThat(s.ortWebVersion()).as("the release as it said of itself").isEqualTo(dev.accelbridge.browser.page.OrtWebBuild.pinned().version());
            assertThat(seen.modules()).anyMatch(m -> m.endsWith("/ort/ort-wasm-simd-threaded.jsep.wasm"));
            assertThat(observer.model(s)).hasValueSatisfying(b -> assertThat(b).isEqualTo(app.modelBytes));
            assertThat(s.runCount()).isEqualTo(1);
            Observed.Run run = s.runs().get(0);
            assertThat(run.code()).isZero();
            assertThat(run.ms()).isPositive();
            NamedTensor x = run.inputs().get(0).tensor().orElseThrow();
            assertThat(x.shape()).containsExactly(2, 4);
            NamedTensor y = run.outputs().get(0).tensor().orElseThrow();
            assertThat(y.name()).isEqualTo(page.evaluate("document.body.dataset.done"));

            // judged as a case is: the same model and the inputs the page fed, natively on the CPU
            app.assertAgreesWithNative(run, 1e-5f);
        }
    }

    @Test
    void onWebGpuTheSessionNamesItsProviderAndItsOutputsStillAgreeWithNative() throws Exception {
        try (Browser gpu = TestChromium.launch(pw, TestChromium.SOFTWARE_WEBGPU)) {
            Page page = gpu.newPage();
            PageObserver observer = PageObserver.install(page);
            app.drive(page, "/?ep=webgpu");
            Observed.Session s = observer.read().sessions().get(0);
            assertThat(s.providers()).as("JSEP's WebGPU provider, as onnxruntime-web appends it").isNotEmpty();
            assertThat(s.ortWebEngine()).contains(OrtWebEngine.JSEP);
            Observed.Run run = s.runs().get(0);
            NamedTensor x = run.inputs().get(0).tensor().orElseThrow();
            NamedTensor y = run.outputs().get(0).tensor().orElseThrow();
            ModelCase mc = new ModelCase(app.model, x.name(), List.of(x), Optional.empty());
            float[] want = new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofMinutes(1)))
                    .outputs().get(0).toFloats();
            float[] got = y.toFloats();
            for (int i = 0; i < want.length; i++) {
                assertThat(got[i]).as("output %d", i).isCloseTo(want[i], org.assertj.core.data.Offset.offset(1e-4f));
            }
        }
    }

    @Test
    void aHundredSessionsAreCountedPastTheBoundAndKeptWithin() {
        try (var context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            page.navigate(app.url("/many"));
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED)
                    .setTimeout(120_000));
            Observed seen = observer.read();
            assertThat(seen.sessions()).hasSize(64);
            assertThat(seen.droppedSessions()).isEqualTo(36);
            assertThat(seen.sessions()).allSatisfy(s -> {
                assertThat(s.sha256()).isEqualTo(TinyOnnx.sha256(app.modelBytes));
                assertThat(s.released()).isTrue();
            });
        }
    }

    @Test
    void aPageThatMakesNoSessionIsObservedAsOneWithNone() {
        try (var context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            page.navigate(app.url("/empty"));
            Observed seen = observer.read();
            assertThat(seen.sessions()).isEmpty();
            assertThat(seen.notes()).isEmpty();
            assertThat(page.evaluate("({}).PTR_SIZE === undefined && JSON.stringify({a: 1})")).isEqualTo("{\"a\":1}");
        }
    }
}
