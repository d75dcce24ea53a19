package dev.accelbridge.suites;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.Untrusted;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a {@code tokenizer.json} must hold before the native Hugging Face tokenizer sees it. The native code aborts the
 * whole JVM (a Rust panic, exit 134) on some files it accepts at load and fails on only when it meets an unknown word:
 * a WordPiece or WordLevel model whose {@code unk_token} is not in its vocabulary, a BPE model naming an unknown token it
 * does not hold, a Unigram model without a valid {@code unk_id}. Those are refused here, naming the file and the key, so
 * they become the model's row and not the end of the run.
 */
final class TokenizerJson {
    /** The largest tokenizer.json read: the biggest published ones (multilingual, 250k entries) are near 20 MB. */
    static final long MAX_BYTES = 256L << 20;

    private TokenizerJson() {
    }

    /** Refuses a tokenizer.json the native tokenizer could panic on. */
    static void check(Path file) {
        JsonNode root;
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw bad(file, "is " + size + " bytes, above the " + MAX_BYTES + " read", "give the tokenizer.json its export wrote");
            }
            root = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new SuiteException.InvalidTestDataException(file + " is not valid JSON: " + Untrusted.bounded(e.getMessage(), 200),
                    "re-save it with transformers' tokenizer.save_pretrained() (a fast tokenizer's tokenizer.json)", e);
        }
        JsonNode model = root.path("model");
        String type = model.path("type").asText("");
        JsonNode vocab = model.path("vocab");
        switch (type) {
            case "WordPiece", "WordLevel" -> {
                if (!vocab.isObject()) {
                    throw bad(file, "model.vocab of a " + type + " model is not an object of token: id", FIX);
                }
                JsonNode unk = model.path("unk_token");
                if (!unk.isTextual() || !vocab.has(unk.asText())) {
                    throw bad(file, "model.unk_token " + Untrusted.quote(unk.isMissingNode() ? "(none)" : unk.asText())
                            + " is not in model.vocab: the native tokenizer aborts the process on the first unknown word", FIX);
                }
            }
            case "BPE" -> {
                JsonNode unk = model.path("unk_token");
                if (unk.isTextual() && vocab.isObject() && !vocab.has(unk.asText())) {
                    throw bad(file, "model.unk_token " + Untrusted.quote(unk.asText())
                            + " is not in model.vocab: the native tokenizer aborts the process on the first unknown word", FIX);
                }
            }
            case "Unigram" -> {
                JsonNode unkId = model.path("unk_id");
                if (!unkId.canConvertToInt() || unkId.asInt() < 0 || !vocab.isArray() || unkId.asInt() >= vocab.size()) {
                    throw bad(file, "model.unk_id " + Untrusted.quote(unkId.isMissingNode() ? "(none)" : unkId.toString())
                            + " is not an index of model.vocab (" + (vocab.isArray() ? vocab.size() : 0) + " entries)", FIX);
                }
            }
            default -> throw bad(file, "model.type " + Untrusted.quote(type) + " is not one of WordPiece, WordLevel, BPE, Unigram", FIX);
        }
    }

    private static final String FIX = "re-save it with transformers' tokenizer.save_pretrained() (a fast tokenizer's tokenizer.json)";

    private static SuiteException bad(Path file, String problem, String fix) {
        return new SuiteException.InvalidTestDataException(file + ": " + problem, fix, null);
    }
}
