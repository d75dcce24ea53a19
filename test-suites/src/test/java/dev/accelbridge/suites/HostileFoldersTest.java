package dev.accelbridge.suites;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Model folders written as an attacker would write them, beside a good model in one folder: each bad one is its own row
 * naming the file and the key, the good one loads, and none can abort the JVM or exhaust its heap (found when tried: a
 * tokenizer whose unknown token is not in its vocabulary aborted the JVM with exit 134; a preprocessor's size of
 * 1,000,000 x 1,000,000 and 10^9 frames ran out of heap; a sampling rate of 0 fed an empty waveform that passed; a
 * negative start token was fed as is; 10^6 forced ids stopped the whole run).
 */
public class HostileFoldersTest {
    @TempDir
    Path dir;

    @Test
    void eachHostileFolderIsItsOwnRowNamingTheFileAndKeyAndTheGoodModelLoads() {
        Path zoo = hostileZoo(dir.resolve("zoo"));
        Map<String, ModelLoad> all = ModelDirectory.loadAll(zoo, Optional.empty(), FeedOptions.none()).stream()
                .collect(Collectors.toMap(m -> zoo.relativize(m.path()).getName(0).toString(), m -> m));
        assertThat(all.get("op-relu").broken()).isFalse();
        assertThat(all.get("op-relu").cases()).isNotEmpty();
        EXPECTED.forEach((folder, fileAndKey) -> expect(all.get(folder), fileAndKey.get(0), fileAndKey.get(1)));
    }

    /**
     * A folder of models as an attacker would write them, beside a good one ({@code op-relu}): each in a folder named for
     * what it holds, the key in error in the file named.
     *
     * @return the folder ({@link #EXPECTED} says what each bad model's row names)
     */
    public static Path hostileZoo(Path zoo) {
        WildModels.unary(zoo, "Relu");
        tokenizerWithoutItsUnknownToken(WildModels.sentenceEncoder(zoo.resolve("t")));
        preprocessor(WildModels.optimumVision(zoo.resolve("huge")), "{\"size\": {\"height\": 1000000, \"width\": 1000000}}");
        preprocessor(WildModels.optimumVision(zoo.resolve("negative")), "{\"size\": {\"height\": -4, \"width\": 32}}");
        preprocessor(WildModels.optimumWhisper(zoo.resolve("frames")), "{\"feature_size\": 80, \"nb_max_frames\": 1000000000}");
        preprocessor(WildModels.optimumWav2vec(zoo.resolve("rate")), "{\"sampling_rate\": 0}");
        generationConfig(WildModels.whisperExport(zoo.resolve("start")), "{\"decoder_start_token_id\": -3, \"max_length\": 64}");
        StringBuilder forced = new StringBuilder("{\"decoder_start_token_id\": 1, \"forced_decoder_ids\": [");
        for (int i = 1; i <= 1_000_000; i++) {
            forced.append(i > 1 ? "," : "").append('[').append(i).append(",2]");
        }
        generationConfig(WildModels.whisperExport(zoo.resolve("forced")), forced.append("]}").toString());

        return zoo;
    }

    /** The file and key each bad model of {@link #hostileZoo} must name, by its folder. */
    public static final Map<String, List<String>> EXPECTED = Map.of("t", List.of("tokenizer.json", "unk_token"),
            "huge", List.of("preprocessor_config.json", "size"), "negative", List.of("preprocessor_config.json", "size"),
            "frames", List.of("preprocessor_config.json", "nb_max_frames"), "rate", List.of("preprocessor_config.json", "sampling_rate"),
            "start", List.of("generation_config.json", "decoder_start_token_id"),
            "forced", List.of("generation_config.json", "forced_decoder_ids"));

    private static void expect(ModelLoad m, String file, String key) {
        assertThat(m).as(file + " " + key).isNotNull();
        assertThat(m.status()).as(m.problem()).isIn(Status.FAILED, Status.UNSUPPORTED);
        assertThat(m.problem()).contains(file).contains(key).doesNotContain("\n").hasSizeLessThan(600);
    }

    /** A WordPiece tokenizer whose {@code unk_token} is not in its vocabulary, which the suite's sentences need. */
    static void tokenizerWithoutItsUnknownToken(Path folder) {
        ObjectMapper om = new ObjectMapper();
        ObjectNode root = om.createObjectNode().put("version", "1.0");
        root.putNull("truncation");
        root.putNull("padding");
        root.putArray("added_tokens");
        root.putObject("normalizer").put("type", "BertNormalizer").put("clean_text", true).put("handle_chinese_chars", true)
                .put("lowercase", true).putNull("strip_accents");
        root.putObject("pre_tokenizer").put("type", "BertPreTokenizer");
        ObjectNode post = root.putObject("post_processor").put("type", "BertProcessing");
        post.putArray("sep").add("[SEP]").add(2);
        post.putArray("cls").add("[CLS]").add(1);
        ObjectNode model = root.putObject("model").put("type", "WordPiece").put("unk_token", "[UNK]")
                .put("continuing_subword_prefix", "##").put("max_input_chars_per_word", 100);
        ObjectNode vocab = model.putObject("vocab");
        List<String> words = List.of("[PAD]", "[CLS]", "[SEP]", "the", "a");
        for (int i = 0; i < words.size(); i++) {
            vocab.put(words.get(i), i);
        }
        try {
            om.writeValue(folder.resolve("tokenizer.json").toFile(), root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void preprocessor(Path folder, String json) {
        write(folder.resolve("preprocessor_config.json"), json);
    }

    private static void generationConfig(Path folder, String json) {
        write(folder.resolve("generation_config.json"), json);
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
