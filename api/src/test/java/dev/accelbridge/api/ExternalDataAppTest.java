package dev.accelbridge.api;

import dev.accelbridge.browser.observe.AppStep;
import dev.accelbridge.browser.observe.ExternalWeights;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model whose weights are kept as external data, as LLMs ship theirs: the app hands onnxruntime-web the graph and its
 * weights file ({@code externalData}), the observer keeps both (the file by the path the graph names it by, beside the
 * model), and native loads them together to judge the session; past the budget, the row says the model's size with its
 * external data's.
 */
@RequiresBrowser
class ExternalDataAppTest {
    private static final String APP = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const s = await ort.InferenceSession.create('/files/graph.onnx', { executionProviders: ['wasm'],
              externalData: [{ path: 'weights.bin', data: '/files/weights.bin' }] });
            const button = document.getElementById('run');
            button.onclick = async () => {
              const out = await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', Float32Array.from({ length: 8 }, (_, i) => i / 8), [2, 4]) });
              document.body.dataset.done = Object.keys(out).join(',');
            };
            button.disabled = false;
            """;

    @TempDir
    Path dir;

    @Test
    void aModelWithExternalWeightsIsKeptWithThemAndJudged() throws Exception {
        ExternalWeights split = ExternalWeights.split(TinyOnnx.small().bytes(), "weights.bin");
        assertThat(split.weights().length).as("the weights moved out of the graph").isPositive();
        try (ObservedApp app = new ObservedApp(dir);
             AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(dir.resolve("m.duckdb"))
                     .optOutDir(dir.resolve("out")).build())) {
            app.put("graph.onnx", split.graph());
            app.put("weights.bin", split.weights());
            app.put("external.js", APP.getBytes(StandardCharsets.UTF_8));
            ObserveOptions.Builder o = ObserveOptions.builder(URI.create(app.url("/page/external"))).addStep(new AppStep.Click("#run:enabled"))
                    .optUntil("body[data-done]").optIdle(ObservedApp.DONE_IDLE).optTimeout(Duration.ofSeconds(60));

            RunResult r = assertThat(session.observe(o.build()).results()).singleElement().actual();
            assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.PASSED);
            assertThat(r.id().modelSha256()).isEqualTo(TinyOnnx.sha256(split.graph()));

            long graphBytes = split.graph().length;
            RunResult past = assertThat(session.observe(o.optKeep(graphBytes).build()).results()).singleElement().actual();
            assertThat(past.status()).isEqualTo(Status.UNAVAILABLE);
            assertThat(past.reason()).isEqualTo("not judged: its model (" + graphBytes + " B, with " + split.weights().length + " B of external data) "
                    + "was not kept: the visit keeps at most " + graphBytes + " B of models on disk (--keep)");
        }
    }
}
