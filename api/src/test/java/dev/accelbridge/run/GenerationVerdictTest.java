package dev.accelbridge.run;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.core.Status;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.nativerunner.HostDetector;
import dev.accelbridge.suites.GenerationSuite;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.generation.DecodeSteps;
import dev.accelbridge.suites.generation.LlamaDecoderModel;
import dev.accelbridge.suites.text.WordPieceTokenizer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A generation judged end to end by {@link CaseExecutor}, with real ONNX Runtime and real Chromium: a decoder whose attention
 * is deliberately wrong from cache depth 16 on (it drops the oldest key) against the correct decoder's native CPU
 * reference. Its generation is WRONG_OUTPUT naming the first token computed at that depth, on native CPU and on wasm; of
 * its grid of single steps, the empty cache passes and every step at depth 16 or more is WRONG_OUTPUT.
 */
class GenerationVerdictTest {
    @TempDir
    static Path dir;
    static NativeProviders natives;
    static HostInfo host;
    static List<ModelCase> good;
    static List<ModelCase> broken;
    static Map<String, Reference> references = new LinkedHashMap<>();

    @BeforeAll
    static void decoders() throws Exception {
        natives = NativeProviders.load();
        host = HostDetector.detect();
        LlamaDecoderModel.Config c = LlamaDecoderModel.Config.tiny(WordPieceTokenizer.builtin().vocabSize());
        long[] prompt = DecodeSteps.sentencePrompt(8);
        good = cases("llama-tiny", c, prompt);
        broken = cases("llama-tiny", c.brokenFrom(16), prompt);
        for (ModelCase mc : good) {
            references.put(mc.inputSet(), Reference.nativeCpu(natives.forBackend(BackendId.CPU).execute(
                    new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofMinutes(1))).outputs()));
        }
    }

    private static List<ModelCase> cases(String name, LlamaDecoderModel.Config c, long[] prompt) throws Exception {
        Path p = dir.resolve((c.brokenFrom() > 0 ? "broken-" : "") + name + ".onnx");
        Files.write(p, LlamaDecoderModel.build(name, c, 42).toBytes());
        return GenerationSuite.cases(OnnxModels.inspect(p, ModelFamily.TEXT_GENERATION, name, "test"), c, prompt, 16);
    }

    @AfterAll
    static void close() {
        if (natives != null) {
            natives.close();
        }
    }

    private static RunResult judge(ModelCase mc, BackendId backend, BackendProvider provider, LaneId lane) {
        return judge(mc, backend, provider, lane, references.get(mc.inputSet()));
    }

    private static RunResult judge(ModelCase mc, BackendId backend, BackendProvider provider, LaneId lane, Reference reference) {
        CaseExecutor ex = new CaseExecutor(1, 3, Duration.ofMinutes(2), FallbackPolicy.ON_FAILURE, CaseExecutor.CostLookup.NONE);
        CaseContext ctx = new CaseContext("test-run", host, Provenance.of(null, null, "test", null, null, List.of(), Map.of()), lane);
        Map<BackendId, Availability> probes = Map.of(backend, provider.probe(backend));
        return ex.run(ctx, mc, Chain.of(backend), probes, b -> provider, reference).result();
    }

    @Test
    void aGenerationWithoutItsReferenceIsWrongOutputAndVerifiesNothing() {
        // the native reference's run failed: a generation is judged no more kindly than a single pass without one
        RunResult r = judge(good.get(0), BackendId.CPU, natives.forBackend(BackendId.CPU), LaneId.NATIVE,
                Reference.missing("the native CPU reference failed: out of memory"));
        assertThat(r.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).startsWith("compare: no reference output to check against: the native CPU reference failed");
        assertThat(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()).tokensVerified()).isFalse();
        assertThat(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()).check()).isEqualTo(dev.accelbridge.core.TokenCheck.NONE);
        assertThat(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()).summary()).doesNotContain("verified");
    }

    @Test
    void theReferenceItselfSaysItsTokensRepeatedNeverVerified() {
        RunResult r = judge(good.get(0), BackendId.CPU, natives.forBackend(BackendId.CPU), LaneId.NATIVE, null);
        assertThat(r.status()).as(r.reason()).isEqualTo(Status.PASSED);
        assertThat(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()).check()).isEqualTo(dev.accelbridge.core.TokenCheck.OWN_FIRST);
        assertThat(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()).tokensVerified()).isFalse();
        assertThat(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()).tokensWord()).isEqualTo("repeated 5/5");
        assertThat(((dev.accelbridge.core.Decoding) r.timings().orElseThrow().figures()).summary()).contains("tokens repeated 5/5").doesNotContain("verified");
    }

    @Test
    void theCorrectDecoderIsVerifiedAndTheBrokenOneIsWrongAtTheFirstTokenComputedAtDepthSixteen() {
        BackendProvider cpu = natives.forBackend(BackendId.CPU);
        RunResult ok = judge(good.get(0), BackendId.CPU, cpu, LaneId.NATIVE);
        assertThat(ok.status()).as(ok.reason()).isEqualTo(Status.PASSED);
        assertThat(ok.id().scenario()).isEqualTo(ScenarioId.generate(8, 16));
        assertThat(((dev.accelbridge.core.Decoding) ok.timings().orElseThrow().figures()).tokensVerified()).isTrue();
        assertThat(((dev.accelbridge.core.Decoding) ok.timings().orElseThrow().figures()).verified()).as("cold, one warm-up, three timed").isEqualTo(5);
        assertThat(ok.parity().orElseThrow().against()).isEqualTo("native-cpu, teacher-forced logits");

        RunResult bad = judge(broken.get(0), BackendId.CPU, cpu, LaneId.NATIVE);
        assertThat(bad.status()).isEqualTo(Status.WRONG_OUTPUT);
        // prompt 8: the token after 9 steps is computed over a past of 16 positions
        assertThat(bad.reason()).startsWith("teacher-forced logits left the tolerance at token 10 (past length 16)");
        assertThat(bad.timings().orElseThrow().figures()).isInstanceOf(dev.accelbridge.core.Decoding.class);
    }

    @Test
    void theGridsEmptyCachePassesAndEveryStepAtDepthSixteenOrMoreIsWrong() {
        BackendProvider cpu = natives.forBackend(BackendId.CPU);
        Map<String, Status> verdicts = new LinkedHashMap<>();
        for (ModelCase mc : broken.subList(1, broken.size())) {
            RunResult r = judge(mc, BackendId.CPU, cpu, LaneId.NATIVE);
            verdicts.put(mc.inputSet(), r.status());
            if (r.status() == Status.WRONG_OUTPUT) {
                assertThat(r.reason()).startsWith("outside tolerance: max abs err"); // the case names its depth: its input set
            }
        }
        assertThat(verdicts).containsExactly(Map.entry("step past0", Status.PASSED), Map.entry("step past16", Status.WRONG_OUTPUT),
                Map.entry("step past64", Status.WRONG_OUTPUT), Map.entry("step past256", Status.WRONG_OUTPUT),
                Map.entry("step past16 q4", Status.WRONG_OUTPUT), Map.entry("step past16 b2 left-padded", Status.WRONG_OUTPUT));
    }

    @Test
    @RequiresBrowser
    void onWasmTheBrokenDecodersGenerationIsWrongAtTheSameTokenAndTheCorrectOnesIsVerified() {
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults());
             BrowserBackendProvider chromium = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM)
                     .driver(DriverKind.PLAYWRIGHT).build())) {
            LaneId lane = LaneId.of(BrowserKind.CHROMIUM);
            RunResult ok = judge(good.get(0), BackendId.WASM, chromium, lane);
            assertThat(ok.status()).as(ok.reason()).isEqualTo(Status.PASSED);
            assertThat(((dev.accelbridge.core.Decoding) ok.timings().orElseThrow().figures()).tokensVerified()).isTrue();
            assertThat(((dev.accelbridge.core.Decoding) ok.timings().orElseThrow().figures()).tokensPerSec()).isPositive();
            RunResult bad = judge(broken.get(0), BackendId.WASM, chromium, lane);
            assertThat(bad.status()).isEqualTo(Status.WRONG_OUTPUT);
            assertThat(bad.reason()).startsWith("teacher-forced logits left the tolerance at token 10 (past length 16)");
            // bisection runs on the blamed step with its own feeds, its past of 16 positions included: the same broken graph on
            // both sides agrees node by node, so no kernel is blamed
            ModelCase step = new GenerationJudge((dev.accelbridge.core.Generation) broken.get(0).scenario()).stepCase(broken.get(0), 16, natives.forBackend(BackendId.CPU), Duration.ofMinutes(1));
            assertThat(step.inputSet()).isEqualTo("step past16 of the generation");
            assertThat(step.inputs()).filteredOn(t -> t.name().equals("past_key_values.1.value")).singleElement()
                    .satisfies(t -> assertThat(t.shape()).containsExactly(1, 2, 16, 16));
            assertThat(step.inputs().get(2).toLongs()).as("position_ids").containsExactly(16);
            RunResult bisected = new Bisections(dir.resolve("repros"), Duration.ofMinutes(1), null, natives.forBackend(BackendId.CPU), false)
                    .apply(bad, broken.get(0), b -> chromium);
            dev.accelbridge.core.Bisection b = bisected.analysis().bisection();
            assertThat(b.outcome()).as(b.note()).isEqualTo(dev.accelbridge.core.Bisection.Outcome.NOT_LOCALIZED);
            assertThat(b.compared()).isPositive();
        }
    }
}
