package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.GenerationCheck;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.audio.LogMel;
import dev.accelbridge.suites.audio.Waveforms;
import dev.accelbridge.suites.audio.WhisperDecoderModel;
import dev.accelbridge.suites.audio.WhisperEncoderModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The merged Whisper-style decoder on the real ONNX Runtime: the first step takes the graph without a past (its cross
 * cache computed from the encoder's states), later steps the graph with one, and each cached step's logits are those of
 * the whole sequence recomputed without a cache. Its layout is read from the names as Optimum writes them.
 */
class WhisperDecoderTest {
    @TempDir
    Path dir;

    @Test
    void cachedStepsGiveTheLogitsOfTheWholeSequenceRecomputed() throws Exception {
        WhisperEncoderModel.Config ec = new WhisperEncoderModel.Config(LogMel.frames(LogMel.SAMPLE_RATE), 64, 2, 4);
        Path enc = Files.write(dir.resolve("encoder_model.onnx"), WhisperEncoderModel.build("enc", ec, 3).toBytes());
        Path dec = Files.write(dir.resolve("decoder_model_merged.onnx"),
                WhisperDecoderModel.build("dec", new WhisperDecoderModel.Config(64, 2, 4, 64), 3).toBytes());
        ModelSpec spec = OnnxModels.inspect(dec, dev.accelbridge.suites.onnx.OnnxTensors.readModel(dec), ModelFamily.AUDIO, "dec", dec.toString());
        DecoderLayout l = DecoderLayout.of(spec);
        assertThat(l.encoderHidden()).isEqualTo("encoder_hidden_states");
        assertThat(l.useCacheBranch()).isEqualTo("use_cache_branch");
        assertThat(l.cache()).extracting(DecoderLayout.Cache::past).startsWith("past_key_values.0.decoder.key",
                "past_key_values.0.decoder.value", "past_key_values.0.encoder.key", "past_key_values.0.encoder.value");
        assertThat(l.cache().get(2).present()).isEqualTo("present.0.encoder.key");
        assertThat(l.kvHeads()).isEqualTo(4);
        assertThat(l.headDim()).isEqualTo(16);
        assertThat(l.vocab()).isEqualTo(WhisperDecoderModel.TOKENS.size());

        float[] mel = LogMel.flatten(LogMel.compute(Waveforms.chirpAndTones(1.0)));
        NamedTensor features = NamedTensor.ofFloats("input_features", new long[] {1, LogMel.N_MELS, mel.length / LogMel.N_MELS}, mel);
        NamedTensor hidden = Ort.run(enc, List.of(features)).get("last_hidden_state");
        assertThat(hidden.shape()).containsExactly(1, 50, 64);

        List<Long> seq = new ArrayList<>(Arrays.stream(WhisperDecoderModel.PROMPT).boxed().toList());
        Map<String, NamedTensor> out = Ort.run(dec, l.feeds(WhisperDecoderModel.PROMPT, 0, l.emptyCache(), hidden));
        assertThat(out.get("present.1.encoder.key").shape()).containsExactly(1, 4, 50, 16);
        assertThat(out.get("present.1.decoder.key").shape()).containsExactly(1, 4, 4, 16);
        int vocab = l.vocab();
        for (int step = 0; step < 6; step++) {
            float[] logits = out.get("logits").toFloats();
            int rows = (int) out.get("logits").shape()[1];
            long next = GenerationCheck.argmax(logits, rows - 1, vocab);
            seq.add(next);
            List<NamedTensor> past = new ArrayList<>();
            for (DecoderLayout.Cache c : l.cache()) {
                past.add(out.get(c.present()).withName(c.past()));
            }
            out = Ort.run(dec, l.feeds(new long[] {next}, seq.size() - 1, past, hidden));
            long[] all = seq.stream().mapToLong(Long::longValue).toArray();
            Map<String, NamedTensor> whole = Ort.run(dec, l.feeds(all, 0, l.emptyCache(), hidden));
            float[] cached = out.get("logits").toFloats();
            float[] full = whole.get("logits").toFloats();
            assertThat(cached).hasSize(vocab);
            assertThat(Arrays.copyOfRange(full, (all.length - 1) * vocab, all.length * vocab)).as("step " + step)
                    .containsExactly(cached, within(1e-4f));
            assertThat(out.get("present.0.decoder.key").shape()).containsExactly(1, 4, all.length, 16);
            // the cross cache passes through unchanged
            assertThat(out.get("present.0.encoder.key").toFloats()).containsExactly(past.get(2).toFloats());
        }
        assertThat(WhisperDecoderModel.text(seq.stream().mapToLong(Long::longValue).toArray())).as("%s", seq).isNotEmpty();
        assertThat(seq.subList(4, seq.size()).stream().distinct().count()).as("the tokens vary: %s", seq).isGreaterThan(1);
    }
}
