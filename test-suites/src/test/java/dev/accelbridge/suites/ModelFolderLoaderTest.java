package dev.accelbridge.suites;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.text.WordPieceTokenizer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelFolderLoaderTest {
    @TempDir
    static Path cache;
    @TempDir
    Path dir;
    static SuiteCatalog catalog;

    @BeforeAll
    static void generate() {
        catalog = SuiteCatalog.create(SuiteOptions.defaults(cache));
    }

    @Test
    void onnxTestDataLayoutGivesOneCasePerDataSetWithExpectedOutputs() throws Exception {
        ModelCase suite = catalog.cases(ModelFamily.VISION).get(0);
        Files.copy(suite.model().path(), dir.resolve("model.onnx"));
        NamedTensor input = suite.inputs().get(0);
        NamedTensor logits = Ort.run(suite.model().path(), List.of(input)).get("logits");

        // set 0: named tensors in raw_data, as onnx.numpy_helper writes them
        Path ds0 = Files.createDirectories(dir.resolve("test_data_set_0"));
        Files.write(ds0.resolve("input_0.pb"), OnnxTensors.toProto(input).toByteArray());
        Files.write(ds0.resolve("output_0.pb"), OnnxTensors.toProto(logits).toByteArray());
        // set 1: nameless tensors in the typed float_data field, a different image (flipped values)
        float[] flipped = input.toFloats();
        for (int i = 0; i < flipped.length / 2; i++) {
            float t = flipped[i];
            flipped[i] = flipped[flipped.length - 1 - i];
            flipped[flipped.length - 1 - i] = t;
        }
        NamedTensor in1 = NamedTensor.ofFloats("pixel_values", input.shape(), flipped);
        NamedTensor out1 = Ort.run(suite.model().path(), List.of(in1)).get("logits");
        Path ds1 = Files.createDirectories(dir.resolve("test_data_set_1"));
        Files.write(ds1.resolve("input_0.pb"), typed(in1).toByteArray());
        Files.write(ds1.resolve("output_0.pb"), typed(out1).toByteArray());

        List<ModelCase> cases = ModelFolderLoader.load(dir, Optional.empty());
        assertThat(cases).extracting(ModelCase::inputSet).containsExactly("test_data_set_0", "test_data_set_1");
        assertThat(cases.get(0).model().family()).isEqualTo(ModelFamily.VISION); // inferred from NCHW float input
        assertThat(cases.get(0).model().source()).isEqualTo(dir.toAbsolutePath().toString());
        assertThat(cases.get(0).inputs()).containsExactly(input);
        assertThat(cases.get(0).expected()).contains(List.of(logits));
        assertThat(cases.get(1).inputs()).containsExactly(in1);
        assertThat(cases.get(1).expected().orElseThrow().get(0).name()).isEqualTo("logits"); // named from the graph
        assertThat(cases.get(1).expected().orElseThrow().get(0).toFloats()).containsExactly(out1.toFloats());
        assertThat(out1.toFloats()).isNotEqualTo(logits.toFloats());
    }

    private static TensorProto typed(NamedTensor t) {
        TensorProto.Builder b = TensorProto.newBuilder().setDataType(1);
        for (long d : t.shape()) {
            b.addDims(d);
        }
        for (float f : t.toFloats()) {
            b.addFloatData(f);
        }
        return b.build();
    }

    @Test
    void optimumExportIsTokenizedWithItsOwnTokenizerJson() throws Exception {
        ModelCase suite = catalog.cases(ModelFamily.TEXT).get(0);
        Path export = Files.createDirectories(dir.resolve("bert-mini-optimum"));
        Files.copy(suite.model().path(), export.resolve("model.onnx"));
        writeTokenizerJson(export.resolve("tokenizer.json"), WordPieceTokenizer.builtin());
        Files.writeString(export.resolve("config.json"), "{\"model_type\":\"bert\",\"max_position_embeddings\":64}");

        List<ModelCase> cases = ModelFolderLoader.load(export, Optional.empty());
        assertThat(cases).hasSize(1);
        ModelCase c = cases.get(0);
        assertThat(c.model().family()).isEqualTo(ModelFamily.TEXT);
        assertThat(c.model().name()).isEqualTo("bert-mini-optimum");
        assertThat(c.expected()).isEmpty();
        NamedTensor ids = c.inputs().get(0);
        NamedTensor mask = c.inputs().get(1);
        assertThat(ids.name()).isEqualTo("input_ids");
        assertThat(mask.name()).isEqualTo("attention_mask");
        // Hugging Face's tokenizer (padding to the longest) and ours agree token for token.
        int len = (int) ids.shape()[1];
        WordPieceTokenizer.Batch ours = WordPieceTokenizer.builtin().encode(SuiteDefinitions.SENTENCES, len);
        assertThat(ids.toLongs()).containsExactly(ours.inputIds());
        assertThat(mask.toLongs()).containsExactly(ours.attentionMask());
        assertThat(Arrays.stream(mask.toLongs()).filter(v -> v == 0).count()).as("some padding").isPositive();
        Map<String, NamedTensor> out = Ort.run(c.model().path(), c.inputs());
        assertThat(out.get("pooler_output").shape()).containsExactly(SuiteDefinitions.SENTENCES.size(), 64);
    }

    /** The Hugging Face tokenizers JSON of a BERT-uncased WordPiece tokenizer over {@code tok}'s vocabulary. */
    static void writeTokenizerJson(Path file, WordPieceTokenizer tok) throws Exception {
        ObjectMapper om = new ObjectMapper();
        ObjectNode root = om.createObjectNode();
        root.put("version", "1.0");
        root.putNull("truncation");
        root.putNull("padding");
        ArrayNode added = root.putArray("added_tokens");
        for (String s : List.of("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")) {
            added.addObject().put("id", tok.vocab().get(s)).put("content", s).put("single_word", false).put("lstrip", false)
                    .put("rstrip", false).put("normalized", false).put("special", true);
        }
        root.putObject("normalizer").put("type", "BertNormalizer").put("clean_text", true).put("handle_chinese_chars", true)
                .putNull("strip_accents").put("lowercase", true);
        root.putObject("pre_tokenizer").put("type", "BertPreTokenizer");
        ObjectNode post = root.putObject("post_processor").put("type", "BertProcessing");
        post.putArray("sep").add("[SEP]").add(tok.vocab().get("[SEP]"));
        post.putArray("cls").add("[CLS]").add(tok.vocab().get("[CLS]"));
        root.putObject("decoder").put("type", "WordPiece").put("prefix", "##").put("cleanup", true);
        ObjectNode model = root.putObject("model").put("type", "WordPiece").put("unk_token", "[UNK]")
                .put("continuing_subword_prefix", "##").put("max_input_chars_per_word", 100);
        ObjectNode vocab = model.putObject("vocab");
        tok.vocab().forEach(vocab::put);
        om.writeValue(file.toFile(), root);
    }

    @Test
    void aSingleStaticOnnxFileGetsGeneratedInputsAndAnInferredFamily() throws Exception {
        ModelCase audio = ModelFolderLoader.load(catalog.models(ModelFamily.AUDIO).get(0).path(), Optional.empty()).get(0);
        assertThat(audio.model().family()).isEqualTo(ModelFamily.AUDIO);
        assertThat(audio.inputSet()).isEqualTo("chirp-tones");
        assertThat(audio.inputs().get(0)).as("the suite's first item, at the batch of 1 a symbolic batch gets")
                .isEqualTo(catalog.cases(ModelFamily.AUDIO).get(0).inputs().get(0).item(0));

        ModelCase vision = ModelFolderLoader.load(catalog.models(ModelFamily.VISION).get(0).path(), Optional.of(ModelFamily.OTHER)).get(0);
        assertThat(vision.model().family()).isEqualTo(ModelFamily.OTHER); // given beats inferred
        assertThat(Ort.run(vision.model().path(), vision.inputs()).get("logits").shape()).containsExactly(1, 10);
    }

    @Test
    void missingFolderIsNamed() {
        Path missing = dir.resolve("nope");
        assertThatThrownBy(() -> ModelFolderLoader.load(missing, Optional.empty()))
                .isInstanceOf(SuiteException.ModelNotFoundException.class)
                .hasMessageContaining(missing.toString()).hasMessageContaining("does not exist");
    }

    @Test
    void folderWithoutModelIsNamed() throws Exception {
        Files.writeString(dir.resolve("README.md"), "no model here");
        assertThatThrownBy(() -> ModelFolderLoader.load(dir, Optional.empty()))
                .isInstanceOf(SuiteException.ModelNotFoundException.class)
                .hasMessageContaining("No model.onnx in " + dir);
    }

    @Test
    void truncatedModelIsReportedAsInvalidOnnx() throws Exception {
        byte[] full = Files.readAllBytes(catalog.models(ModelFamily.TEXT).get(0).path());
        Files.write(dir.resolve("model.onnx"), Arrays.copyOf(full, full.length / 2));
        assertThatThrownBy(() -> ModelFolderLoader.load(dir, Optional.empty()))
                .isInstanceOf(SuiteException.InvalidModelException.class)
                .hasMessageContaining(dir.resolve("model.onnx") + " is not a valid ONNX model")
                .satisfies(e -> assertThat(((SuiteException) e).fix()).contains("re-export it or check the download"));
        Files.writeString(dir.resolve("model.onnx"), "<html>404 Not Found</html>");
        assertThatThrownBy(() -> ModelFolderLoader.load(dir, Optional.empty()))
                .isInstanceOf(SuiteException.InvalidModelException.class);
    }

    @Test
    void dynamicShapedInputWithoutDataNamesTheInput() throws Exception {
        // the suite's text model with its sequence dimension under a name that is not a common one (those take a default)
        var proto = dev.accelbridge.suites.onnx.OnnxTensors.readModel(catalog.models(ModelFamily.TEXT).get(0).path()).toBuilder();
        for (var in : proto.getGraphBuilder().getInputBuilderList()) {
            in.getTypeBuilder().getTensorTypeBuilder().getShapeBuilder().getDimBuilder(1).setDimParam("words");
        }
        Files.write(dir.resolve("model.onnx"), proto.build().toByteArray());
        assertThatThrownBy(() -> ModelFolderLoader.load(dir, Optional.empty()))
                .isInstanceOf(SuiteException.UnfeedableInputException.class)
                .hasMessageContaining("'input_ids'").hasMessageContaining("dimension 1").hasMessageContaining("unknown");
    }

    @Test
    void inputOfAnUnknownElementTypeIsNamed() throws Exception {
        var proto = dev.accelbridge.suites.onnx.OnnxTensors.readModel(catalog.models(ModelFamily.VISION).get(0).path()).toBuilder();
        proto.getGraphBuilder().getInputBuilder(0).getTypeBuilder().getTensorTypeBuilder().setElemType(8); // STRING
        Files.write(dir.resolve("model.onnx"), proto.build().toByteArray());
        assertThatThrownBy(() -> ModelFolderLoader.load(dir.resolve("model.onnx"), Optional.empty()))
                .isInstanceOf(SuiteException.UnsupportedTypeException.class)
                .hasMessageContaining("'pixel_values'").hasMessageContaining("STRING");
    }

    @Test
    void aModelOnnxFileIsNamedAfterItsFolder() {
        Path file = catalog.models(ModelFamily.AUDIO).get(0).path();
        assertThat(ModelFolderLoader.load(file, Optional.empty()).get(0).model().name()).isEqualTo(file.getFileName().toString().replace(".onnx", ""));
    }

    @Test
    void inspectReadsUserModels() {
        var spec = OnnxModels.inspect(catalog.models(ModelFamily.VISION).get(0).path(), null, "mine", "user");
        assertThat(spec.family()).isEqualTo(ModelFamily.VISION);
        assertThat(spec.opset()).isEqualTo(17);
        assertThat(spec.parameters()).isEqualTo(catalog.models(ModelFamily.VISION).get(0).parameters());
        assertThat(spec.ops()).containsExactly("BatchNormalization", "Conv", "Flatten", "Gemm", "GlobalAveragePool", "MaxPool", "Relu");
        assertThat(spec.inputs()).hasSize(1);
        assertThat(spec.tolerance()).as("none given: the per-backend defaults apply").isNaN();
    }
}
