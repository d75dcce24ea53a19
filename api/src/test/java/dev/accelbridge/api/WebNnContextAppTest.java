package dev.accelbridge.api;

import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.observe.AppStep;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebNN app that makes its own context, as WebNN's samples do ({@code navigator.ml.createContext({deviceType: 'gpu'})},
 * handed to onnxruntime-web as {@code {name: 'webnn', context}}), observed in the WebNN-capable Chromium headless shell:
 * its session is on the device of the context it ran on. Found when tried: such a session was judged as
 * {@code webnn-cpu}, its tolerance the CPU's.
 */
@RequiresBrowser
@EnabledIf(value = "shell", disabledReason = "the Chromium headless shell (npm @sparticuz/chromium) is not installed")
class WebNnContextAppTest {
    private static final String OWN_CONTEXT = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const context = await navigator.ml.createContext({ deviceType: 'gpu' });
            const s = await ort.InferenceSession.create('/model.onnx', { executionProviders: [{ name: 'webnn', context }] });
            const button = document.getElementById('run');
            button.onclick = async () => {
              const x = new ort.Tensor('float32', Float32Array.from({ length: 8 }, (_, i) => i / 8 - 0.5), [2, 4]);
              const out = await s.run({ [s.inputNames[0]]: x });
              document.body.dataset.done = Object.keys(out).join(',');
            };
            button.disabled = false;
            """;

    static boolean shell() {
        return BrowserDiscovery.find(BrowserKind.CHROMIUM_SHELL).isPresent();
    }

    @Test
    void aSessionOnTheAppsOwnContextIsOnThatContextsDevice(@TempDir Path dir) throws Exception {
        try (ObservedApp app = new ObservedApp(dir);
             AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(dir.resolve("m.duckdb"))
                     .optOutDir(dir.resolve("out")).build())) {
            app.put("own-context.js", OWN_CONTEXT.getBytes(StandardCharsets.UTF_8));
            ObservedRun run = session.observe(ObserveOptions.builder(URI.create(app.url("/page/own-context")))
                    .optBrowser(BrowserKind.CHROMIUM_SHELL).addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]")
                    .optIdle(ObservedApp.DONE_IDLE).optTimeout(Duration.ofSeconds(60)).build());
            RunResult r = assertThat(run.sessions()).singleElement().actual();
            assertThat(r.requested()).as("%s; %s", r.reason(), r.warnings()).isEqualTo(BackendId.WEBNN_GPU);
            assertThat(r.provenance().executionProviders()).contains("WEBNN");
        }
    }
}
