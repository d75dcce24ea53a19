package dev.accelbridge.junit5;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.api.CaseResult;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.RunInfo;
import dev.accelbridge.suites.WildModels;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import static org.junit.platform.engine.TestExecutionResult.Status.ABORTED;
import static org.junit.platform.engine.TestExecutionResult.Status.FAILED;
import static org.junit.platform.engine.TestExecutionResult.Status.SUCCESSFUL;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.accelbridge.junit5.AccelbridgeAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Runs example test classes through the real Jupiter engine (EngineTestKit) on real headless Chromium, onnxruntime-web and
 * DJL's ONNX Runtime, and checks what each invocation became: passed, aborted with the probe's evidence, failed with the
 * right message; named after where it ran; written to the store.
 */
@RequiresBrowser
class AccelbridgeExtensionTest {
    /** Where the example's user-style models are written (relative: {@link Model} paths are, to the working folder). */
    static final Path MODELS = Path.of("target", "test-models");

    @TempDir
    static Path dir;
    static EngineExecutionResults results;

    @BeforeAll
    static void runExamples() throws Exception {
        Path vad = WildModels.vadLike(MODELS);
        Files.writeString(vad.resolve("accelbridge.json"), "{\"dims\": {\"samples\": 512}, \"inputs\": {\"sr\": 16000}}");
        WildModels.corrupt(MODELS);
        results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(Example.class))
                .configurationParameter("accelbridge.db", dir.resolve("matrix.duckdb").toString())
                .configurationParameter("accelbridge.out", dir.resolve("out").toString())
                .configurationParameter("accelbridge.bisect", "false")
                .execute();
    }

    /** The example: one suite model, one user-style folder, one broken folder; the annotations as a user writes them. */
    @AccelbridgeTest
    @Iterations(value = 3, warmups = 1)
    @Model(suite = "vision")
    static class Example {
        @Backends({"wasm", "webgpu", "webnn-npu", "cpu"})
        void matchesNative(CaseResult result) {
            assertThat(result).ranAsRequested().matchesReference();
        }

        @Backends(value = "webnn-gpu", fallback = true)
        void fallsBack(CaseResult result) {
            assertThat(result).fellBackTo(BackendId.WASM).matchesReference();
        }

        @Backends("wasm")
        void impossiblyFast(CaseResult result) {
            assertThat(result).p50AtMost(1e-6).timesNative();
        }

        @Backends("webgpu")
        @Tolerance(1e-30)
        void impossiblyTight(CaseResult result) {
            assertThat(result).matchesReference();
        }

        @Backends({"wasm", "cpu"})
        @Model("target/test-models/vad")
        void userModel(CaseResult result) {
            assertThat(result).ranAsRequested().matchesReference().p50AtMost(1e6).timesNative();
        }

        @Backends("wasm")
        @Model("target/test-models/truncated")
        void brokenModel(CaseResult result) {
            assertThat(result).matchesReference();
        }

        @Backends("webgpu")
        @Engine("webgpu-ep")
        void onTheNativeWebGpuEp(CaseResult result) {
            assertThat(result).ranAsRequested().matchesReference();
        }

        @Backends("tpu")
        void unknownBackend(CaseResult result) {
            throw new AssertionError("never invoked");
        }

        @Backends("wasm")
        @Model("target/test-models/no-such-model")
        void missingModel(CaseResult result) {
            throw new AssertionError("never invoked");
        }
    }

    /** The finished invocations of {@code method} that ended with {@code status}. */
    private static List<Event> of(String method, TestExecutionResult.Status status) {
        return results.testEvents().finished().stream()
                .filter(e -> e.getTestDescriptor().getUniqueId().toString().contains("test-template:" + method + "("))
                .filter(e -> e.getPayload(TestExecutionResult.class).map(TestExecutionResult::getStatus).orElse(null) == status)
                .toList();
    }

    private static List<String> names(List<Event> events) {
        return events.stream().map(e -> e.getTestDescriptor().getDisplayName()).toList();
    }

    private static String message(Event e) {
        return e.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("");
    }

    @Test
    void eachBackendIsAnInvocationNamedAfterWhereItRan() {
        // WebGPU on both engines where no @Engine is given: JSEP, and the native WebGPU EP named in the invocation
        assertThat(names(of("matchesNative", SUCCESSFUL))).hasSize(4).anySatisfy(n -> assertThat(n).matches("wasm \\[chromium \\d+]"))
                .anySatisfy(n -> assertThat(n).matches("webgpu \\[chromium \\d+]"))
                .anySatisfy(n -> assertThat(n).matches("webgpu \\[chromium \\d+ webgpu-ep]")).contains("cpu [native]");
        assertThat(of("matchesNative", FAILED)).isEmpty();
    }

    @Test
    void anEnginePinnedByItsAnnotationRunsTheInvocation() {
        assertThat(names(of("onTheNativeWebGpuEp", SUCCESSFUL))).singleElement().asString().matches("webgpu \\[chromium \\d+ webgpu-ep]");
    }

    @Test
    void aBackendThatCannotRunHereIsAbortedWithTheProbesEvidence() {
        List<Event> aborted = of("matchesNative", ABORTED);
        assertThat(names(aborted)).singleElement().asString().matches("webnn-npu \\[chromium \\d+]");
        // Debian's Chromium has no WebNN: the probe's own words, not a generic skip
        assertThat(message(aborted.get(0))).contains("webnn-npu [chromium").contains("cannot run here").containsIgnoringCase("webnn");
    }

    @Test
    void aFallbackIsInTheNameAndAsserted() {
        assertThat(names(of("fallsBack", SUCCESSFUL))).singleElement().asString().matches("webnn-gpu → wasm \\[chromium \\d+]");
    }

    @Test
    void aSlowerThanBoundP50FailsWithTheFigures() {
        List<Event> failed = of("impossiblyFast", FAILED);
        assertThat(failed).hasSize(1);
        assertThat(message(failed.get(0))).matches("(?s)Expected wasm \\[chromium \\d+] to have a p50 at most 1.0E-6× native "
                + "cpu's, but its p50 [0-9.e+-]+ ms is [0-9.]+× native cpu's [0-9.e+-]+ ms.*");
    }

    @Test
    void outputsOutsideTheToleranceFailWithTheParity() {
        List<Event> failed = of("impossiblyTight", FAILED);
        assertThat(failed).hasSize(2); // on each engine
        assertThat(message(failed.get(0))).contains("to match the reference, but its outputs differ: max abs err")
                .contains("given: abs 1.00e-30").contains("against native-cpu");
    }

    @Test
    void aUserModelFolderRunsWithItsOwnFeed() {
        assertThat(names(of("userModel", SUCCESSFUL))).hasSize(2).contains("cpu [native]")
                .anySatisfy(n -> assertThat(n).matches("wasm \\[chromium \\d+]"));
    }

    @Test
    void aBrokenModelFailsItsInvocationWithTheLoadersReason() {
        List<Event> failed = of("brokenModel", FAILED);
        assertThat(failed).hasSize(1);
        assertThat(message(failed.get(0))).startsWith("Expected wasm [chromium").contains("to match the reference, but it FAILED");
    }

    @Test
    void badAnnotationsFailTheTemplateWithTheFix() {
        List<Event> containers = results.containerEvents().failed().list();
        assertThat(containers.stream().map(AccelbridgeExtensionTest::message).toList())
                .anySatisfy(msg -> assertThat(msg).contains("tpu").contains("webgpu").contains("on Example.unknownBackend"))
                .anySatisfy(msg -> assertThat(msg).contains("@Model path").contains("no-such-model").contains("does not exist"));
        assertThat(results.testEvents().started().stream().map(e -> e.getTestDescriptor().getUniqueId().toString()))
                .noneMatch(id -> id.contains("unknownBackend") || id.contains("missingModel"));
    }

    @Test
    void everyTemplateIsOneRunInTheStoreLabelledWithTheTest() {
        try (MatrixStore store = MatrixStore.openReadOnly(dir.resolve("matrix.duckdb"))) {
            List<RunInfo> runs = store.runs();
            assertThat(runs).hasSize(7); // the two templates with bad annotations never ran
            assertThat(runs).allSatisfy(r -> {
                assertThat(r.origin()).isEqualTo("junit5");
                assertThat(r.label()).startsWith(Example.class.getName() + "#");
                assertThat(r.args()).isEmpty();
            });
            RunInfo matches = runs.stream().filter(r -> r.label().endsWith("#matchesNative")).findFirst().orElseThrow();
            // wasm, webgpu, webnn-npu in chromium on JSEP, webgpu on the native WebGPU EP, and cpu natively: every
            // invocation's case, and nothing else
            assertThat(store.results(matches.runId())).hasSize(5);
            assertThat(store.results(matches.runId())).filteredOn(r -> r.lane().side() == dev.accelbridge.core.LaneSide.BROWSER)
                    .extracting(r -> r.id().requested().id() + "@" + r.lane().version("ortWebEngine"))
                    .containsExactlyInAnyOrder("wasm@jsep", "webgpu@jsep", "webnn-npu@jsep", "webgpu@webgpu-ep");
            RunInfo engine = runs.stream().filter(r -> r.label().endsWith("#onTheNativeWebGpuEp")).findFirst().orElseThrow();
            assertThat(store.results(engine.runId())).filteredOn(r -> r.lane().side() == dev.accelbridge.core.LaneSide.BROWSER).singleElement()
                    .satisfies(r -> assertThat(r.lane().version("ortWebEngine")).isEqualTo("webgpu-ep"));
        }
    }
}
