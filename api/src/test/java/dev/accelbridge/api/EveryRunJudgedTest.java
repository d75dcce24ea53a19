package dev.accelbridge.api;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.accelbridge.browser.observe.AppStep;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.suites.onnx.GraphBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every run of an observed session is held to native, not its first alone: a Cast to int32 agrees with native on
 * ordinary values and not on one past int32's range (WebAssembly's conversion saturates; native x86's gives the
 * "integer indefinite" value), so a session whose second run is fed such a value is WRONG_OUTPUT naming run 2; a run
 * that fails in the page makes its session FAILED with onnxruntime-web's own words. Every run is, the eighth as the second.
 */
@RequiresBrowser
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EveryRunJudgedTest {
    /**
     * A page whose session runs the Cast {@code ordinary} times on ordinary values (3, then 0, 1, ...), then once on a value
     * past int32's range: {@code castRuns(1)} twice, {@code castRuns(7)} eight times, as a generation of eight steps runs.
     */
    private static String castRuns(int ordinary) {
        return """
                import * as ort from '/ort/ort.all.min.mjs';
                ort.env.wasm.wasmPaths = '/ort/';
                ort.env.wasm.numThreads = 1;
                const s = await ort.InferenceSession.create('/files/cast.onnx', { executionProviders: ['wasm'], graphOptimizationLevel: 'basic' });
                const button = document.getElementById('run');
                button.onclick = async () => {
                  for (let i = 0; i < RUNS; i++) await s.run({ x: new ort.Tensor('float32', Float32Array.from([0.5, 1.5, -2.5, i || 3]), [4]) });
                  await s.run({ x: new ort.Tensor('float32', Float32Array.from([0.5, 1.5, -2.5, 1e10]), [4]) });
                  document.body.dataset.done = 'ran';
                };
                button.disabled = false;
                """.replace("RUNS", String.valueOf(ordinary));
    }

    /**
     * A page whose session runs a Cast of 128 Ki values (1 MiB of values a run) 200 times, the 193rd fed one value past
     * int32's range: past the 32 MiB of values a realm keeps.
     */
    private static final String LONG = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const s = await ort.InferenceSession.create('/files/wide.onnx', { executionProviders: ['wasm'] });
            const button = document.getElementById('run');
            button.onclick = async () => {
              for (let i = 0; i < 200; i++) {
                const x = new Float32Array(131072).fill(i % 7);
                if (i === 192) x[5] = 1e10;
                await s.run({ x: new ort.Tensor('float32', x, [131072]) });
              }
              document.body.dataset.done = 'ran';
            };
            button.disabled = false;
            """;

    private static final String FAILING = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const s = await ort.InferenceSession.create('/model.onnx', { executionProviders: ['wasm'] });
            const button = document.getElementById('run');
            button.onclick = async () => {
              try {
                await s.run({ [s.inputNames[0]]: new ort.Tensor('int32', new Int32Array(8), [2, 4]) });
              } catch (e) {
                document.body.dataset.done = String(e);
              }
            };
            button.disabled = false;
            """;

    private ObservedApp app;
    private AccelbridgeSession session;
    private ObservedRun twice;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        app = new ObservedApp(dir);
        GraphBuilder g = new GraphBuilder("cast", 1);
        String x = g.input("x", DType.FLOAT32, 4);
        g.opInto("Cast", "y", List.of(x), GraphBuilder.attr("to", 6L)); // int32
        g.output("y", DType.INT32, 4);
        app.put("cast.onnx", g.build("a Cast to int32").toByteArray());
        GraphBuilder wide = new GraphBuilder("cast", 1);
        String w = wide.input("x", DType.FLOAT32, 131072);
        wide.opInto("Cast", "y", List.of(w), GraphBuilder.attr("to", 6L));
        wide.output("y", DType.INT32, 131072);
        app.put("wide.onnx", wide.build("a Cast of 128 Ki values to int32").toByteArray());
        app.put("long.js", LONG.getBytes(StandardCharsets.UTF_8));
        app.put("twice.js", castRuns(1).getBytes(StandardCharsets.UTF_8));
        app.put("failing.js", FAILING.getBytes(StandardCharsets.UTF_8));
        app.put("eight.js", castRuns(7).getBytes(StandardCharsets.UTF_8));
        session = Accelbridge.create(SessionOptions.builder().optStore(dir.resolve("m.duckdb")).optOutDir(dir.resolve("out")).build());
    }

    @AfterAll
    void stop() {
        session.close();
        app.close();
    }

    /** The app's "/page/twice", observed once for the two tests that read it (a visit with its bisection is 10 s here). */
    private ObservedRun twice() {
        if (twice == null) {
            twice = observe("/page/twice");
        }
        return twice;
    }

    private ObservedRun observe(String path) {
        return session.observe(ObserveOptions.builder(URI.create(app.url(path))).optIdle(ObservedApp.DONE_IDLE)
                .optTimeout(Duration.ofSeconds(60)).addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").build());
    }

    @Test
    void aSessionWhoseSecondRunDiffersFromNativeIsWrongOutputNamingRunTwo() {
        ObservedRun run = twice();
        RunResult r = assertThat(run.sessions()).singleElement().actual();
        assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).startsWith("outputs of its run 2 differ from native CPU's");
        assertThat(r.warnings()).as("a session within the values' budget is judged on every run").noneMatch(w -> w.startsWith("its verdict covers"));
        // its bisection's replay runs with the app's own session options (found when tried: with Accelbridge's defaults)
        assertThat(run.replays()).singleElement().satisfies(x -> assertThat(x.id().runtimeOptions())
                .isEqualTo(new RuntimeOptions(Map.of(RuntimeOption.OPTIMIZATION, "basic"))));
    }

    @Test
    @Nightly(guardedBy = "EveryRunJudgedTest#aGenerationPastTheValuesBudgetIsJudgedOnRunsSpreadEvenlyToItsEnd") // docs/testing.md#the-nightly-tier
    void everyStepPastTheFourthIsJudgedToo() {
        // found when tried: only the first four runs of a session kept their values, so a generation's steps past the
        // fourth were never judged and its row read PASSED
        RunResult r = assertThat(observe("/page/eight").results()).singleElement().actual();
        assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).startsWith("outputs of its run 8 differ from native CPU's");
        assertThat(r.warnings()).noneMatch(w -> w.startsWith("its verdict covers"));
    }

    @Test
    void aGenerationPastTheValuesBudgetIsJudgedOnRunsSpreadEvenlyToItsEnd() {
        // found when tried: past the values a realm keeps, no later run was ever judged (the first 32 of 200 here), so a
        // wrong 193rd read PASSED
        RunResult r = assertThat(observe("/page/long").results()).singleElement().actual();
        assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).startsWith("outputs of its run 193 differ from native CPU's");
        assertThat(r.warnings()).anyMatch(x -> x.startsWith("its verdict covers 25 of its 200 runs: 175 were recorded without the values")
                && x.contains("those kept spread evenly over the session"));
    }

    @Test
    void aUsersTestGetsTheVerdictTheCommandLineGivesItsBisectionIncluded() {
        // found when tried: the Java API's route never bisected or settled, so one session could be PASSED in the store and
        // a failed assertion in a test; both routes now go through one judge
        RunResult row = assertThat(twice().results()).singleElement().actual();
        assertThat(row.analysis().bisection()).as("%s", row.reason()).isNotNull();
        try (Playwright pw = Playwright.create(); Browser browser = TestChromium.launch(pw)) {
            Page page = browser.newPage();
            try (ObservedPage o = Accelbridge.observe(page)) {
                page.navigate(app.url("/page/twice"));
                page.locator("#run:enabled").click(new Locator.ClickOptions().setTimeout(60_000));
                page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));
                ObservedVerdict v = assertThat(o.verdicts()).singleElement().actual();
                assertThat(v).isInstanceOfSatisfying(ObservedVerdict.Judged.class, j -> {
                    assertThat(j.status()).isEqualTo(row.status());
                    assertThat(j.bisecting()).isInstanceOfSatisfying(ObservedVerdict.Bisecting.Bisected.class, b -> {
                        assertThat(b.bisection().outcome()).isEqualTo(row.analysis().bisection().outcome());
                        assertThat(b.bisection().node()).isEqualTo(row.analysis().bisection().node());
                        assertThat(b.settles()).isFalse();
                    });
                });
            }
        }
    }

    @Test
    void aRunThatFailsInThePageMakesItsSessionFailedWithOnnxruntimeWebsWords() {
        RunResult r = assertThat(observe("/page/failing").results()).singleElement().actual();
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.reason()).startsWith("run 1 of it failed in the page: ").contains("Unexpected input data type");
    }
}
