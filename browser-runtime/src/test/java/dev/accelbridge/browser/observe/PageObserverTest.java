package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.accelbridge.bridge.ServedPage;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.nativerunner.TinyOnnx;
import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
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
    private static final String APP = """
            <!DOCTYPE html><meta charset="utf-8"><title>an app</title><script type="module" src="/app.mjs"></script>""";
    private static final String SCRIPT = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const s = await ort.InferenceSession.create('/model.onnx', { executionProviders: ['wasm'] });
            const x = new ort.Tensor('float32', Float32Array.from({ length: 8 }, (_, i) => i / 8 - 0.5), [2, 4]);
            const out = await s.run({ [s.inputNames[0]]: x });
            document.body.dataset.done = Object.keys(out).join(',');
            """;

    @TempDir
    static Path dir;
    static Javalin app;
    static Playwright pw;
    static Browser browser;
    static ModelSpec model;
    static byte[] modelBytes;

    @BeforeAll
    static void start() throws Exception {
        TinyOnnx.Mlp mlp = TinyOnnx.small();
        model = TinyOnnx.write(mlp, dir, "app-mlp");
        modelBytes = Files.readAllBytes(model.path());
        app = Javalin.create(cfg -> {
            cfg.staticFiles.add(s -> {
                s.hostedPath = "/ort";
                s.directory = "/" + ServedPage.CLASSPATH_ROOT + "/ort";
                s.location = Location.CLASSPATH;
                s.mimeTypes.add("text/javascript", "mjs");
                s.mimeTypes.add("application/wasm", "wasm");
            });
            cfg.routes.get("/", ctx -> ctx.html(APP));
            cfg.routes.get("/empty", ctx -> ctx.html("<!DOCTYPE html><title>no model here</title><p>hello</p>"));
            cfg.routes.get("/app.mjs", ctx -> ctx.contentType("text/javascript").result(SCRIPT));
            cfg.routes.get("/model.onnx", ctx -> ctx.contentType("application/octet-stream").result(modelBytes));
        }).start("127.0.0.1", 0);
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
            app.stop();
        }
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + app.port() + path;
    }

    @Test
    void theAppsSessionIsNamedByItsModelAndEngineAndItsRunAgreesWithNative() throws Exception {
        try (var context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            page.navigate(url("/"));
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED)
                    .setTimeout(60_000));
            Observed seen = observer.read();
            assertThat(seen.notes()).isEmpty();
            assertThat(seen.sessions()).hasSize(1);
            Observed.Session s = seen.sessions().get(0);
            assertThat(s.sha256()).isEqualTo(TinyOnnx.sha256(modelBytes));
            assertThat(s.byteLength()).isEqualTo(modelBytes.length);
            assertThat(s.created()).isTrue();
            assertThat(s.providers()).as("wasm is onnxruntime's CPU provider: none appended").isEmpty();
            assertThat(s.ortWebEngine()).as("ort.all.min.mjs loads the JSEP build").contains(OrtWebEngine.JSEP);
            assertThat(seen.modules()).anyMatch(m -> m.endsWith("/ort/ort-wasm-simd-threaded.jsep.wasm"));
            assertThat(observer.model(s)).hasValueSatisfying(b -> assertThat(b).isEqualTo(modelBytes));
            assertThat(s.runCount()).isEqualTo(1);
            Observed.Run run = s.runs().get(0);
            assertThat(run.code()).isZero();
            assertThat(run.ms()).isPositive();
            NamedTensor x = run.inputs().get(0).tensor().orElseThrow();
            assertThat(x.shape()).containsExactly(2, 4);
            NamedTensor y = run.outputs().get(0).tensor().orElseThrow();
            assertThat(y.name()).isEqualTo(page.evaluate("document.body.dataset.done"));

            // judged as a case is: the same model and the inputs the page fed, natively on the CPU
            ModelCase mc = new ModelCase(model, x.name(), List.of(x), Optional.empty());
            NamedTensor ref = new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofMinutes(1)))
                    .outputs().get(0);
            assertThat(y.shape()).isEqualTo(ref.shape());
            float[] got = y.toFloats();
            float[] want = ref.toFloats();
            for (int i = 0; i < want.length; i++) {
                assertThat(got[i]).as("output %d", i).isCloseTo(want[i], org.assertj.core.data.Offset.offset(1e-5f));
            }
        }
    }

    @Test
    void aPageThatMakesNoSessionIsObservedAsOneWithNone() {
        try (var context = browser.newContext()) {
            Page page = context.newPage();
            PageObserver observer = PageObserver.install(page);
            page.navigate(url("/empty"));
            Observed seen = observer.read();
            assertThat(seen.sessions()).isEmpty();
            assertThat(seen.notes()).isEmpty();
            assertThat(page.evaluate("({}).PTR_SIZE === undefined && JSON.stringify({a: 1})")).isEqualTo("{\"a\":1}");
        }
    }
}
