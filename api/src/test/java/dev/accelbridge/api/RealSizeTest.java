package dev.accelbridge.api;

import dev.accelbridge.browser.observe.AppStep;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.suites.PublishedModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model of the size users ship, observed whole: the published fp32 MiniLM embedder (90 MB, over the 64 MiB a page once
 * kept) loaded by a transformers.js app on wasm is kept on disk within the visit's budget and judged PASSED against
 * native. (A model past the budget: {@code ObserveAppTest}.)
 */
@RequiresBrowser
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealSizeTest {
    private ObservedApp app;
    private AccelbridgeSession session;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        Path packages = ObservedApp.appPackages().orElseThrow(() -> new IllegalStateException(
                "browser-runtime/apps/node_modules is not installed: build browser-runtime with its tests"));
        Path model = PublishedModels.embedderFolder(dir.resolve("models"));
        Files.writeString(model.resolve("tokenizer_config.json"),
                "{\"tokenizer_class\": \"BertTokenizer\", \"do_lower_case\": true, \"model_max_length\": 512}");
        Files.move(model, model.resolveSibling("minilm"));
        app = new ObservedApp(dir);
        app.serve("tjs", packages.resolve("@huggingface/transformers/dist"));
        app.serve("ort", packages.resolve("onnxruntime-web/dist"));
        app.serve("models", dir.resolve("models"));
        session = Accelbridge.create(SessionOptions.builder().optStore(dir.resolve("m.duckdb")).optOutDir(dir.resolve("out")).build());
    }

    @AfterAll
    void stop() {
        session.close();
        app.close();
    }

    private RunResult observe(long keep) { // one visit of the app with a budget
        ObservedRun run = session.observe(ObserveOptions.builder(URI.create(app.url("/tjs?device=wasm&dtype=fp32")))
                .addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").optIdle(ObservedApp.DONE_IDLE)
                .optTimeout(Duration.ofSeconds(120)).optKeep(keep).build());
        return assertThat(run.results()).singleElement().actual();
    }

    @Test
    void aPublishedFp32ModelOverSixtyFourMibIsKeptOnDiskAndJudgedPassed() {
        RunResult r = observe(1L << 30);
        assertThat(r.id().modelSha256()).isEqualTo(PublishedModels.MINILM.sha256());
        assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.PASSED);
        assertThat(r.parity().orElseThrow().within()).isTrue();
    }
}
