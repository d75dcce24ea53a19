package dev.accelbridge.suites;

import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.text.BertModel;
import dev.accelbridge.suites.text.WordPieceTokenizer;

import java.util.List;

/** The models of each suite at each size, and their input generators. */
final class SuiteDefinitions {
    /** Sentences fed to the text suite; their lengths differ so padding and the attention mask matter. */
    static final List<String> SENTENCES = List.of(
            "The quick brown fox jumps over the lazy dog.",
            "Accelbridge runs the same ONNX model in every browser and checks the outputs!",
            "Tokenizers split unrecognized words into smaller pieces.");

    private SuiteDefinitions() {
    }

    static List<SuiteModel> models(ModelFamily family, ModelSize size) {
        return switch (family) {
            case TEXT -> List.of(text(size));
            case VISION, AUDIO, OTHER -> List.of();
        };
    }

    private static SuiteModel text(ModelSize size) {
        WordPieceTokenizer tok = WordPieceTokenizer.builtin();
        boolean small = size == ModelSize.SMALL;
        int seq = small ? 24 : 128;
        BertModel.Config c = small
                ? new BertModel.Config(tok.vocabSize(), 64, 2, 4, 256, 64)
                : new BertModel.Config(tok.vocabSize(), 768, 12, 12, 3072, 512);
        String name = small ? "bert-mini" : "bert-base";
        int batch = SENTENCES.size();
        return new SuiteModel(ModelFamily.TEXT, name,
                "BERT-style encoder, " + c.layers() + " layers, hidden " + c.hidden() + ", " + c.heads() + " heads, WordPiece vocab " + c.vocabSize(),
                seed -> BertModel.build(name, c, seed, batch, seq),
                "sentences",
                () -> {
                    WordPieceTokenizer.Batch b = tok.encode(SENTENCES, seq);
                    long[] shape = {b.batch(), b.length()};
                    return List.of(NamedTensor.ofLongs("input_ids", shape, b.inputIds()),
                            NamedTensor.ofLongs("attention_mask", shape, b.attentionMask()));
                });
    }
}
