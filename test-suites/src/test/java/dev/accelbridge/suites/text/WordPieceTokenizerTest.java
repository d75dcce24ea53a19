package dev.accelbridge.suites.text;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WordPieceTokenizerTest {
    private final WordPieceTokenizer tok = WordPieceTokenizer.builtin();

    @Test
    void knownWordsAreWholeTokensAndPunctuationIsSplit() {
        assertThat(tok.tokenize("The quick brown fox, jumps!")).containsExactly("the", "quick", "brown", "fox", ",", "jumps", "!");
        assertThat(tok.tokenize("  Hello\tWORLD\n")).containsExactly("hello", "world");
    }

    @Test
    void unknownWordsSplitIntoLongestPiecesWithContinuation() {
        assertThat(tok.vocab()).doesNotContainKey("accelbridge");
        assertThat(tok.tokenize("Accelbridge")).containsExactly("acc", "##el", "##bridg", "##e");
        List<String> pieces = tok.tokenize("unrecognized");
        assertThat(pieces).hasSizeGreaterThan(1);
        assertThat(pieces.subList(1, pieces.size())).allMatch(p -> p.startsWith("##"));
        assertThat(String.join("", pieces).replace("##", "")).isEqualTo("unrecognized");
    }

    @Test
    void aWordWithNoPiecesIsUnknown() {
        assertThat(tok.tokenize("fox λάμδα dog")).containsExactly("fox", "[UNK]", "dog");
        assertThat(tok.tokenize("naïve café")).allMatch(t -> !t.equals("[UNK]")); // accents are stripped first
    }

    @Test
    void encodeAddsSpecialTokensAndPadsWithAZeroMask() {
        WordPieceTokenizer.Batch b = tok.encode(List.of("the dog", "the quick brown fox jumps"), 8);
        assertThat(b.inputIds()).hasSize(16);
        assertThat(tok.token(b.inputIds()[0])).isEqualTo("[CLS]");
        assertThat(tok.token(b.inputIds()[3])).isEqualTo("[SEP]");
        assertThat(tok.token(b.inputIds()[4])).isEqualTo("[PAD]");
        assertThat(b.attentionMask()).containsExactly(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0);
        // truncation keeps [SEP] at the end
        WordPieceTokenizer.Batch t = tok.encode(List.of("the quick brown fox jumps over the lazy dog"), 5);
        assertThat(tok.token(t.inputIds()[4])).isEqualTo("[SEP]");
    }
}
