package dev.accelbridge.api;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.suites.PublishedModels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's app on transformers.js 4.3.1 from npm (its own onnxruntime-web nightly inlined in its bundle), running a
 * feature-extraction pipeline on a local model folder laid out as transformers.js expects it (the published MiniLM
 * embedder, its int8 form as {@code model_quantized.onnx}): the observer sees the session transformers.js made, names the
 * model file it picked for {@code dtype: 'q8'} by its sha256 and the engine that loaded it, and the session is judged
 * against native CPU on the ids and mask transformers.js's own tokenizer fed it; the same on the page's thread and in the
 * app's own module worker, as most transformers.js apps run their pipeline.
 */
@RequiresBrowser
class TransformersAppTest {
    @TempDir
    Path dir;

    /**
     * wasm agrees with native; WebGPU (the nightly's native EP on SwiftShader) does not, measured 2026-11-26: max abs 0.112
     * against the quantized tolerance's 0.1 (cosine 0.9988), a verdict the observer reports as the matrix would.
     */
    @Nightly(guardedBy = "TransformersAppTest#aTransformersJsPipelineIsObservedAndJudgedAgainstNative") // docs/testing.md#the-nightly-tier
    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({"/tjs, wasm, PASSED", "/tjs, webgpu, WRONG_OUTPUT", "/tjs-worker, wasm, PASSED"})
    void theSamePipelineOnThePageAndOnWasm(String path, String device, Status expected) throws Exception {
        aTransformersJsPipelineIsObservedAndJudgedAgainstNative(path, device, expected);
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({"/tjs-worker, webgpu, WRONG_OUTPUT"})
    void aTransformersJsPipelineIsObservedAndJudgedAgainstNative(String path, String device, Status expected) throws Exception {
        Path packages = ObservedApp.appPackages().orElseThrow(() -> new IllegalStateException(
                "browser-runtime/apps/node_modules is not installed: build browser-runtime with its tests"));
        Path model = PublishedModels.embedderFolder(dir.resolve("models"));
        Files.writeString(model.resolve("tokenizer_config.json"),
                "{\"tokenizer_class\": \"BertTokenizer\", \"do_lower_case\": true, \"model_max_length\": 512}");
        try (ObservedApp app = new ObservedApp(dir); Playwright pw = Playwright.create(); Browser browser = TestChromium.launch(pw,
                TestChromium.SOFTWARE_WEBGPU)) {
            app.serve("tjs", packages.resolve("@huggingface/transformers/dist"));
            app.serve("ort", packages.resolve("onnxruntime-web/dist"));
            app.serve("models", model.getParent());
            Files.move(model, model.resolveSibling("minilm"));
            Page page = browser.newPage();
            try (ObservedPage o = Accelbridge.observe(page)) {
                app.drive(page, path + "?device=" + device + "&dtype=q8");
                assertThat(page.locator("body").getAttribute("data-done")).isEqualTo("2x384");

                var reading = o.reading();
                assertThat(reading.unseen()).isEmpty();
                Observed seen = reading.realms().stream().filter(r -> !r.sessions().isEmpty()).findFirst().orElseThrow(
                        () -> new AssertionError("no realm saw the session: " + reading));
                assertThat(seen.realm().kind()).isEqualTo(path.endsWith("worker") ? Observed.Realm.Kind.WORKER : Observed.Realm.Kind.PAGE);
                assertThat(seen.sessions()).hasSize(1);
                Observed.Session s = seen.sessions().get(0);
                assertThat(s.sha256()).as("the q8 file transformers.js picked, model_quantized.onnx")
                        .isEqualTo(PublishedModels.MINILM_INT8.sha256());
                assertThat(s.ortWebEngine()).as("the native WebGPU EP's build, which transformers.js 4 loads for wasm too")
                        .contains(OrtWebEngine.WEBGPU_EP);
                assertThat(s.ortWebVersion()).as("the nightly transformers.js inlines, as it said of itself, not the one Accelbridge pins")
                        .isEqualTo("1.31.0-dev.20260914-8d85527a0");
                BackendId backend = device.equals("webgpu") ? BackendId.WEBGPU : BackendId.WASM;
                assertThat(s.backend()).contains(backend);
                assertThat(s.runs().get(0).inputs()).extracting(Observed.Tensor::name).contains("input_ids", "attention_mask");

                List<ObservedVerdict> verdicts = o.verdicts();
                assertThat(verdicts).singleElement().isInstanceOfSatisfying(ObservedVerdict.Judged.class, j -> {
                    assertThat(j.backend()).isEqualTo(backend);
                    assertThat(j.precision()).as("its graph's dtype").isEqualTo(Precision.INT8);
                    assertThat(j.parity().cosine()).as("the page's outputs held to native's element for element").isGreaterThan(0.99);
                    assertThat(j.status()).as("%s", j.parity()).isEqualTo(expected);
                });
            }
        }
    }
}
