package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.generation.LlamaDecoderModel;
import dev.accelbridge.suites.generation.OptimizedDecoderModel;
import dev.accelbridge.suites.onnx.GeneratedModel;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.text.BertModel;
import dev.accelbridge.suites.vision.VitModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real scale: published architectures at their published parameter counts. Each count is held twice: the configuration's
 * count against the model card's figure, and the same count against the learned weights of a graph the builder writes at a
 * small configuration of the same layout (so the count is the graph's, not a formula's); the real files themselves are
 * hundreds of MB and are built and run by the nightly tier and by {@code accelbridge run --size real}.
 */
class RealScaleTest {
    @TempDir
    Path dir;

    @Test
    void theRealConfigurationsHaveThePublishedParameterCounts() {
        assertThat(BertModel.Config.bertBase().parameters()).isEqualTo(109_482_240L); // bert-base-uncased
        assertThat(VitModel.Config.base16().parameters()).isEqualTo(86_567_656L); // google/vit-base-patch16-224
        assertThat(LlamaDecoderModel.Config.qwen25Half(2048).parameters()).isEqualTo(494_032_768L); // Qwen/Qwen2.5-0.5B
    }

    @Test
    void eachCountIsTheBuiltGraphsLearnedWeights() {
        BertModel.Config bert = new BertModel.Config(300, 32, 2, 4, 64, 40, 2);
        assertThat(learned(BertModel.build("b", bert, 1, 1, 8).model())).isEqualTo(bert.parameters());
        BertModel.Config oneType = new BertModel.Config(300, 32, 2, 4, 64, 40);
        assertThat(learned(BertModel.build("b1", oneType, 1, 1, 8).model())).isEqualTo(oneType.parameters());
        VitModel.Config vit = new VitModel.Config(32, 8, 32, 2, 4, 64, 10);
        assertThat(learned(VitModel.build("v", vit, 1).model())).isEqualTo(vit.parameters());
        LlamaDecoderModel.Config qwen = smallQwen();
        assertThat(learned(LlamaDecoderModel.build("q", qwen, 1).model())).isEqualTo(qwen.parameters());
        LlamaDecoderModel.Config llama = LlamaDecoderModel.Config.tiny(300);
        assertThat(learned(LlamaDecoderModel.build("l", llama, 1).model())).isEqualTo(llama.parameters());
    }

    @Test
    void theRealSuiteNamesItsPublishedArchitecturesWithoutClaimingTheirWeights() {
        assertThat(SuiteDefinitions.models(ModelFamily.TEXT, ModelSize.REAL)).extracting(SuiteModel::name).containsExactly("bert-base-110m");
        assertThat(SuiteDefinitions.models(ModelFamily.VISION, ModelSize.REAL)).extracting(SuiteModel::name).containsExactly("vit-b16-86m");
        assertThat(SuiteDefinitions.models(ModelFamily.TEXT_GENERATION, ModelSize.REAL)).extracting(SuiteModel::name)
                .containsExactly("decoder-0.5b-q4", "decoder-0.5b-q4f16");
        assertThat(SuiteDefinitions.models(ModelFamily.TEXT_GENERATION, ModelSize.REAL).get(0).summary())
                .contains("Qwen2.5-0.5B's layout", "494,032,768 parameters", "seeded weights");
        assertThat(SuiteCatalog.familyOf("vit-b16-86m")).contains(ModelFamily.VISION);
        assertThat(ModelSize.parse("Real")).isEqualTo(ModelSize.REAL);
    }

    @Test
    void theInt4FormOfTheQwenLayoutRunsWithItsBiasesAndTiedHead() throws Exception {
        LlamaDecoderModel.Config c = smallQwen();
        GeneratedModel m = OptimizedDecoderModel.build("q4", c, DType.FLOAT32, 3);
        assertThat(m.model().getGraph().getNodeList()).filteredOn(n -> n.getName().contains("q_proj/Add")).hasSize(c.layers());
        assertThat(m.model().getGraph().getInitializerList()).extracting(TensorProto::getName)
                .contains("lm_head.qweight").doesNotContain("lm_head.weight");
        Path file = dir.resolve("q4.onnx");
        Files.write(file, m.toBytes());
        Map<String, NamedTensor> out = Ort.run(file, prefill(c, 5, 17, 42));
        assertThat(out.get("logits").shape()).containsExactly(1, 3, c.vocab());
        assertThat(Ort.allFinite(out.get("logits"))).isTrue();
    }

    @Test
    void aTiedHeadsLogitsSpreadAsARealModelsDoAtTheRealWidth() throws Exception {
        // found when run: at hidden 896 a tied head drawn in ±1 spread the logits about ±17 (max ~78), whose float noise
        // (1.2e-4 between wasm and native) passed fp32's tolerance though every token agreed
        LlamaDecoderModel.Config c = new LlamaDecoderModel.Config(2000, 896, 1, 14, 2, 64, 64, 1.0, 0, 1_000_000.0,
                LlamaDecoderModel.Style.QWEN2);
        Path file = dir.resolve("wide.onnx");
        Files.write(file, LlamaDecoderModel.build("wide", c, 5).toBytes());
        float[] logits = Ort.run(file, prefill(c, 5, 17, 42, 7)).get("logits").toFloats();
        double mean = 0;
        for (float v : logits) {
            mean += v / logits.length;
        }
        double var = 0;
        for (float v : logits) {
            var += (v - mean) * (v - mean) / logits.length;
        }
        assertThat(Math.sqrt(var)).isBetween(2.0, 8.0);
    }

    @Test
    void anAuthoredModelsFlopsTravelWithItAndAFilesOwnClaimIsNotBelieved() throws Exception {
        ModelCase c = SuiteCatalog.create(new SuiteOptions(dir, ModelSize.SMALL, 1)).cases(ModelFamily.TEXT).get(0);
        assertThat(c.model().cost().flopsPerItem().orElseThrow()).isGreaterThan(1e6);
        assertThat(c.model().cost().weightBytes().orElseThrow()).isGreaterThan(100_000L);
        // the same bytes as a user's file (from a folder that happens to be called "generated"): it says its FLOPs in the same
        // metadata, which nothing outside the suites believes
        ModelSpec mine = OnnxModels.inspect(c.model().path(), ModelFamily.TEXT, "mine", "generated");
        assertThat(mine.cost().flopsPerItem()).isEmpty();
        assertThat(mine.cost().weightBytes()).isEqualTo(c.model().cost().weightBytes());
    }

    /** A prompt's prefill for a decoder of {@code c}: the ids at positions 0.., every token attended, an empty cache. */
    private static List<NamedTensor> prefill(LlamaDecoderModel.Config c, long... ids) {
        long[] shape = {1, ids.length};
        long[] ones = new long[ids.length];
        long[] positions = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            ones[i] = 1;
            positions[i] = i;
        }
        List<NamedTensor> feed = new ArrayList<>(List.of(NamedTensor.ofLongs("input_ids", shape, ids),
                NamedTensor.ofLongs("attention_mask", shape, ones), NamedTensor.ofLongs("position_ids", shape, positions)));
        for (int i = 0; i < c.layers(); i++) {
            for (String kv : List.of("key", "value")) {
                feed.add(NamedTensor.ofFloats("past_key_values." + i + "." + kv, new long[] {1, c.kvHeads(), 0, c.headDim()}, new float[0]));
            }
        }
        return feed;
    }

    /** Qwen2's layout at a size a test builds in a moment: biases on q, k, v and the head tied to the embedding. */
    private static LlamaDecoderModel.Config smallQwen() {
        return new LlamaDecoderModel.Config(300, 64, 2, 4, 2, 96, 64, 1.0, 0, 1_000_000.0, LlamaDecoderModel.Style.QWEN2);
    }

    /** Elements of the float weights: every float initializer of rank one or more but the rotary tables (computed, not learned). */
    private static long learned(ModelProto m) {
        long n = 0;
        for (TensorProto t : m.getGraph().getInitializerList()) {
            if (t.getDataType() != DType.FLOAT32.onnxCode() || t.getDimsCount() == 0 || t.getName().startsWith("rotary.")) {
                continue;
            }
            n += t.getDimsList().stream().mapToLong(Long::longValue).reduce(1, (a, b) -> a * b);
        }
        return n;
    }
}
