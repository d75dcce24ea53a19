package dev.accelbridge.suites;

import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SuiteCatalogTest {
    @TempDir
    Path a;
    @TempDir
    Path b;
    @TempDir
    Path c;

    @Test
    void sameSeedGivesByteIdenticalFilesAndOtherSeedDiffers() {
        SuiteCatalog one = SuiteCatalog.create(SuiteOptions.defaults(a));
        SuiteCatalog two = SuiteCatalog.create(SuiteOptions.defaults(b));
        SuiteCatalog other = SuiteCatalog.create(new SuiteOptions(c, ModelSize.SMALL, 7));
        for (ModelFamily f : SuiteCatalog.families()) {
            ModelSpec x = one.models(f).get(0);
            ModelSpec y = two.models(f).get(0);
            ModelSpec z = other.models(f).get(0);
            assertThat(x.path()).isNotEqualTo(y.path());
            assertThat(x.sha256()).as(f.id()).isEqualTo(y.sha256()).isEqualTo(OnnxModels.sha256(y.path()));
            assertThat(z.sha256()).as(f.id()).isNotEqualTo(x.sha256());
        }
    }

    @Test
    void everyModelRunsOnOrtCpuWithDocumentedShapes() throws Exception {
        SuiteCatalog cat = SuiteCatalog.create(SuiteOptions.defaults(a));
        Map<ModelFamily, Map<String, long[]>> expected = Map.of(
                ModelFamily.TEXT, Map.of("last_hidden_state", new long[] {4, 24, 64}, "pooler_output", new long[] {4, 64}),
                ModelFamily.VISION, Map.of("logits", new long[] {2, 10}),
                ModelFamily.AUDIO, Map.of("last_hidden_state", new long[] {2, 50, 64}));
        for (ModelFamily f : List.of(ModelFamily.TEXT, ModelFamily.VISION, ModelFamily.AUDIO)) {
            List<ModelCase> cases = cat.cases(f);
            // the audio suite's second case is speech-to-text, a generation (WhisperDecoderTest, FamiliesCliTest)
            assertThat(cases).hasSize(f == ModelFamily.AUDIO ? 2 : 1);
            ModelCase mc = cases.get(0);
            assertThat(mc.expected()).isEmpty();
            assertThat(mc.model().opset()).isEqualTo(17);
            assertThat(mc.model().family()).isEqualTo(f);
            Map<String, NamedTensor> out = Ort.run(mc.model().path(), mc.inputs());
            assertThat(out.keySet()).containsExactlyInAnyOrderElementsOf(expected.get(f).keySet());
            for (Map.Entry<String, long[]> e : expected.get(f).entrySet()) {
                NamedTensor t = out.get(e.getKey());
                assertThat(t.shape()).as(f + " " + e.getKey()).containsExactly(e.getValue());
                assertThat(Ort.allFinite(t)).as(f + " " + e.getKey() + " finite").isTrue();
                // outputs carry signal, not a constant
                double[] v = t.toDoubles();
                assertThat(java.util.Arrays.stream(v).max().getAsDouble() - java.util.Arrays.stream(v).min().getAsDouble())
                        .isGreaterThan(1e-3);
            }
            assertThat(mc.model().outputs()).extracting(s -> s.name()).containsExactlyInAnyOrderElementsOf(expected.get(f).keySet());
        }
    }

    @Test
    void theDecodersStepsRunOnOrtCpuWithTheCacheGrownByTheirTokens() throws Exception {
        List<ModelCase> cases = SuiteCatalog.create(SuiteOptions.defaults(a)).cases(ModelFamily.TEXT_GENERATION);
        assertThat(cases.get(0).scenario()).isInstanceOf(dev.accelbridge.core.Generation.class);
        assertThat(cases.get(0).inputs()).extracting(NamedTensor::name).containsExactly("input_ids");
        Map<String, long[]> logits = Map.of("step past0", new long[] {1, 1, 0}, "step past16", new long[] {1, 1, 16},
                "step past64", new long[] {1, 1, 64}, "step past256", new long[] {1, 1, 256}, "step past16 q4", new long[] {1, 4, 16},
                "step past16 b2 left-padded", new long[] {2, 1, 16});
        for (ModelCase mc : cases.subList(1, cases.size())) {
            if (mc.scenario() instanceof dev.accelbridge.core.Generation) {
                continue; // the optimized forms' generations (OptimizedDecoderNativeTest)
            }
            long[] e = logits.get(mc.inputSet());
            Map<String, NamedTensor> out = Ort.run(mc.model().path(), mc.inputs());
            long vocab = out.get("logits").shape()[2];
            assertThat(out.get("logits").shape()).as(mc.inputSet()).containsExactly(e[0], e[1], vocab);
            assertThat(out.get("present.1.value").shape()).as(mc.inputSet()).containsExactly(e[0], 2, e[2] + e[1], 16);
            assertThat(Ort.allFinite(out.get("logits"))).as(mc.inputSet()).isTrue();
            // the cache comes back with the past first, unchanged
            float[] past = mc.inputs().stream().filter(t -> t.name().equals("past_key_values.0.key")).findFirst().orElseThrow().toFloats();
            float[] present = out.get("present.0.key").toFloats();
            if (e[2] > 0 && e[0] == 1) {
                assertThat(java.util.Arrays.copyOf(present, (int) e[2] * 16)).containsExactly(java.util.Arrays.copyOf(past, (int) e[2] * 16));
            }
        }
    }

    /**
     * The two-tower model: two images against three captions; each tower alone gives the pair's embeddings (the same
     * weights), the matrix is the scaled cosine of the normalised embeddings, and it ranks the captions differently for the
     * test pattern and its mirror (a matrix of equal scores would rank nothing).
     */
    @Test
    void theTwoTowerModelsTowersGiveThePairsEmbeddingsAndItsMatrixIsTheirScaledCosine() throws Exception {
        List<ModelCase> cases = SuiteCatalog.create(SuiteOptions.defaults(a)).cases(ModelFamily.MULTIMODAL);
        assertThat(cases).extracting(mc -> mc.model().name()).containsExactly("clip-mini", "clip-mini-vision", "clip-mini-text");
        Map<String, NamedTensor> pair = Ort.run(cases.get(0).model().path(), cases.get(0).inputs());
        Map<String, NamedTensor> vision = Ort.run(cases.get(1).model().path(), cases.get(1).inputs());
        Map<String, NamedTensor> text = Ort.run(cases.get(2).model().path(), cases.get(2).inputs());
        assertThat(vision.keySet()).containsExactly("image_embeds");
        assertThat(text.keySet()).containsExactly("text_embeds");
        assertThat(cases.get(1).model().inputs()).extracting(t -> t.name()).containsExactly("pixel_values");
        assertThat(cases.get(2).model().inputs()).extracting(t -> t.name()).containsExactly("input_ids", "attention_mask");
        float[] img = pair.get("image_embeds").toFloats();
        float[] txt = pair.get("text_embeds").toFloats();
        assertThat(vision.get("image_embeds").toFloats()).containsExactly(img, within(1e-6f));
        assertThat(text.get("text_embeds").toFloats()).containsExactly(txt, within(1e-6f));
        assertThat(pair.get("logits_per_image").shape()).containsExactly(2, 3);
        float[] logits = pair.get("logits_per_image").toFloats();
        int e = 32;
        for (int i = 0; i < 2; i++) {
            for (int t = 0; t < 3; t++) {
                double dot = 0;
                for (int k = 0; k < e; k++) {
                    dot += img[i * e + k] * txt[t * e + k];
                }
                assertThat((double) logits[i * 3 + t]).isCloseTo(dot / 0.07, within(1e-4));
            }
        }
        double[] row0 = {logits[0], logits[1], logits[2]};
        double[] row1 = {logits[3], logits[4], logits[5]};
        assertThat(dev.accelbridge.core.Readouts.judge(cases.get(0), List.copyOf(pair.values()), List.copyOf(pair.values())))
                .hasValueSatisfying(r -> assertThat(r.agree()).isEqualTo(2));
        assertThat(java.util.Arrays.stream(row0).max().getAsDouble() - java.util.Arrays.stream(row0).min().getAsDouble()).isGreaterThan(0.1);
        assertThat(row0).isNotEqualTo(row1);
    }

    @Test
    void describeListsEveryModelWithOpsetParametersAndFlops() throws Exception {
        SuiteCatalog cat = SuiteCatalog.create(SuiteOptions.defaults(a));
        List<SuiteDescription> ds = cat.descriptions();
        assertThat(ds).extracting(SuiteDescription::name).containsExactly("bert-mini", "convnet-small", "whisper-enc-mini", "whisper-mini", "clip-mini",
                "clip-mini-vision", "clip-mini-text", "llama-tiny", "llama-tiny-gqa-int4", "llama-tiny-gqa-int4-fp16");
        for (SuiteDescription d : ds) {
            assertThat(d.opset()).isEqualTo(17);
            assertThat(d.parameters()).isPositive();
            // small models stay within a few tens of MFLOPs (software WebGPU budget); a decoder's are per token
            assertThat(d.mflops()).isBetween(d.name().startsWith("llama") || d.name().equals("whisper-mini") ? 0.1 : 1.0, 60.0);
            assertThat(d.ops()).isSorted().doesNotHaveDuplicates();
        }
        String json = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(ds);
        assertThat(json).contains("\"name\":\"whisper-enc-mini\"", "\"opset\":17", "\"shape\":[-1,80,100]");
        String table = cat.describe();
        assertThat(table).contains("bert-mini", "convnet-small", "whisper-enc-mini", "LayerNormalization", "Conv",
                "input_ids:int64[?,?]", "pixel_values:float32[?,3,64,64]", "input_features:float32[?,80,100]");
        // reused from the cache: a second catalog reads the same files
        long before = Files.getLastModifiedTime(ds.get(0).path() == null ? null : Path.of(ds.get(0).path())).toMillis();
        SuiteCatalog again = SuiteCatalog.create(SuiteOptions.defaults(a));
        assertThat(again.models(ModelFamily.TEXT).get(0).sha256()).isEqualTo(ds.get(0).sha256());
        assertThat(Files.getLastModifiedTime(Path.of(ds.get(0).path())).toMillis()).isEqualTo(before);
        System.out.println(table);
    }
}
