package dev.accelbridge.suites;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.audio.LogMel;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A speech-to-text export as Hugging Face Optimum writes Whisper's ({@code encoder_model.onnx} beside
 * {@code decoder_model_merged.onnx}, in the folder or its {@code onnx/}, as transformers.js ships them): one generation case,
 * the decoder fed the encoder's states. The audio is the suite's generated clip as Whisper's 80-bin log-mel at the encoder's
 * frame count; the decoder's prompt is {@code generation_config.json}'s {@code decoder_start_token_id} and its
 * {@code forced_decoder_ids} in position order (the language, the task, no timestamps), as Whisper's generate() starts.
 */
final class SpeechToTextFolder {
    /** Optimum's encoder file. */
    static final String ENCODER = "encoder_model.onnx";
    /** Optimum's merged decoder file. */
    static final String DECODER = "decoder_model_merged.onnx";
    /** The encoder's stem, its dtype variants {@code encoder_model_SUFFIX.onnx} ({@link DtypeFolder}). */
    static final String ENCODER_STEM = "encoder_model";
    /** The merged decoder's stem. */
    static final String DECODER_STEM = "decoder_model_merged";

    private SpeechToTextFolder() {
    }

    /** The folder holding both files ({@code dir} or {@code dir/onnx}), if {@code dir} is such an export. */
    static Optional<Path> in(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        return java.util.stream.Stream.of(dir, dir.resolve("onnx"))
                .filter(d -> Files.isRegularFile(d.resolve(ENCODER)) && Files.isRegularFile(d.resolve(DECODER))).findFirst();
    }

    /**
     * The export's generation case.
     *
     * @throws SuiteException naming what the export lacks (a prompt, an encoder input of Whisper's form)
     */
    static ModelCase load(Path root, Path encoderFile, Path decoderFile, String name, FeedOptions feed) {
        Path files = decoderFile.toAbsolutePath().getParent();
        ModelProto decProto = OnnxTensors.readModel(decoderFile);
        ModelProto encProto = OnnxTensors.readModel(encoderFile);
        ModelSpec decoder = OnnxModels.inspect(decoderFile, decProto, ModelFamily.AUDIO, name, root.toAbsolutePath().toString());
        ModelSpec encoder = OnnxModels.inspect(encoderFile, encProto, ModelFamily.AUDIO, name + "-encoder",
                root.toAbsolutePath().toString());
        if (feed.tolerance() != null) {
            decoder = decoder.withTolerance(feed.tolerance());
        }
        TensorSpec in = encoder.inputs().stream().filter(t -> t.name().equals("input_features")).findFirst()
                .orElseThrow(() -> new SuiteException.UnfeedableInputException("The encoder " + encoderFile
                        + " has no input 'input_features'", "export it as Optimum exports Whisper's encoder"));
        long[] shape = in.shape();
        if (shape.length != 3 || shape[1] != LogMel.N_MELS) {
            throw new SuiteException.UnfeedableInputException("The encoder's input_features is " + java.util.Arrays.toString(shape)
                    + ", not [batch, " + LogMel.N_MELS + ", frames]: only Whisper's 80-bin log-mel is made here",
                    "give an encoder of 80 mel bins (Whisper tiny to large-v2)");
        }
        if (shape[2] > Preprocessor.MAX_FRAMES) {
            throw new SuiteException.UnfeedableInputException("The encoder's input_features has " + shape[2] + " frames, above the "
                    + Preprocessor.MAX_FRAMES + " Accelbridge makes", "give an encoder of Whisper's 3,000 frames");
        }
        int frames = shape[2] > 0 ? (int) shape[2] : 3000; // Whisper's 30 s window
        long[] prompt = prompt(root, files, vocabulary(decoder));
        float[] mel = LogMel.ofClip(frames);
        List<NamedTensor> inputs = List.of(NamedTensor.ofFloats("input_features", new long[] {1, LogMel.N_MELS, frames}, mel),
                NamedTensor.ofLongs("input_ids", new long[] {1, prompt.length}, prompt));
        Generation g = Generation.of(feed.generate().newTokens() != null ? feed.generate().newTokens() : GenerateOptions.DEFAULT_NEW, DecoderLayout.of(decoder))
                .withEncoder(Generation.Encoder.of(encoder));
        return ModelCase.generating(decoder, "chirp-tones-transcribed", inputs, g).withPrecision(OnnxModels.precision(decProto));
    }

    /** The decoder's vocabulary: the last dimension of its {@code logits} where fixed, else unknown (-1). */
    private static long vocabulary(ModelSpec decoder) {
        return decoder.outputs().stream().filter(t -> t.name().equals("logits")).findFirst()
                .map(t -> t.shape().length > 0 ? t.shape()[t.shape().length - 1] : -1L).filter(v -> v > 0).orElse(-1L);
    }

    /**
     * {@code decoder_start_token_id}, then {@code forced_decoder_ids} by position, from the export's generation config:
     * every id a token of the vocabulary ({@code vocab}, -1 when unknown) and the prompt within a generation's bound, so a
     * config that says otherwise is this model's row, not a run's end.
     */
    static long[] prompt(Path root, Path files, long vocab) {
        for (Path d : List.of(files, root)) {
            Path cfg = d.resolve("generation_config.json");
            if (!Files.isRegularFile(cfg)) {
                continue;
            }
            JsonNode n;
            try {
                n = new ObjectMapper().readTree(cfg.toFile());
            } catch (IOException e) {
                throw new SuiteException.InvalidTestDataException(cfg + " is not valid JSON: " + e.getMessage(),
                        "re-save it with generation_config.save_pretrained()", e);
            }
            if (!n.path("decoder_start_token_id").canConvertToLong()) {
                throw new SuiteException.UnfeedableInputException(cfg + " has no decoder_start_token_id",
                        "save the generation config Whisper's export comes with");
            }
            List<Long> ids = new ArrayList<>(List.of(token(cfg, "decoder_start_token_id", n.get("decoder_start_token_id").asLong(), vocab)));
            JsonNode pairs = n.path("forced_decoder_ids");
            if (pairs.size() >= ScenarioId.MAX_TOKENS) {
                throw new SuiteException.UnfeedableInputException(cfg + ": forced_decoder_ids holds " + pairs.size() + " ids; a prompt "
                        + "is at most " + ScenarioId.MAX_TOKENS + " tokens with its start token",
                        "save the generation config Whisper's export comes with (a few forced ids)");
            }
            TreeMap<Integer, Long> forced = new TreeMap<>();
            for (JsonNode pair : pairs) {
                if (pair.isArray() && pair.size() == 2 && pair.get(0).canConvertToInt() && pair.get(1).canConvertToLong()) {
                    forced.put(pair.get(0).asInt(), token(cfg, "forced_decoder_ids", pair.get(1).asLong(), vocab));
                }
            }
            ids.addAll(forced.values());
            return ids.stream().mapToLong(Long::longValue).toArray();
        }
        throw new SuiteException.UnfeedableInputException("The speech-to-text export in " + root + " has no generation_config.json to "
                + "start its decoder from", "put the generation_config.json of its export beside the model files");
    }

    private static long token(Path cfg, String key, long id, long vocab) {
        if (id < 0 || (vocab > 0 && id >= vocab)) {
            throw new SuiteException.UnfeedableInputException(cfg + ": " + key + " holds the token " + id + ", not one of the decoder's "
                    + (vocab > 0 ? "0.." + (vocab - 1) : "token ids (0 or more)"), "save the generation config the export comes with");
        }
        return id;
    }
}
