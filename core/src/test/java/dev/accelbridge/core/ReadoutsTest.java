package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ReadoutsTest {
    private static ModelCase embedder(List<NamedTensor> inputs) {
        ModelSpec spec = new ModelSpec(ModelFamily.TEXT, "m", Path.of("m.onnx"), "ab", 17, 1, List.of(),
                List.of(new TensorSpec("input_ids", DType.INT64, new long[] {-1, -1}), new TensorSpec("attention_mask", DType.INT64, new long[] {-1, -1})),
                List.of(new TensorSpec("last_hidden_state", DType.FLOAT32, new long[] {-1, -1, 2})), "t", Double.NaN);
        return new ModelCase(spec, "sentences", inputs, Optional.empty());
    }

    private static NamedTensor hidden(float... v) {
        return NamedTensor.ofFloats("last_hidden_state", new long[] {2, 3, 2}, v);
    }

    @Test
    void pooledEmbeddingsAreMeanPooledOverTheMaskAndNormalised() {
        // sentence 0 has 2 real tokens and one pad; sentence 1 has 3
        NamedTensor mask = NamedTensor.ofLongs("attention_mask", new long[] {2, 3}, new long[] {1, 1, 0, 1, 1, 1});
        ModelCase mc = embedder(List.of(NamedTensor.ofLongs("input_ids", new long[] {2, 3}, new long[] {5, 6, 0, 7, 8, 9}), mask));
        assertThat(Readouts.kindOf(mc)).contains(Readout.Kind.POOLED_EMBEDDING);
        double[][] pooled = Readouts.meanPool(new double[] {3, 0, 1, 0, 99, 99, 0, 1, 0, 2, 0, 3}, mask.toDoubles(), new long[] {2, 3, 2});
        assertThat(pooled[0]).containsExactly(new double[] {1, 0}, within(1e-12)); // the pad's 99s count for nothing
        assertThat(pooled[1]).containsExactly(new double[] {0, 1}, within(1e-12));

        NamedTensor ref = hidden(3, 0, 1, 0, 99, 99, 0, 1, 0, 2, 0, 3);
        // a backend that differs only at the padded position reads the same embeddings
        Readout same = Readouts.judge(mc, List.of(ref), List.of(hidden(3, 0, 1, 0, -5, 7, 0, 1, 0, 2, 0, 3))).orElseThrow();
        assertThat(same.minCosine()).isCloseTo(1.0, within(1e-12));
        assertThat(same.allAgree()).isTrue();
        assertThat(same.items()).isEqualTo(2);
        // one that turns sentence 1 sideways does not
        Readout off = Readouts.judge(mc, List.of(ref), List.of(hidden(3, 0, 1, 0, 99, 99, 1, 1, 1, 2, 1, 3))).orElseThrow();
        assertThat(off.agree()).isEqualTo(1);
        assertThat(off.minCosine()).isCloseTo(2 / Math.sqrt(5), within(1e-9));
        assertThat(off.note()).isEqualTo("sentence 1 is the furthest");
        assertThat(off.describe()).startsWith("pooled embeddings of 2 sentences: min cosine 0.894427");
    }

    @Test
    void aModelWithoutAMaskOrHiddenStatesHasNoReading() {
        ModelCase mc = embedder(List.of(NamedTensor.ofLongs("input_ids", new long[] {1, 1}, new long[] {1})));
        assertThat(Readouts.kindOf(mc)).isEmpty();
    }

    @Test
    void aSimilarityMatrixIsReadAsTheRankingOfTextsPerImage() {
        ModelSpec spec = new ModelSpec(ModelFamily.MULTIMODAL, "clip", Path.of("m.onnx"), "ab", 17, 1, List.of(), List.of(),
                List.of(new TensorSpec("logits_per_image", DType.FLOAT32, new long[] {-1, -1})), "t", Double.NaN);
        ModelCase mc = new ModelCase(spec, "pairs", List.of(), Optional.empty());
        assertThat(Readouts.kindOf(mc)).contains(Readout.Kind.SIMILARITY);
        NamedTensor ref = NamedTensor.ofFloats("logits_per_image", new long[] {2, 3}, new float[] {9, 1, 5, 2, 8, 7.999f});
        Readout same = Readouts.judge(mc, List.of(ref), List.of(NamedTensor.ofFloats("logits_per_image", new long[] {2, 3},
                new float[] {9.001f, 1, 5, 2, 8, 7.998f}))).orElseThrow();
        assertThat(same.agree()).isEqualTo(2);
        assertThat(same.note()).isNull();
        Readout swapped = Readouts.judge(mc, List.of(ref), List.of(NamedTensor.ofFloats("logits_per_image", new long[] {2, 3},
                new float[] {9, 1, 5, 2, 7.999f, 8}))).orElseThrow();
        assertThat(swapped.agree()).isEqualTo(1);
        assertThat(swapped.maxAbsErr()).isCloseTo(0.001, within(1e-5));
        assertThat(swapped.note()).startsWith("image 1 ranks the texts [2, 1, 0], the reference [1, 2, 0]")
                .contains("texts 1 and 2 are 0.000999");
        assertThat(Readouts.ranking(new double[] {1, 3, 3, 0})).containsExactly(1, 2, 0, 3);
    }
}
