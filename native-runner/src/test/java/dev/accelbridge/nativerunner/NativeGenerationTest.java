package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.GenerationCheck;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The text-generation suite's decoder, generated natively through DJL's ONNX Runtime: the decode loop and the model's cache. */
class NativeGenerationTest {
    @TempDir
    static Path dir;
    static List<ModelCase> cases;
    static ModelCase generation;
    static Execution ran;
    static final DjlOnnxRuntimeProvider provider = new DjlOnnxRuntimeProvider();

    @BeforeAll
    static void generate() {
        cases = SuiteCatalog.create(new SuiteOptions(dir, ModelSize.SMALL, SuiteOptions.DEFAULT_SEED)).cases(ModelFamily.TEXT_GENERATION)
                .stream().filter(c -> c.model().name().equals("llama-tiny")).toList(); // the optimized forms: OptimizedDecoderNativeTest
        generation = cases.get(0);
        ran = provider.execute(new ExecutionRequest(BackendId.CPU, generation, 2, 6, Duration.ofMinutes(2)));
    }

    @Test
    void theSuitesFirstCaseGeneratesAndTheRestAreSingleStepsAtCacheDepths() {
        assertThat(generation.scenarioId()).isEqualTo(ScenarioId.generate(8, 16));
        assertThat(cases.subList(1, cases.size())).extracting(ModelCase::inputSet).containsExactly("step past0", "step past16",
                "step past64", "step past256", "step past16 q4", "step past16 b2 left-padded");
        assertThat(cases.subList(1, cases.size())).allSatisfy(c -> assertThat(c.scenario()).isEqualTo(dev.accelbridge.core.Scenario.SINGLE_PASS));
    }

    @Test
    void everyGenerationGivesTheSameTokensAndItsFiguresAreMLPerfClients() {
        NamedTensor tokens = ran.outputs().get(0);
        assertThat(tokens.name()).isEqualTo(Generation.TOKENS);
        assertThat(tokens.shape()).containsExactly(1 + 2 + 6, 16); // cold, warm-ups, timed
        GenerationCheck.Verdict self = GenerationCheck.repeatCheck(ran.outputs(), dt -> dev.accelbridge.core.Tolerance.defaults(BackendId.CPU, dt, dev.accelbridge.core.Precision.FP32), 8);
        assertThat(self.verified()).isEqualTo(9);
        Decoding d = ((dev.accelbridge.core.Decoding) ran.timings().figures());
        assertThat(d.ttftMs()).hasSize(6);
        assertThat(Arrays.stream(d.ttftMs()).min().orElseThrow()).isPositive();
        assertThat(d.itlMs()).hasSize(6 * 15);
        assertThat(Arrays.stream(d.itlMs()).min().orElseThrow()).isPositive();
        double meanItl = Arrays.stream(d.itlMs()).average().orElseThrow();
        assertThat(d.tokensPerSec()).isCloseTo(1000 / meanItl, within(1e-9));
        // a generation's whole time is its TTFT and its inter-token latencies
        assertThat(ran.timings().samplesMs()[0]).isCloseTo(d.ttftMs()[0] + Arrays.stream(d.itlMs(), 0, 15).sum(), within(1e-6));
        // the cache after the last token holds prompt + 15 fed tokens: 2 layers x (key, value) x 2 heads x 16 x 23 x 4 bytes
        assertThat(d.kvCacheBytes()).hasValue(2L * 2 * 2 * 16 * 23 * 4);
        assertThat(d.coldTotalMs()).isPositive();
    }

    @Test
    void generationsGoOnForTheirDurationsAndTheWarmUpSaysWhetherItSettled() {
        // found: the counts alone were honoured, so a generation never settled though every case is said to, and its figure
        // was ten generations of a few milliseconds
        Execution e = provider.execute(new ExecutionRequest(BackendId.CPU, generation, 1, 2, Duration.ofMinutes(2))
                .withDurations(new dev.accelbridge.core.MinDurations(Duration.ofMillis(300), Duration.ofMillis(200))));
        var q = e.timings().quality();
        assertThat(e.timings().warmups()).as("whole generations past the one asked, for 300 ms").isGreaterThan(1);
        assertThat(q.warmupMs()).isGreaterThanOrEqualTo(300);
        assertThat(q.settled()).as("judged: settled or not, never unknown").isNotNull();
        int timed = e.timings().samplesMs().length;
        assertThat(timed).as("timed generations past the two asked, for 200 ms").isGreaterThan(2);
        assertThat(Arrays.stream(e.timings().samplesMs()).sum()).isGreaterThanOrEqualTo(200);
        assertThat(((dev.accelbridge.core.Decoding) e.timings().figures()).ttftMs()).hasSize(timed);
        assertThat(e.outputs().get(0).shape()[0]).as("the cold one, every warm-up and the timed ones checked")
                .isEqualTo(1 + e.timings().warmups() + timed);
        // exact counts stay exact
        assertThat(ran.timings().warmups()).isEqualTo(2);
        assertThat(ran.timings().quality().settled()).isNull();
    }

    @Test
    void theAuthoredWeightsGiveAClearTopOneMarginAtEveryStep() {
        float[] logits = ran.outputs().get(1).toFloats();
        int vocab = (int) ran.outputs().get(1).shape()[1];
        double least = Double.POSITIVE_INFINITY;
        for (int s = 0; s < 16; s++) {
            float[] row = Arrays.copyOfRange(logits, s * vocab, (s + 1) * vocab);
            float[] sorted = row.clone();
            Arrays.sort(sorted);
            least = Math.min(least, sorted[vocab - 1] - sorted[vocab - 2]);
        }
        // float noise between runtimes is ~1e-5 on these logits: a margin a thousand times that keeps greedy tokens stable
        assertThat(least).isGreaterThan(0.01);
    }

    @Test
    void theCachedStepsGiveTheLogitsOfRecomputingTheWholeSequence() {
        // the model's KV cache is right: the logits of step s equal those of the prompt and s-1 fed tokens run at once
        long[] tokens = Arrays.copyOf(ran.outputs().get(0).toLongs(), 16);
        long[] prompt = generation.inputs().get(0).toLongs();
        float[] cached = ran.outputs().get(1).toFloats();
        int vocab = (int) ran.outputs().get(1).shape()[1];
        for (int s : new int[] {1, 9, 15}) {
            long[] seq = new long[prompt.length + s];
            System.arraycopy(prompt, 0, seq, 0, prompt.length);
            System.arraycopy(tokens, 0, seq, prompt.length, s);
            ModelCase whole = ModelCase.generating(generation.model(), "whole", List.of(NamedTensor.ofLongs("input_ids",
                    new long[] {1, seq.length}, seq)), Generation.of(1, ((dev.accelbridge.core.Generation) generation.scenario()).layout()));
            Execution e = provider.execute(new ExecutionRequest(BackendId.CPU, whole, 0, 1, Duration.ofMinutes(1)));
            float[] once = e.outputs().get(1).toFloats();
            float[] step = Arrays.copyOfRange(cached, s * vocab, (s + 1) * vocab);
            List<Double> diffs = new ArrayList<>();
            for (int v = 0; v < vocab; v++) {
                diffs.add((double) Math.abs(once[v] - step[v]));
            }
            assertThat(diffs.stream().mapToDouble(Double::doubleValue).max().orElseThrow()).as("step %d", s).isLessThan(1e-3);
        }
    }

    @Test
    void aGridStepRunsAsOneForwardPassWithItsCache() {
        ModelCase deep = cases.stream().filter(c -> c.inputSet().equals("step past256")).findFirst().orElseThrow();
        Execution e = provider.execute(new ExecutionRequest(BackendId.CPU, deep, 0, 1, Duration.ofMinutes(1)));
        assertThat(e.outputs()).extracting(NamedTensor::name).contains("logits", "present.0.key", "present.1.value");
        NamedTensor present = e.outputs().stream().filter(t -> t.name().equals("present.1.value")).findFirst().orElseThrow();
        assertThat(present.shape()).containsExactly(1, 2, 257, 16);
        assertThat(e.timings().figures()).isEqualTo(dev.accelbridge.core.ScenarioFigures.SINGLE_PASS);
    }
}
