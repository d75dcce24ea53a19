package dev.accelbridge.suites.generation;

import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.text.WordPieceTokenizer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A decoder's inputs: a generation's prompt, and single decode steps at a chosen cache depth, each one forward pass a
 * case of its own, because attention kernels break at particular depths (an empty past, a cache that grows, a long one),
 * on several new tokens at once (a speculative step) and on a padded batch. A step's past is drawn from a seeded stream
 * (uniform in [-1, 1)): what is judged is that every side computes the same attention over the same cache.
 */
public final class DecodeSteps {
    /** The cache depths the grid steps at. */
    public static final List<Integer> DEPTHS = List.of(0, 16, 64, 256);
    /** The seed of the grid steps' caches (the inputs do not depend on the weights' seed). */
    public static final long SEED = 1;
    /** The depth of the speculative and the padded-batch steps. */
    public static final int SHALLOW = 16;

    private DecodeSteps() {
    }

    /**
     * One step's inputs and its input set's name.
     *
     * @param name   {@code step past64}, {@code step past16 q4}, {@code step past16 b2 left-padded}
     * @param inputs in graph order
     */
    public record Step(String name, List<NamedTensor> inputs) {
    }

    /**
     * A prompt of {@code length} token ids: the suite's sentences tokenized by the built-in WordPiece vocabulary, one after
     * another, cut to {@code length}.
     */
    public static long[] sentencePrompt(int length) {
        WordPieceTokenizer tok = WordPieceTokenizer.builtin();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; ids.size() < length; i++) {
            for (String t : tok.tokenize(SENTENCES.get(i % SENTENCES.size()))) {
                ids.add((long) tok.id(t));
            }
        }
        return ids.subList(0, length).stream().mapToLong(Long::longValue).toArray();
    }

    /** What prompts are made of. */
    private static final List<String> SENTENCES = List.of(
            "The quick brown fox jumps over the lazy dog.",
            "Accelbridge runs the same ONNX model in every browser and checks the outputs!",
            "Tokenizers split unrecognized words into smaller pieces.");

    /** {@code input_ids [1, tokens.length]}: a generation's prompt. */
    public static List<NamedTensor> prompt(long[] tokens) {
        return List.of(NamedTensor.ofLongs("input_ids", new long[] {1, tokens.length}, tokens.clone()));
    }

    /** The grid of a decoder: one token at each of {@link #DEPTHS}, four tokens at {@link #SHALLOW}, and a padded batch of two. */
    public static List<Step> grid(LlamaDecoderModel.Config c, long seed, long[] tokens) {
        List<Step> out = new ArrayList<>();
        for (int depth : DEPTHS) {
            out.add(step(c, seed, tokens, 1, depth, 1, 0));
        }
        out.add(step(c, seed, tokens, 1, SHALLOW, 4, 0));
        out.add(step(c, seed, tokens, 2, SHALLOW, 1, 5));
        return out;
    }

    /**
     * One step: {@code batch} sequences with {@code past} cached positions each and {@code q} new tokens; the first sequence
     * left-padded by {@code padding} positions (mask 0, its positions counted from its first real token, as tokenizers and
     * transformers.js make them).
     */
    public static Step step(LlamaDecoderModel.Config c, long seed, long[] tokens, int batch, int past, int q, int padding) {
        int total = past + q;
        long[] ids = new long[batch * q];
        long[] mask = new long[batch * total];
        long[] positions = new long[batch * q];
        for (int b = 0; b < batch; b++) {
            int pad = b == 0 ? padding : 0;
            for (int t = 0; t < total; t++) {
                mask[b * total + t] = t < pad ? 0 : 1;
            }
            for (int i = 0; i < q; i++) {
                ids[b * q + i] = Math.floorMod(tokens[(b + i) % tokens.length], c.vocab());
                positions[b * q + i] = Math.max(0, past + i - pad);
            }
        }
        List<NamedTensor> in = new ArrayList<>();
        in.add(NamedTensor.ofLongs("input_ids", new long[] {batch, q}, ids));
        in.add(NamedTensor.ofLongs("attention_mask", new long[] {batch, total}, mask));
        in.add(NamedTensor.ofLongs("position_ids", new long[] {batch, q}, positions));
        SplittableRandom rng = new SplittableRandom(seed * 1_000_003L + past * 31L + q * 7L + batch);
        long[] shape = {batch, c.kvHeads(), past, c.headDim()};
        for (int layer = 0; layer < c.layers(); layer++) {
            for (String kind : List.of("key", "value")) {
                float[] v = new float[batch * c.kvHeads() * past * c.headDim()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = (float) (rng.nextDouble() * 2 - 1);
                }
                in.add(NamedTensor.ofFloats("past_key_values." + layer + "." + kind, shape, v));
            }
        }
        String name = String.format(Locale.ROOT, "step past%d%s%s", past, q > 1 ? " q" + q : "",
                batch > 1 ? " b" + batch + (padding > 0 ? " left-padded" : "") : "");
        return new Step(name, in);
    }
}
