package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.GenerationCheck;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import dev.accelbridge.suites.onnx.proto.Onnx;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The text-generation suite's decoder in ONNX Runtime's optimized form (GroupQueryAttention fed from the mask inside the
 * graph, RotaryEmbedding, the skip norms, int4 MatMulNBits), fp32 and fp16, generated natively: its own generations
 * repeat, its greedy tokens have a margin, and its cache (a GroupQueryAttention present growing by one per step) gives
 * the logits of recomputing the whole sequence.
 */
class OptimizedDecoderNativeTest {
    @TempDir
    static Path dir;
    static final DjlOnnxRuntimeProvider provider = new DjlOnnxRuntimeProvider();

    @ParameterizedTest
    @CsvSource({"llama-tiny-gqa-int4, 1e-3, 0.01", "llama-tiny-gqa-int4-fp16, 0.05, 0.01"})
    void theOptimizedFormGeneratesRepeatablyAndItsCacheIsRight(String name, double cacheTolerance, double margin) throws Exception {
        List<ModelCase> cases = SuiteCatalog.create(new SuiteOptions(dir, ModelSize.SMALL, SuiteOptions.DEFAULT_SEED))
                .cases(ModelFamily.TEXT_GENERATION);
        ModelCase gen = cases.stream().filter(c -> c.model().name().equals(name)).findFirst().orElseThrow();
        assertThat(SuiteCatalog.onlyWhenNamed(gen)).isTrue();
        assertThat(gen.precision().id()).isEqualTo(name.endsWith("fp16") ? "fp16" : "fp32");
        Onnx.ModelProto proto = Onnx.ModelProto.parseFrom(Files.readAllBytes(gen.model().path()));
        Set<String> ops = new TreeSet<>();
        proto.getGraph().getNodeList().forEach(n -> ops.add(n.getDomain() + ":" + n.getOpType()));
        assertThat(ops).contains("com.microsoft:GroupQueryAttention", "com.microsoft:RotaryEmbedding", "com.microsoft:MatMulNBits",
                "com.microsoft:SkipSimplifiedLayerNormalization", ":SimplifiedLayerNormalization").doesNotContain(":Softmax", ":MatMul");

        Execution ran = provider.execute(new ExecutionRequest(BackendId.CPU, gen, 1, 3, Duration.ofMinutes(2)));
        assertThat(GenerationCheck.repeatCheck(ran.outputs(), dt -> dev.accelbridge.core.Tolerance.defaults(BackendId.CPU, dt, dev.accelbridge.core.Precision.FP32), 8).verified()).isEqualTo(5);
        float[] cached = ran.outputs().get(1).toFloats();
        int vocab = (int) ran.outputs().get(1).shape()[1];
        double least = Double.POSITIVE_INFINITY;
        for (int s = 0; s < 16; s++) {
            float[] sorted = Arrays.copyOfRange(cached, s * vocab, (s + 1) * vocab);
            Arrays.sort(sorted);
            least = Math.min(least, sorted[vocab - 1] - sorted[vocab - 2]);
        }
        // fp16 logits leave a smaller margin: a runtime's tokens may then part at a near-tie, which the verdict tells apart
        assertThat(least).as("the top-1 margin at every step").isGreaterThan(margin);

        long[] tokens = Arrays.copyOf(ran.outputs().get(0).toLongs(), 16);
        long[] prompt = gen.inputs().get(0).toLongs();
        for (int s : new int[] {1, 9, 15}) {
            long[] seq = new long[prompt.length + s];
            System.arraycopy(prompt, 0, seq, 0, prompt.length);
            System.arraycopy(tokens, 0, seq, prompt.length, s);
            ModelCase whole = ModelCase.generating(gen.model(), "whole", List.of(NamedTensor.ofLongs("input_ids",
                    new long[] {1, seq.length}, seq)), Generation.of(1, ((dev.accelbridge.core.Generation) gen.scenario()).layout()));
            float[] once = provider.execute(new ExecutionRequest(BackendId.CPU, whole, 0, 1, Duration.ofMinutes(1))).outputs().get(1).toFloats();
            double max = 0;
            for (int v = 0; v < vocab; v++) {
                max = Math.max(max, Math.abs(once[v] - cached[s * vocab + v]));
            }
            assertThat(max).as("step %d", s).isLessThan(cacheTolerance);
        }
    }
}
