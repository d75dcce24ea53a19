package dev.accelbridge.suites;

import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.suites.precision.Variants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A transformers.js model folder is one model with dtype variants, each named as transformers.js names it. */
class DtypeFolderTest {
    @TempDir
    Path tmp;

    /**
     * Found when tried: a folder with {@code onnx/model.onnx} and {@code onnx/model_quantized.onnx} ran the fp32 file alone
     * and skipped the quantized one without a word. Both are the folder's model now, at fp32 and q8, fed the same inputs.
     */
    @Test
    void aQuantizedFileBesideModelOnnxIsTheSameModelAtQ8() throws Exception {
        Path folder = Variants.exportFolder(WildModels.sentenceEncoder(tmp).resolve("model.onnx"), tmp.resolve("minilm-like"),
                "BertModel", List.of(Precision.Q8));
        List<ModelCase> cases = ModelFolderLoader.load(folder, Optional.empty());
        assertThat(cases).extracting(ModelCase::precision).containsExactly(Precision.FP32, Precision.Q8);
        assertThat(cases).extracting(mc -> mc.model().name()).containsOnly("minilm-like");
        assertThat(cases.get(1).model().path().getFileName().toString()).isEqualTo("model_quantized.onnx");
        assertThat(cases.get(1).inputs()).usingRecursiveFieldByFieldElementComparator().isEqualTo(cases.get(0).inputs());
        assertThat(cases).extracting(mc -> mc.model().family()).containsOnly(ModelFamily.TEXT); // config.json's BertModel

        List<ModelLoad> loads = ModelDirectory.loadAll(folder, Optional.empty(), FeedOptions.none());
        assertThat(loads).extracting(ModelLoad::precision).containsExactly(Precision.FP32, Precision.Q8);
        assertThat(loads).noneMatch(ModelLoad::broken);
    }

    @Test
    void everyKindTheSuitesExportIsAVariantAndAFileNamingNoDtypeIsSaidNotRun() throws Exception {
        Path folder = Variants.exportFolder(WildModels.sentenceEncoder(tmp).resolve("model.onnx"), tmp.resolve("all"),
                "BertModel", List.of(Precision.FP16, Precision.Q8, Precision.Q4));
        Files.copy(folder.resolve("onnx/model.onnx"), folder.resolve("onnx/model_O4.onnx"));
        List<ModelLoad> loads = ModelDirectory.loadAll(folder, Optional.empty(), FeedOptions.none());
        assertThat(loads).extracting(ModelLoad::precision).containsExactly(Precision.FP32, Precision.FP16, Precision.Q8, Precision.Q4);
        assertThat(loads.get(0).notes()).singleElement().asString().contains("model_O4.onnx").contains("names no dtype");
        assertThat(loads).allSatisfy(l -> assertThat(l.notes()).noneMatch(n -> n.contains("is named")));
        // each file's graph is what its name says
        assertThat(loads).allSatisfy(l -> assertThat(OnnxModels.precision(dev.accelbridge.suites.onnx.OnnxTensors.readModel(l.path())))
                .isEqualTo(l.precision() == Precision.Q8 ? Precision.INT8 : l.precision()));
    }

    /** A broken variant is that variant's rows; the others load. */
    @Test
    void aFolderOfMoreVariantsThanReadIsSaidNotDroppedAndAGenerationLengthIsBoundedNotWrapped() throws Exception {
        // found when tried: more than 64 variants ran fp32 alone and nothing was said; max_new_tokens past 2^63 wrapped to 5
        Path folder = Variants.exportFolder(WildModels.sentenceEncoder(tmp).resolve("model.onnx"), tmp.resolve("many"),
                "BertModel", List.of(Precision.Q8));
        for (int i = 0; i < 65; i++) {
            Files.write(folder.resolve("onnx/model_v" + i + ".onnx"), new byte[] {0});
        }
        List<ModelLoad> loads = ModelDirectory.loadAll(folder, Optional.empty(), FeedOptions.none());
        assertThat(loads.get(0).notes()).anySatisfy(n -> assertThat(n).contains("its dtype variants were not read")
                .contains("more than 64 variants"));
        Files.writeString(folder.resolve("generation_config.json"), "{\"max_new_tokens\": 9223372036854775812}");
        assertThat(GenerateOptions.ofConfig(folder.resolve("onnx")).newTokens()).isEqualTo(dev.accelbridge.core.ScenarioId.MAX_TOKENS);
    }

    @Test
    void aBrokenVariantIsItsOwnProblem() throws Exception {
        Path folder = Variants.exportFolder(WildModels.sentenceEncoder(tmp).resolve("model.onnx"), tmp.resolve("broken"),
                "BertModel", List.of(Precision.Q8));
        Files.write(folder.resolve("onnx/model_q4.onnx"), new byte[] {0x08, 0x08, 0x12, 0x7f});
        List<ModelLoad> loads = ModelDirectory.loadAll(folder, Optional.empty(), FeedOptions.none());
        assertThat(loads).extracting(ModelLoad::precision).containsExactly(Precision.FP32, Precision.Q8, Precision.Q4);
        assertThat(loads.get(2).broken()).isTrue();
        assertThat(loads.get(2).problem()).startsWith("load: ").contains("model_q4.onnx");
        assertThat(loads.get(2).name()).isEqualTo("broken");
    }

    /** A file whose name says another dtype than its graph is run as named, and the run says so. */
    @Test
    void aFileNamedForADtypeItsGraphIsNotIsSaid() throws Exception {
        Path folder = Variants.exportFolder(WildModels.sentenceEncoder(tmp).resolve("model.onnx"), tmp.resolve("liar"), "BertModel",
                List.of(Precision.Q8));
        Files.copy(folder.resolve("onnx/model.onnx"), folder.resolve("onnx/model_q4.onnx"));
        List<ModelLoad> loads = ModelDirectory.loadAll(folder, Optional.empty(), FeedOptions.none());
        assertThat(loads).extracting(ModelLoad::precision).containsExactly(Precision.FP32, Precision.Q8, Precision.Q4);
        assertThat(loads.get(2).notes()).singleElement().asString()
                .isEqualTo("model_q4.onnx is named q4 but its graph has no quantized op: its rows say q4, as the file is named");
        assertThat(loads.get(1).notes()).isEmpty();
    }

    /** Weights in external data per variant: each variant names its own file, inside the folder. */
    @Test
    void variantsWithExternalDataEachKeepTheirOwn() throws Exception {
        Path ext = WildModels.externalWeights(tmp);
        Path folder = Files.createDirectories(tmp.resolve("ext").resolve("onnx"));
        Files.copy(ext.resolve("model.onnx"), folder.resolve("model.onnx"));
        Files.copy(ext.resolve("model.onnx_data"), folder.resolve("model.onnx_data"));
        var proto = dev.accelbridge.suites.onnx.OnnxTensors.readModel(ext.resolve("model.onnx")).toBuilder();
        for (var t : proto.getGraphBuilder().getInitializerBuilderList()) {
            for (var kv : t.getExternalDataBuilderList()) {
                if (kv.getKey().equals("location")) {
                    kv.setValue("model_fp16.onnx_data");
                }
            }
        }
        Files.write(folder.resolve("model_fp16.onnx"), proto.build().toByteArray());
        Files.copy(ext.resolve("model.onnx_data"), folder.resolve("model_fp16.onnx_data"));
        List<ModelCase> cases = ModelFolderLoader.load(folder.getParent(), Optional.empty());
        assertThat(cases).extracting(ModelCase::precision).containsExactly(Precision.FP32, Precision.FP16);
        assertThat(OnnxModels.externalData(cases.get(1).model().path())).containsExactly("model_fp16.onnx_data");

        Files.delete(folder.resolve("model_fp16.onnx_data"));
        List<ModelLoad> loads = ModelDirectory.loadAll(folder.getParent(), Optional.empty(), FeedOptions.none());
        assertThat(loads.get(0).broken()).isFalse();
        assertThat(loads.get(1).broken()).as("its data is missing").isTrue();
        assertThat(loads.get(1).problem()).contains("model_fp16.onnx_data");
    }

    /** An encoder-decoder's variants pair by dtype; a decoder variant without its encoder runs with the fp32 encoder, said. */
    @Test
    void aSpeechToTextFolderMixingEncoderAndDecoderVariantsIsOneGenerationModel() throws Exception {
        Path export = WildModels.whisperExport(tmp);
        Path onnx = export.resolve("onnx");
        Files.write(onnx.resolve("decoder_model_merged_quantized.onnx"), Files.readAllBytes(onnx.resolve("decoder_model_merged.onnx")));
        Files.write(onnx.resolve("encoder_model_quantized.onnx"), Files.readAllBytes(onnx.resolve("encoder_model.onnx")));
        Files.write(onnx.resolve("decoder_model_merged_fp16.onnx"), Files.readAllBytes(onnx.resolve("decoder_model_merged.onnx")));
        Files.write(onnx.resolve("encoder_model_q4.onnx"), Files.readAllBytes(onnx.resolve("encoder_model.onnx")));
        List<ModelLoad> loads = ModelDirectory.loadAll(export, Optional.empty(), FeedOptions.none());
        assertThat(loads).extracting(ModelLoad::precision).containsExactly(Precision.FP32, Precision.FP16, Precision.Q8);
        assertThat(loads).noneMatch(ModelLoad::broken);
        assertThat(loads).extracting(l -> l.cases().get(0).model().name()).containsOnly("whisper-export");
        assertThat(loads).allSatisfy(l -> assertThat(l.cases().get(0).scenario()).isInstanceOf(dev.accelbridge.core.Generation.class));
        var q8Encoder = ((dev.accelbridge.core.Generation) loads.get(2).cases().get(0).scenario()).encoder();
        assertThat(q8Encoder.model().path().getFileName().toString()).isEqualTo("encoder_model_quantized.onnx");
        var fp16Encoder = ((dev.accelbridge.core.Generation) loads.get(1).cases().get(0).scenario()).encoder();
        assertThat(fp16Encoder.model().path().getFileName().toString()).isEqualTo("encoder_model.onnx");
        assertThat(loads.get(0).notes()).anySatisfy(n -> assertThat(n).contains("decoder_model_merged_fp16.onnx runs with encoder_model.onnx"))
                .anySatisfy(n -> assertThat(n).contains("encoder_model_q4.onnx").contains("is not run"));
    }

    @Test
    void configJsonNamesTheFamily() {
        assertThat(DtypeFolder.familyOf("BertModel bert")).contains(ModelFamily.TEXT);
        assertThat(DtypeFolder.familyOf("WhisperForConditionalGeneration whisper")).contains(ModelFamily.AUDIO);
        assertThat(DtypeFolder.familyOf("CLIPModel clip")).contains(ModelFamily.MULTIMODAL);
        assertThat(DtypeFolder.familyOf("ViTForImageClassification vit")).contains(ModelFamily.VISION);
        assertThat(DtypeFolder.familyOf("LlamaForCausalLM llama")).contains(ModelFamily.TEXT_GENERATION);
        assertThat(DtypeFolder.familyOf("SomethingNew")).isEmpty();
    }
}
