package dev.accelbridge.suites.text;

import dev.accelbridge.core.DType;
import dev.accelbridge.suites.onnx.GeneratedModel;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.Layers;

import java.util.List;

import static dev.accelbridge.suites.onnx.GraphBuilder.attr;

/**
 * A BERT-style encoder authored as ONNX: token + position (+ token-type 0) embeddings with LayerNorm,
 * post-LN encoder layers of multi-head self-attention that honour {@code attention_mask} (an additive
 * {@code (1 - mask) * -10000} bias, as BERT does), GELU feed-forward, and a tanh pooler over the [CLS]
 * position. Batch and sequence dimensions are symbolic.
 *
 * <p>Inputs: {@code input_ids}, {@code attention_mask} int64 [batch, sequence]. Outputs:
 * {@code last_hidden_state} float32 [batch, sequence, hidden], {@code pooler_output} float32 [batch, hidden].
 */
public final class BertModel {
    private BertModel() {
    }

    /**
     * Shape of the encoder.
     *
     * @param vocabSize    rows of the token embedding (the tokenizer's vocabulary size)
     * @param hidden       hidden size
     * @param layers       encoder layers
     * @param heads        attention heads (divides hidden)
     * @param intermediate feed-forward width
     * @param maxPositions rows of the position embedding (longest sequence)
     * @param typeVocab    rows of the token-type embedding: 1 for a single added vector, 2 as BERT ships it (row 0 is added:
     *                     every token is of segment A)
     */
    public record Config(int vocabSize, int hidden, int layers, int heads, int intermediate, int maxPositions, int typeVocab) {
        public Config {
            if (hidden % heads != 0 || typeVocab < 1) {
                throw new IllegalArgumentException("hidden " + hidden + " not divisible by heads " + heads + ", or no token type");
            }
        }

        /** An encoder with a single token-type vector. */
        public Config(int vocabSize, int hidden, int layers, int heads, int intermediate, int maxPositions) {
            this(vocabSize, hidden, layers, heads, intermediate, maxPositions, 1);
        }

        /** {@code bert-base-uncased} as published: 30,522 words, hidden 768, 12 layers of 12 heads, 512 positions, 2 token types. */
        public static Config bertBase() {
            return new Config(30522, 768, 12, 12, 3072, 512, 2);
        }

        /**
         * Its learned parameters, pooler included, as the published model card counts them: embeddings and their LayerNorm,
         * each layer's four attention projections, feed-forward and two LayerNorms, and the pooler's dense.
         */
        public long parameters() {
            long d = hidden;
            long embeddings = ((long) vocabSize + maxPositions + (typeVocab == 1 ? 1 : typeVocab)) * d + 2 * d;
            long layer = 4 * (d * d + d) + d * intermediate + intermediate + (long) intermediate * d + d + 4 * d;
            return embeddings + layers * layer + d * d + d;
        }
    }

    /**
     * Builds the model with weights from {@code seed}; the FLOP estimate is for one inference on
     * {@code batch x seq} tokens.
     */
    public static GeneratedModel build(String name, Config c, long seed, int batch, int seq) {
        GraphBuilder g = new GraphBuilder(name, seed);
        Layers l = new Layers(g);
        long tokens = (long) batch * seq;
        int d = c.hidden();

        String ids = g.input("input_ids", DType.INT64, "batch", "sequence");
        String mask = g.input("attention_mask", DType.INT64, "batch", "sequence");

        // Embeddings: word + position + token type 0, then LayerNorm.
        String wordEmb = g.uniform("embeddings.word_embeddings.weight", 1.0, c.vocabSize(), d);
        String posEmb = g.uniform("embeddings.position_embeddings.weight", 1.0, c.maxPositions(), d);
        String typeEmb = c.typeVocab() == 1 ? g.uniform("embeddings.token_type_embeddings.weight", 1.0, d)
                : g.op("Gather", "embeddings", List.of(g.uniform("embeddings.token_type_embeddings.weight", 1.0, c.typeVocab(), d),
                        g.longs("embeddings.token_type_zero", new long[] {0})), attr("axis", 0L));
        String words = g.op("Gather", "embeddings", List.of(wordEmb, ids), attr("axis", 0L));
        String shape = g.op("Shape", "embeddings", List.of(ids));
        String seqLen = g.op("Gather", "embeddings", List.of(shape, g.longs("embeddings.seq_axis", new long[] {1})), attr("axis", 0L));
        String positions = g.op("Range", "embeddings", List.of(g.longs("embeddings.range_start", new long[] {0}), seqLen,
                g.longs("embeddings.range_step", new long[] {1})));
        String pos = g.op("Gather", "embeddings", List.of(posEmb, positions), attr("axis", 0L));
        String emb = l.add("embeddings", l.add("embeddings", words, pos), typeEmb);
        String x = l.layerNorm("embeddings.LayerNorm", emb, d, 1e-12f);

        // Extended attention mask: [B, S] int64 -> [B, 1, 1, S] float, 0 where attended, -10000 where padded.
        String m = g.op("Cast", "mask", List.of(mask), attr("to", (long) DType.FLOAT32.onnxCode()));
        String inv = g.op("Sub", "mask", List.of(g.scalar("mask.one", 1f), m));
        String bias = g.op("Mul", "mask", List.of(inv, g.scalar("mask.min", -10000f)));
        String additive = g.op("Unsqueeze", "mask", List.of(bias, g.vector("mask.axes", 1, 2)));

        for (int i = 0; i < c.layers(); i++) {
            String p = "encoder.layer." + i;
            String a = l.selfAttention(p + ".attention", x, d, c.heads(), additive, true, tokens, seq);
            x = l.layerNorm(p + ".attention.output.LayerNorm", l.add(p, x, a), d, 1e-12f);
            String f = l.feedForward(p + ".ffn", x, d, c.intermediate(), tokens);
            x = l.layerNorm(p + ".output.LayerNorm", l.add(p, x, f), d, 1e-12f);
        }
        g.opInto("Identity", "last_hidden_state", List.of(x));

        // Pooler: tanh(dense(hidden state of [CLS])).
        String cls = g.op("Gather", "pooler", List.of(x, g.longs("pooler.cls_index", new long[] {0})), attr("axis", 1L));
        double bound = Math.sqrt(6.0 / (2 * d));
        String wp = g.uniform("pooler.dense.weight", bound, d, d);
        String bp = g.uniform("pooler.dense.bias", 0.02, d);
        String dense = g.op("Gemm", "pooler", List.of(cls, wp, bp), attr("transB", 1L));
        g.addFlops(2.0 * batch * d * d);
        g.opInto("Tanh", "pooler_output", List.of(dense));

        g.output("last_hidden_state", DType.FLOAT32, "batch", "sequence", (long) d);
        g.output("pooler_output", DType.FLOAT32, "batch", (long) d);
        return new GeneratedModel(g.build("BERT-style encoder generated by Accelbridge: " + c), g.flops());
    }
}
