package dev.accelbridge.suites.text;

import dev.accelbridge.suites.SuiteException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * BERT's WordPiece tokenizer (uncased): the basic tokenizer (text cleaning, CJK spacing, lower-casing with
 * accent stripping, whitespace and punctuation splitting) followed by greedy longest-match-first WordPiece
 * with the {@code ##} continuation prefix; a word that cannot be covered by pieces becomes {@code [UNK]}.
 * Encoding wraps each sentence in {@code [CLS] ... [SEP]} and pads with {@code [PAD]} to a fixed length.
 * The behaviour matches Hugging Face's {@code BertNormalizer + BertPreTokenizer + WordPiece}.
 */
public final class WordPieceTokenizer {
    /** Resource path of the vocabulary shipped with the suite. */
    public static final String BUILTIN_VOCAB = "/dev/accelbridge/suites/text/vocab.txt";
    public static final String PAD = "[PAD]";
    public static final String UNK = "[UNK]";
    public static final String CLS = "[CLS]";
    public static final String SEP = "[SEP]";
    private static final int MAX_CHARS_PER_WORD = 100;

    private final Map<String, Integer> vocab;
    private final List<String> tokens;

    /** A tokenizer over {@code vocab} (token to id; ids must be 0..n-1). */
    public WordPieceTokenizer(Map<String, Integer> vocab) {
        this.vocab = Collections.unmodifiableMap(new LinkedHashMap<>(vocab));
        String[] byId = new String[vocab.size()];
        vocab.forEach((t, id) -> byId[id] = t);
        this.tokens = List.of(byId);
        for (String special : List.of(PAD, UNK, CLS, SEP)) {
            if (!vocab.containsKey(special)) {
                throw new SuiteException("WordPiece vocabulary has no " + special + " token", "add it to vocab.txt");
            }
        }
    }

    /** The tokenizer over the vocabulary the suite ships (about 800 tokens incl. {@code ##} sub-words). */
    public static WordPieceTokenizer builtin() {
        try (InputStream in = WordPieceTokenizer.class.getResourceAsStream(BUILTIN_VOCAB)) {
            if (in == null) {
                throw new SuiteException("Built-in vocabulary " + BUILTIN_VOCAB + " is missing from the classpath",
                        "rebuild accelbridge-test-suites");
            }
            return fromVocabFile(in);
        } catch (IOException e) {
            throw new SuiteException("Cannot read built-in vocabulary: " + e.getMessage(), "rebuild accelbridge-test-suites", e);
        }
    }

    /** Reads a BERT {@code vocab.txt}: one token per line, the line number is the id. */
    public static WordPieceTokenizer fromVocabFile(InputStream in) throws IOException {
        Map<String, Integer> v = new LinkedHashMap<>();
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        while ((line = r.readLine()) != null) {
            if (!line.isEmpty() && !v.containsKey(line)) {
                v.put(line, v.size());
            }
        }
        return new WordPieceTokenizer(v);
    }

    /** Token to id. */
    public Map<String, Integer> vocab() {
        return vocab;
    }

    /** Vocabulary size. */
    public int vocabSize() {
        return vocab.size();
    }

    /** The token with id {@code id}. */
    public String token(long id) {
        return tokens.get((int) id);
    }

    /** Id of a token, or the [UNK] id. */
    public int id(String token) {
        return vocab.getOrDefault(token, vocab.get(UNK));
    }

    /** Word pieces of {@code text}, without special tokens. */
    public List<String> tokenize(String text) {
        List<String> out = new ArrayList<>();
        for (String word : basicTokenize(text)) {
            out.addAll(wordPiece(word));
        }
        return out;
    }

    /** Greedy longest-match-first WordPiece of one basic token. */
    List<String> wordPiece(String word) {
        if (word.codePointCount(0, word.length()) > MAX_CHARS_PER_WORD) {
            return List.of(UNK);
        }
        List<String> pieces = new ArrayList<>();
        int start = 0;
        while (start < word.length()) {
            int end = word.length();
            String found = null;
            while (start < end) {
                String sub = (start > 0 ? "##" : "") + word.substring(start, end);
                if (vocab.containsKey(sub)) {
                    found = sub;
                    break;
                }
                end = word.offsetByCodePoints(end, -1);
            }
            if (found == null) {
                return List.of(UNK);
            }
            pieces.add(found);
            start = end;
        }
        return pieces;
    }

    /** BERT's basic tokenizer: clean, space CJK, lower-case and strip accents, split on whitespace and punctuation. */
    static List<String> basicTokenize(String text) {
        StringBuilder clean = new StringBuilder();
        text.codePoints().forEach(cp -> {
            if (cp == 0 || cp == 0xFFFD || isControl(cp)) {
                return;
            }
            if (isCjk(cp)) {
                clean.append(' ').appendCodePoint(cp).append(' ');
            } else if (isWhitespace(cp)) {
                clean.append(' ');
            } else {
                clean.appendCodePoint(cp);
            }
        });
        List<String> out = new ArrayList<>();
        for (String raw : clean.toString().trim().split(" +")) {
            if (raw.isEmpty()) {
                continue;
            }
            String word = stripAccents(raw.toLowerCase(Locale.ROOT));
            StringBuilder cur = new StringBuilder();
            for (int i = 0; i < word.length(); ) {
                int cp = word.codePointAt(i);
                i += Character.charCount(cp);
                if (isPunctuation(cp)) {
                    if (cur.length() > 0) {
                        out.add(cur.toString());
                        cur.setLength(0);
                    }
                    out.add(new String(Character.toChars(cp)));
                } else {
                    cur.appendCodePoint(cp);
                }
            }
            if (cur.length() > 0) {
                out.add(cur.toString());
            }
        }
        return out;
    }

    private static String stripAccents(String s) {
        String nfd = Normalizer.normalize(s, Normalizer.Form.NFD);
        StringBuilder b = new StringBuilder();
        nfd.codePoints().filter(cp -> Character.getType(cp) != Character.NON_SPACING_MARK).forEach(b::appendCodePoint);
        return b.toString();
    }

    private static boolean isWhitespace(int cp) {
        return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || Character.getType(cp) == Character.SPACE_SEPARATOR;
    }

    private static boolean isControl(int cp) {
        if (cp == '\t' || cp == '\n' || cp == '\r') {
            return false;
        }
        int t = Character.getType(cp);
        return t == Character.CONTROL || t == Character.FORMAT;
    }

    /** ASCII non-alphanumerics count as punctuation (as in BERT), plus every Unicode P* category. */
    private static boolean isPunctuation(int cp) {
        if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126)) {
            return true;
        }
        int t = Character.getType(cp);
        return t == Character.CONNECTOR_PUNCTUATION || t == Character.DASH_PUNCTUATION
                || t == Character.START_PUNCTUATION || t == Character.END_PUNCTUATION
                || t == Character.INITIAL_QUOTE_PUNCTUATION || t == Character.FINAL_QUOTE_PUNCTUATION
                || t == Character.OTHER_PUNCTUATION;
    }

    private static boolean isCjk(int cp) {
        return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF)
                || (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF)
                || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
    }

    /**
     * A padded batch: row-major {@code [batch, length]} ids and mask.
     *
     * @param inputIds      token ids, {@code [CLS] pieces [SEP] [PAD]...}
     * @param attentionMask 1 for real tokens, 0 for padding
     */
    public record Batch(int batch, int length, long[] inputIds, long[] attentionMask) {
    }

    /**
     * Encodes sentences as {@code [CLS] pieces [SEP]}, truncated to {@code length} and padded with
     * {@code [PAD]} (mask 0) to exactly {@code length}.
     */
    public Batch encode(List<String> sentences, int length) {
        if (length < 2) {
            throw new IllegalArgumentException("length must be at least 2");
        }
        long[] ids = new long[sentences.size() * length];
        long[] mask = new long[ids.length];
        java.util.Arrays.fill(ids, id(PAD));
        for (int s = 0; s < sentences.size(); s++) {
            List<String> pieces = tokenize(sentences.get(s));
            List<String> row = new ArrayList<>();
            row.add(CLS);
            row.addAll(pieces.subList(0, Math.min(pieces.size(), length - 2)));
            row.add(SEP);
            for (int i = 0; i < row.size(); i++) {
                ids[s * length + i] = id(row.get(i));
                mask[s * length + i] = 1;
            }
        }
        return new Batch(sentences.size(), length, ids, mask);
    }
}
