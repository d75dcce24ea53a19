package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Status;
import dev.accelbridge.suites.onnx.OnnxTensors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Feeding models shaped like the ones users bring (no downloads: authored by {@link WildModels}). */
class UserModelFeedTest {
    @TempDir
    Path dir;

    private static FeedOptions dims(Map<String, Long> d) {
        return new FeedOptions(d, Map.of(), Map.of(), null, null, null, Path.of("."));
    }

    /** Found when tried: every model with a dynamic dimension beyond the batch was refused before it ran. */
    @Test
    void aMissingDimensionIsAClearErrorNamingTheInputTheDimensionAndTheFlag() {
        Path det = WildModels.dynamicVision(dir);
        assertThatThrownBy(() -> ModelFolderLoader.load(det, Optional.empty()))
                .isInstanceOf(SuiteException.UnfeedableInputException.class)
                .hasMessageContaining("Graph input 'x' of ocr-det has dimension 2 ('height') unknown")
                .satisfies(e -> assertThat(((SuiteException) e).fix()).contains("--dim height=N", "--shape x=1x3xNxN"));
        ModelCase c = ModelFolderLoader.load(det, Optional.empty(), dims(Map.of("height", 8L, "width", 12L))).get(0);
        assertThat(c.inputs().get(0).shape()).containsExactly(1, 3, 8, 12);
        assertThat(c.freeDims()).containsEntry("height", 8L).containsEntry("width", 12L).containsEntry("p2o.DynamicDimension.0", 1L);
        FeedOptions shape = new FeedOptions(Map.of(), Map.of("x", new long[]{2, 3, 16, 16}), Map.of(), null, null, null, Path.of("."));
        assertThat(ModelFolderLoader.load(det, Optional.empty(), shape).get(0).inputs().get(0).shape()).containsExactly(2, 3, 16, 16);
        FeedOptions badRank = new FeedOptions(Map.of(), Map.of("x", new long[]{3, 16, 16}), Map.of(), null, null, null, Path.of("."));
        assertThatThrownBy(() -> ModelFolderLoader.load(det, Optional.empty(), badRank)).hasMessageContaining("has rank 3");
    }

    @Test
    void aStatefulAudioModelGetsZeroStateAScalarSampleRateAndAGivenWaveform() throws Exception {
        Path vad = WildModels.vadLike(dir);
        FeedOptions feed = new FeedOptions(Map.of("samples", 512L), Map.of(), Map.of("sr", "8000"), null, null, null, Path.of("."));
        ModelCase c = ModelFolderLoader.load(vad, Optional.empty(), feed).get(0);
        NamedTensor sr = c.inputs().stream().filter(t -> t.name().equals("sr")).findFirst().orElseThrow();
        assertThat(sr.shape()).isEmpty();
        assertThat(sr.toLongs()).containsExactly(8000);
        NamedTensor state = c.inputs().stream().filter(t -> t.name().equals("state")).findFirst().orElseThrow();
        assertThat(state.shape()).containsExactly(2, 1, 16);
        assertThat(state.toFloats()).containsOnly(0f);
        assertThat(c.inputSet()).startsWith("given-");
        // without --input, a sample rate scalar gets 16000
        ModelCase d = ModelFolderLoader.load(vad, Optional.empty(), dims(Map.of("samples", 512L))).get(0);
        assertThat(d.inputs().stream().filter(t -> t.name().equals("sr")).findFirst().orElseThrow().toLongs()).containsExactly(16000);
        assertThat(d.inputSet()).isEqualTo("generated-5eed");
        // a waveform from a .npy file
        float[] wave = new float[400];
        for (int i = 0; i < wave.length; i++) {
            wave[i] = (float) Math.sin(i / 10.0);
        }
        Path npy = WildModels.npy(dir.resolve("wave.npy"), new long[]{1, 400}, wave);
        ModelCase e = ModelFolderLoader.load(vad, Optional.empty(),
                new FeedOptions(Map.of(), Map.of(), Map.of("input", npy.toString()), null, null, null, Path.of("."))).get(0);
        assertThat(e.inputs().get(0).shape()).containsExactly(1, 400);
        assertThat(e.inputs().get(0).toFloats()[10]).isCloseTo((float) Math.sin(1.0), within(1e-6f));
        // and from an ONNX TensorProto .pb
        Path pb = dir.resolve("wave.pb");
        Files.write(pb, OnnxTensors.toProto(NamedTensor.ofFloats("input", new long[]{1, 400}, wave)).toByteArray());
        ModelCase f = ModelFolderLoader.load(vad, Optional.empty(),
                new FeedOptions(Map.of(), Map.of(), Map.of("input", pb.toString()), null, null, null, Path.of("."))).get(0);
        assertThat(f.inputs().get(0)).isEqualTo(e.inputs().get(0));
        // a file of the wrong type is refused naming the input
        Path ints = dir.resolve("ints.pb");
        Files.write(ints, OnnxTensors.toProto(NamedTensor.ofLongs("input", new long[]{1, 4}, new long[]{1, 2, 3, 4})).toByteArray());
        assertThatThrownBy(() -> ModelFolderLoader.load(vad, Optional.empty(),
                new FeedOptions(Map.of(), Map.of(), Map.of("input", ints.toString()), null, null, null, Path.of("."))))
                .hasMessageContaining("The input given for 'input'").hasMessageContaining("expects float32");
    }

    /**
     * Found when tried: a published sentence embedder ({@code [batch_size, sequence_length]} ids, mask and token types) was
     * refused on every backend until {@code --dim sequence_length=N} was given. A sequence dimension under a common name now
     * takes a stated default; one under another name is still the clear error.
     */
    @Test
    void aSequenceLengthUnderACommonNameTakesAStatedDefault() {
        Path enc = WildModels.sentenceEncoder(dir);
        ModelCase c = ModelFolderLoader.load(enc, Optional.empty()).get(0);
        assertThat(c.inputs()).extracting(NamedTensor::name).containsExactly("input_ids", "attention_mask", "token_type_ids");
        assertThat(c.inputs()).allSatisfy(t -> assertThat(t.shape()).containsExactly(1, InputFeeder.DEFAULT_SEQUENCE));
        assertThat(c.freeDims()).containsEntry("sequence_length", (long) InputFeeder.DEFAULT_SEQUENCE).containsEntry("batch_size", 1L);
        assertThat(c.inputSet()).isEqualTo("generated-5eed, sequence_length=" + InputFeeder.DEFAULT_SEQUENCE + " by default");
        // given, it is no default
        ModelCase given = ModelFolderLoader.load(enc, Optional.empty(), dims(Map.of("sequence_length", 16L))).get(0);
        assertThat(given.inputs().get(0).shape()).containsExactly(1, 16);
        assertThat(given.inputSet()).isEqualTo("generated-5eed");
        for (String name : List.of("seq_len", "sequence", "seq_length", "sequence_len", "num_tokens")) {
            assertThat(InputFeeder.isSequence(name)).as(name).isTrue();
        }
        assertThat(InputFeeder.isSequence("height")).isFalse();
        // a float input's unnamed-role dimension is not a token sequence: still refused with the flag to give
        assertThatThrownBy(() -> ModelFolderLoader.load(WildModels.dynamicVision(dir), Optional.empty()))
                .hasMessageContaining("('height') unknown");
    }

    /**
     * A Whisper export (Optimum's encoder_model.onnx and decoder_model_merged.onnx) is one speech-to-text generation, not two
     * models each refused: the encoder at its frames, the prompt from generation_config.json by position.
     */
    @Test
    void aSpeechToTextExportIsOneGenerationOfItsEncoderAndMergedDecoder() {
        Path export = WildModels.whisperExport(dir);
        List<ModelLoad> loads = ModelDirectory.loadAll(export, Optional.empty(), FeedOptions.none());
        assertThat(loads).hasSize(1);
        ModelCase c = loads.get(0).cases().get(0);
        assertThat(c.model().name()).isEqualTo("whisper-export");
        assertThat(c.model().family()).isEqualTo(ModelFamily.AUDIO);
        assertThat(((dev.accelbridge.core.Generation) c.scenario()).encoder().model().path().getFileName().toString()).isEqualTo("encoder_model.onnx");
        assertThat(((dev.accelbridge.core.Generation) c.scenario()).layout().useCacheBranch()).isEqualTo("use_cache_branch");
        assertThat(((dev.accelbridge.core.Generation) c.scenario()).newTokens()).isEqualTo(GenerateOptions.DEFAULT_NEW);
        assertThat(c.inputs()).extracting(NamedTensor::name).containsExactly("input_features", "input_ids");
        assertThat(c.inputs().get(0).shape()).containsExactly(1, 80, 100);
        assertThat(c.inputs().get(1).toLongs()).containsExactly(1, 2, 3, 4); // start, then forced ids by position
        // the merged decoder alone is told what it needs
        assertThatThrownBy(() -> ModelFolderLoader.load(export.resolve("onnx").resolve("decoder_model_merged.onnx"), Optional.empty()))
                .hasMessageContaining("is the decoder of an encoder-decoder");
        // --new-tokens applies; without its generation_config.json the export says what it lacks
        FeedOptions eight = FeedOptions.none().withGenerate(new GenerateOptions(false, null, 8));
        assertThat(((dev.accelbridge.core.Generation) ModelFolderLoader.load(export, Optional.empty(), eight).get(0).scenario()).newTokens()).isEqualTo(8);
        try {
            Files.delete(export.resolve("generation_config.json"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThatThrownBy(() -> ModelFolderLoader.load(export, Optional.empty()))
                .hasMessageContaining("has no generation_config.json");
    }

    @Test
    void idsStayInsideTheEmbeddingMasksAreTrueAndFloatsAreStandardNormal() {
        Path text = WildModels.textIds(dir);
        ModelCase c = ModelFolderLoader.load(text, Optional.empty(), dims(Map.of("sequence", 256L))).get(0);
        long[] ids = c.inputs().get(0).toLongs();
        assertThat(ids).hasSize(256);
        assertThat(java.util.Arrays.stream(ids).min().orElseThrow()).isGreaterThanOrEqualTo(0);
        assertThat(java.util.Arrays.stream(ids).max().orElseThrow()).isLessThan(50);
        assertThat(c.inputs().get(1).dtype()).isEqualTo(DType.BOOL);
        assertThat(c.inputs().get(1).toDoubles()).containsOnly(1.0);
        Path det = WildModels.dynamicVision(dir);
        ModelCase v = ModelFolderLoader.load(det, Optional.empty(),
                new FeedOptions(Map.of(), Map.of("x", new long[]{4, 3, 32, 32}), Map.of(), null, null, null, Path.of("."))).get(0);
        double[] x = v.inputs().get(0).toDoubles();
        double mean = java.util.Arrays.stream(x).average().orElseThrow();
        double sd = Math.sqrt(java.util.Arrays.stream(x).map(a -> (a - mean) * (a - mean)).sum() / x.length);
        assertThat(mean).isCloseTo(0, within(0.1));
        assertThat(sd).isCloseTo(1, within(0.1));
        // the same seed gives the same bytes
        assertThat(ModelFolderLoader.load(det, Optional.empty(),
                new FeedOptions(Map.of(), Map.of("x", new long[]{4, 3, 32, 32}), Map.of(), null, null, null, Path.of("."))).get(0).inputs())
                .isEqualTo(v.inputs());
        // --input-range
        ModelCase r = ModelFolderLoader.load(det, Optional.empty(),
                new FeedOptions(Map.of(), Map.of("x", new long[]{1, 3, 8, 8}), Map.of(), 0.0, 1.0, null, Path.of("."))).get(0);
        double[] u = r.inputs().get(0).toDoubles();
        assertThat(java.util.Arrays.stream(u).min().orElseThrow()).isGreaterThanOrEqualTo(0.0);
        assertThat(java.util.Arrays.stream(u).max().orElseThrow()).isLessThan(1.0);
    }

    @Test
    void aFoldersOwnAccelbridgeJsonFeedsItAndTheCommandLineWins() throws Exception {
        Path det = WildModels.dynamicVision(dir);
        Files.writeString(det.resolve(FeedOptions.FILE), "{\"dims\": {\"height\": 10, \"width\": 10}, \"tolerance\": 0.002}");
        ModelCase c = ModelFolderLoader.load(det, Optional.empty()).get(0);
        assertThat(c.inputs().get(0).shape()).containsExactly(1, 3, 10, 10);
        assertThat(c.model().tolerance()).isEqualTo(0.002);
        ModelCase d = ModelFolderLoader.load(det, Optional.empty(), dims(Map.of("height", 4L))).get(0);
        assertThat(d.inputs().get(0).shape()).containsExactly(1, 3, 4, 10);
    }

    @Test
    void optimumVisionAndAudioExportsAreFedByTheirPreprocessorConfig() {
        ModelCase v = ModelFolderLoader.load(WildModels.optimumVision(dir), Optional.empty()).get(0);
        assertThat(v.inputSet()).isEqualTo("preprocessed-image");
        assertThat(v.inputs().get(0).shape()).containsExactly(1, 3, 32, 32);
        double[] px = v.inputs().get(0).toDoubles();
        assertThat(java.util.Arrays.stream(px).min().orElseThrow()).isGreaterThanOrEqualTo(-1.0);
        assertThat(java.util.Arrays.stream(px).max().orElseThrow()).isLessThanOrEqualTo(1.0);
        assertThat(v.freeDims()).containsEntry("height", 32L).containsEntry("width", 32L);

        ModelCase w = ModelFolderLoader.load(WildModels.optimumWhisper(dir), Optional.empty()).get(0);
        assertThat(w.inputSet()).isEqualTo("preprocessed-audio");
        assertThat(w.inputs().get(0).shape()).containsExactly(1, 80, 300);

        ModelCase a = ModelFolderLoader.load(WildModels.optimumWav2vec(dir), Optional.empty()).get(0);
        assertThat(a.inputs().get(0).shape()).containsExactly(1, 16000);
        assertThat(a.inputs().get(1).shape()).as("the mask has the waveform's length").containsExactly(1, 16000);
        assertThat(a.inputs().get(1).toLongs()).containsOnly(1L);
        double[] wave = a.inputs().get(0).toDoubles();
        double mean = java.util.Arrays.stream(wave).average().orElseThrow();
        assertThat(mean).isCloseTo(0, within(1e-3));
        ModelCase shorter = ModelFolderLoader.load(WildModels.optimumWav2vec(dir), Optional.empty(), dims(Map.of("sequence_length", 8000L))).get(0);
        assertThat(shorter.inputs().get(0).shape()).containsExactly(1, 8000);
    }

    @Test
    void aModelsPrecisionIsRecordedAsShipped() {
        assertThat(ModelFolderLoader.load(WildModels.fp16Weights(dir), Optional.empty()).get(0).precision())
                .isEqualTo(dev.accelbridge.core.Precision.FP16);
        assertThat(ModelFolderLoader.load(WildModels.int8Qdq(dir), Optional.empty()).get(0).precision())
                .isEqualTo(dev.accelbridge.core.Precision.INT8);
        assertThat(ModelFolderLoader.load(WildModels.unary(dir, "Relu"), Optional.empty()).get(0).precision())
                .isEqualTo(dev.accelbridge.core.Precision.FP32);
    }

    /**
     * Found when tried: the op suite written out as model folders with test data failed 342 of 358 at loading, "has 24
     * elements but the model's output is []": an output declared without a shape was taken for a scalar.
     */
    @Test
    void anOutputDeclaredWithoutAShapeTakesTestDataOfAnyShape() {
        ModelCase c = ModelFolderLoader.load(WildModels.shapelessOutput(dir), Optional.empty()).get(0);
        assertThat(c.expected()).hasValueSatisfying(o -> assertThat(o.get(0).shape()).containsExactly(2, 2));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ModelFolderLoader.load(WildModels.wrongReference(dir.resolve("declared")),
                Optional.empty())).as("a declared shape is still held to its data").hasMessageContaining("has 7 elements but the model's output is [2, 2]");
    }

    /** Found when tried: one model with a STRING input stopped a run of ninety before anything ran. */
    @Test
    void aFolderOfModelsLoadsEveryModelAndKeepsEachProblemWithItsModel() {
        Path zoo = dir.resolve("zoo");
        WildModels.unary(zoo, "Relu");
        WildModels.unary(zoo, "Sigmoid");
        WildModels.stringInput(zoo);
        WildModels.corrupt(zoo);
        WildModels.wrongReference(zoo);
        WildModels.dynamicVision(zoo); // needs --dim height/width: this run gives none
        List<ModelLoad> all = ModelDirectory.loadAll(zoo, Optional.empty(), FeedOptions.none());
        assertThat(all).extracting(ModelLoad::name).containsExactly("ocr-det", "op-relu", "op-sigmoid", "string-input", "truncated",
                "wrong-reference");
        assertThat(all.stream().filter(m -> !m.broken())).extracting(ModelLoad::name).containsExactly("op-relu", "op-sigmoid");
        ModelLoad string = all.get(3);
        assertThat(string.status()).isEqualTo(Status.UNSUPPORTED);
        assertThat(string.problem()).contains("element type STRING").contains("string-input");
        assertThat(all.get(4).status()).isEqualTo(Status.FAILED);
        assertThat(all.get(4).problem()).contains("truncated").contains("model.onnx");
        assertThat(all.get(5).problem()).contains("has 7 elements but the model's output is [2, 2]");
        assertThat(all.get(0).problem()).contains("--dim height=N");
        assertThat(all.get(1).family()).isEqualTo(ModelFamily.OTHER);
        assertThatThrownBy(() -> ModelDirectory.loadAll(dir.resolve("nope"), Optional.empty(), FeedOptions.none()))
                .isInstanceOf(SuiteException.ModelNotFoundException.class);
    }
}
