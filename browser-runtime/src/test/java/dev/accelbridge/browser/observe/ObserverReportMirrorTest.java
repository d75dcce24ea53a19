package dev.accelbridge.browser.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * observer.js and the records it is read into are one schema: on a page that fills every part of a report (a session with
 * external weights, a run with its tensors, a worker started), every key the observer writes is a component of the record
 * it is read into, and every component but the reader's own ({@code realm}) is written. The reader is strict (a key no
 * record declares is refused), so a rename on one side only fails here, naming the key.
 */
@RequiresBrowser
class ObserverReportMirrorTest {
    private static final String APP = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            new SharedWorker('/outer.mjs', { type: 'module' });
            const s = await ort.InferenceSession.create('/files/graph.onnx', { executionProviders: ['wasm'],
              externalData: [{ path: 'weights.bin', data: '/files/weights.bin' }] });
            await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', new Float32Array(8), [2, 4]) });
            document.body.dataset.done = 'ran';
            """;

    @TempDir
    Path dir;

    @Test
    void everyKeyTheObserverWritesIsARecordsComponentAndEveryComponentIsWritten() throws Exception {
        ExternalWeights split = ExternalWeights.split(TinyOnnx.small().bytes(), "weights.bin");
        try (ObservedApp app = new ObservedApp(dir); Playwright pw = Playwright.create(); Browser browser = TestChromium.launch(pw)) {
            app.put("graph.onnx", split.graph());
            app.put("weights.bin", split.weights());
            app.put("mirror.js", APP.getBytes(StandardCharsets.UTF_8));
            Page page = browser.newPage();
            PageObserver observer = PageObserver.install(page);
            page.navigate(app.url("/page/mirror"));
            page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED).setTimeout(60_000));
            JsonNode report = new ObjectMapper().readTree((String) page.evaluate(
                    "async () => await globalThis[Symbol.for('accelbridge.observer')].reportJson()"));

            JsonNode session = report.path("sessions").path(0);
            JsonNode run = session.path("runs").path(0);
            assertThat(keys(report)).isEqualTo(components(Observed.class, "realm"));
            assertThat(keys(session)).isEqualTo(components(Observed.Session.class));
            assertThat(keys(session.path("external").path(0))).isEqualTo(components(Observed.External.class));
            assertThat(keys(run)).isEqualTo(components(Observed.Run.class));
            assertThat(keys(run.path("inputs").path(0))).isEqualTo(components(Observed.Tensor.class));
            assertThat(keys(run.path("outputs").path(0))).isEqualTo(components(Observed.Tensor.class));
            assertThat(keys(report.path("started").path(0))).isEqualTo(components(Observed.Started.class));
            assertThat(observer.read().sessions()).as("read strictly, whole").singleElement()
                    .satisfies(s -> assertThat(s.external()).singleElement().satisfies(e -> assertThat(e.kept()).isTrue()));
        }
    }

    private static Set<String> keys(JsonNode o) {
        assertThat(o.isObject()).as("a part of the report the page filled: %s", o).isTrue();
        Set<String> out = new TreeSet<>();
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    private static Set<String> components(Class<? extends Record> type, String... readersOwn) {
        Set<String> own = Set.of(readersOwn);
        return Arrays.stream(type.getRecordComponents()).map(java.lang.reflect.RecordComponent::getName).filter(n -> !own.contains(n))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
