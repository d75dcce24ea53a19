package dev.accelbridge.suites.generation;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.Float16;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.GeneratedModel;
import dev.accelbridge.suites.onnx.GraphBuilder;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.SplittableRandom;

import static dev.accelbridge.suites.onnx.GraphBuilder.attr;

/**
 * The decoder of {@link LlamaDecoderModel} in the form ONNX Runtime's model builder emits for the web: every projection a
 * {@code MatMulNBits} of int4 weights in blocks of 32 (quantized from the same kind of weights, symmetric, zero point
 * 8), {@code SimplifiedLayerNormalization} then {@code SkipSimplifiedLayerNormalization} carrying the residual,
 * {@code RotaryEmbedding} on queries and keys, and {@code GroupQueryAttention} fed {@code seqlens_k} and
 * {@code total_sequence_length} computed from {@code attention_mask} inside the graph, as published exports do. The
 * activations and the cache are fp32 or fp16; the logits are fp32 either way (cast at the end).
 *
 * <p>Inputs and outputs carry the plain form's Hugging Face names ({@link dev.accelbridge.core.DecoderLayout} reads
 * them), so the same generation loop, verification and reports apply.
 */
public final class OptimizedDecoderModel {
    /** The block size of the int4 weights (the model builder's default). */
    public static final int BLOCK = 32;
    private static final String MS = "com.microsoft.";

    private OptimizedDecoderModel() {
    }

    /**
     * Builds the decoder with weights from {@code seed}.
     *
     * @param act {@link DType#FLOAT32} or {@link DType#FLOAT16}: the activations' and the cache's type
     */
    public static GeneratedModel build(String name, LlamaDecoderModel.Config c, DType act, long seed) {
        if (act != DType.FLOAT32 && act != DType.FLOAT16) {
            throw new IllegalArgumentException("activations are fp32 or fp16, not " + act);
        }
        Weights w = new Weights(new GraphBuilder(name, seed), new SplittableRandom(seed), act);
        GraphBuilder g = w.g;
        int d = c.hidden();
        int dh = c.headDim();
        String ids = g.input("input_ids", DType.INT64, "batch", "sequence");
        String mask = g.input("attention_mask", DType.INT64, "batch", "total_sequence");
        String positions = g.input("position_ids", DType.INT64, "batch", "sequence");
        for (int i = 0; i < c.layers(); i++) {
            g.input("past_key_values." + i + ".key", act, "batch", (long) c.kvHeads(), "past_sequence", (long) dh);
            g.input("past_key_values." + i + ".value", act, "batch", (long) c.kvHeads(), "past_sequence", (long) dh);
        }
        // what GroupQueryAttention wants, from the mask, as the model builder writes it
        String n = "attn_mask_reformat";
        String seqlensK = g.op("Cast", n, List.of(g.op("Sub", n, List.of(g.op("ReduceSum", n, List.of(mask, g.vector(n + ".axes", 1)),
                attr("keepdims", 0L)), g.longs(n + ".one", new long[] {1})))), attr("to", (long) DType.INT32.onnxCode()));
        String total = g.op("Cast", n, List.of(g.op("Gather", n, List.of(g.op("Shape", n, List.of(mask)), g.longs(n + ".idx", new long[] {1})),
                attr("axis", 0L))), attr("to", (long) DType.INT32.onnxCode()));
        String[] rope = rotaryCaches(w, c);

        float[] embedding = w.draw(c.embeddingBound(), (long) c.vocab() * d);
        String x = g.op("Gather", "embed_tokens", List.of(w.tensor("model.embed_tokens.weight", embedding, c.vocab(), d), ids),
                attr("axis", 0L));
        String residual = x;
        String h = g.op("SimplifiedLayerNormalization", "model.layers.0.input_layernorm", List.of(x, w.norm("model.layers.0.input_layernorm", d)),
                attr("epsilon", 1e-6f));
        for (int i = 0; i < c.layers(); i++) {
            String p = "model.layers." + i;
            String a = attention(w, c, p + ".self_attn", h, positions, rope, seqlensK, total, i);
            List<String> post = skipNorm(w, p + ".post_attention_layernorm", a, residual, d);
            residual = post.get(1);
            String m = mlp(w, c, p + ".mlp", post.get(0));
            String next = i + 1 < c.layers() ? "model.layers." + (i + 1) + ".input_layernorm" : "model.norm";
            List<String> pre = skipNorm(w, next, m, residual, d);
            h = pre.get(0);
            residual = pre.get(1);
        }
        double bound = c.logitScale() * Math.sqrt(6.0 / (d + c.vocab()));
        // a tied head is the embedding's transpose: output o's column is the embedding's row o, quantized as exports do
        String logits = c.style().tiedHead ? w.linear("lm_head", h, d, c.vocab(), (col, o) -> System.arraycopy(embedding, o * d, col, 0, d))
                : w.linear("lm_head", h, d, c.vocab(), bound); // its FLOPs counted by linear, as every projection's
        if (act == DType.FLOAT16) {
            g.opInto("Cast", "logits", List.of(logits), attr("to", (long) DType.FLOAT32.onnxCode()));
        } else {
            g.opInto("Identity", "logits", List.of(logits));
        }
        g.output("logits", DType.FLOAT32, "batch", "sequence", (long) c.vocab());
        for (int i = 0; i < c.layers(); i++) {
            g.output("present." + i + ".key", act, "batch", (long) c.kvHeads(), "total_sequence", (long) dh);
            g.output("present." + i + ".value", act, "batch", (long) c.kvHeads(), "total_sequence", (long) dh);
        }
        return new GeneratedModel(g.build("Llama-style decoder in ONNX Runtime's optimized form (GroupQueryAttention, RotaryEmbedding, "
                + "SkipSimplifiedLayerNormalization, int4 MatMulNBits), " + act.name().toLowerCase(java.util.Locale.ROOT)
                + " activations, generated by Accelbridge: " + c), g.flops());
    }

    /** {@code SkipSimplifiedLayerNormalization(x, skip)}: the normalized sum, and the sum itself (the next residual). */
    private static List<String> skipNorm(Weights w, String name, String x, String skip, int d) {
        String out = name + "/output_0";
        String sum = name + "/output_3";
        w.g.nodeInto(MS + "SkipSimplifiedLayerNormalization", name + "/SkipSimplifiedLayerNorm", List.of(x, skip, w.norm(name, d)),
                List.of(out, "", "", sum), attr("epsilon", 1e-6f));
        return List.of(out, sum);
    }

    private static String attention(Weights w, LlamaDecoderModel.Config c, String p, String h, String positions, String[] rope,
                                    String seqlensK, String total, int layer) {
        GraphBuilder g = w.g;
        int dh = c.headDim();
        int kv = c.kvHeads();
        double bq = Math.sqrt(6.0 / (c.hidden() + c.heads() * dh));
        double bk = Math.sqrt(6.0 / (c.hidden() + kv * dh));
        String q = w.biased(p + ".q_proj", w.linear(p + ".q_proj", h, c.hidden(), c.heads() * dh, bq), c.heads() * dh, c.style().qkvBias);
        String k = w.biased(p + ".k_proj", w.linear(p + ".k_proj", h, c.hidden(), kv * dh, bk), kv * dh, c.style().qkvBias);
        String v = w.biased(p + ".v_proj", w.linear(p + ".v_proj", h, c.hidden(), kv * dh, bk), kv * dh, c.style().qkvBias);
        q = g.op(MS + "RotaryEmbedding", p + ".q_rotary", List.of(q, positions, rope[0], rope[1]), attr("num_heads", (long) c.heads()));
        k = g.op(MS + "RotaryEmbedding", p + ".k_rotary", List.of(k, positions, rope[0], rope[1]), attr("num_heads", (long) kv));
        String out = p + "/GroupQueryAttention/output_0";
        g.nodeInto(MS + "GroupQueryAttention", p + "/GroupQueryAttention", List.of(q, k, v, "past_key_values." + layer + ".key",
                        "past_key_values." + layer + ".value", seqlensK, total),
                List.of(out, "present." + layer + ".key", "present." + layer + ".value"),
                attr("num_heads", (long) c.heads()), attr("kv_num_heads", (long) kv));
        g.addFlops(4.0 * c.heads() * dh);
        return w.linear(p + ".o_proj", out, c.heads() * dh, c.hidden(), bq);
    }

    private static String mlp(Weights w, LlamaDecoderModel.Config c, String p, String h) {
        double b = Math.sqrt(6.0 / (c.hidden() + c.intermediate()));
        String gate = w.linear(p + ".gate_proj", h, c.hidden(), c.intermediate(), b);
        String up = w.linear(p + ".up_proj", h, c.hidden(), c.intermediate(), b);
        String silu = w.g.op("Mul", p, List.of(gate, w.g.op("Sigmoid", p, List.of(gate))));
        return w.linear(p + ".down_proj", w.g.op("Mul", p, List.of(silu, up)), c.intermediate(), c.hidden(), b);
    }

    /** The cos and sin caches, (positions, head size / 2), of the {@code rotate_half} form (not interleaved). */
    private static String[] rotaryCaches(Weights w, LlamaDecoderModel.Config c) {
        float[][] t = c.rotaryTables();
        int half = c.headDim() / 2;
        return new String[] {w.tensor("cos_cache", t[0], c.maxPositions(), half), w.tensor("sin_cache", t[1], c.maxPositions(), half)};
    }

    /** Draws the weights and writes them in the activations' type, or as int4 blocks for a projection. */
    private static final class Weights {
        final GraphBuilder g;
        final SplittableRandom rng;
        final DType act;

        Weights(GraphBuilder g, SplittableRandom rng, DType act) {
            this.g = g;
            this.rng = rng;
            this.act = act;
        }

        /** {@code n} values uniform in [-bound, bound]. */
        float[] draw(double bound, long n) {
            float[] v = new float[Math.toIntExact(n)];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) ((rng.nextDouble() * 2 - 1) * bound);
            }
            return v;
        }

        /** {@code y + b} for a bias of {@code n} drawn as the model builder adds one after {@code MatMulNBits}; {@code y} without. */
        String biased(String name, String y, int n, boolean bias) {
            return bias ? g.op("Add", name + "/Add", List.of(y, tensor(name + ".bias", draw(0.02, n), n))) : y;
        }

        /** A norm's weight near 1. */
        String norm(String name, int d) {
            float[] v = new float[d];
            for (int i = 0; i < d; i++) {
                v[i] = (float) (1.0 + (rng.nextDouble() * 2 - 1) * 0.1);
            }
            return tensor(name + ".weight", v, d);
        }

        String tensor(String name, float[] v, long... shape) {
            ByteBuffer b = ByteBuffer.allocate(v.length * act.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
            for (float x : v) {
                if (act == DType.FLOAT16) {
                    b.putShort(Float16.fromFloat(x));
                } else {
                    b.putFloat(x);
                }
            }
            return g.constant(name, new NamedTensor(name, act, shape, b.array()));
        }

        /**
         * {@code x · W} for a weight W (in, out) uniform in [-bound, bound], quantized to int4 along {@code in} in blocks of
         * {@link #BLOCK}: B is (out, blocks, BLOCK / 2) bytes, low nibble first; one scale per block (max |w| / 7), zero
         * point 8 (the default, so none is stored).
         */
        String linear(String name, String x, int in, int out, double bound) {
            return linear(name, x, in, out, (col, o) -> {
                for (int i = 0; i < in; i++) {
                    col[i] = (float) ((rng.nextDouble() * 2 - 1) * bound);
                }
            });
        }

        /** {@code x · W} for a weight W (in, out) whose column {@code o} {@code columns} fills, quantized as above. */
        String linear(String name, String x, int in, int out, java.util.function.ObjIntConsumer<float[]> columns) {
            int blocks = (in + BLOCK - 1) / BLOCK;
            byte[] packed = new byte[out * blocks * BLOCK / 2];
            float[] scales = new float[out * blocks];
            float[] col = new float[in];
            for (int o = 0; o < out; o++) {
                columns.accept(col, o);
                for (int blk = 0; blk < blocks; blk++) {
                    float max = 0;
                    for (int i = blk * BLOCK; i < Math.min(in, (blk + 1) * BLOCK); i++) {
                        max = Math.max(max, Math.abs(col[i]));
                    }
                    float scale = max == 0 ? 1f : max / 7f;
                    scales[o * blocks + blk] = scale;
                    for (int j = 0; j < BLOCK; j++) {
                        int i = blk * BLOCK + j;
                        int q = i < in ? (int) Math.max(0, Math.min(15, Math.round(col[i] / scale) + 8)) : 8;
                        int at = (o * blocks + blk) * BLOCK / 2 + j / 2;
                        packed[at] = (byte) (j % 2 == 0 ? (packed[at] & 0xF0) | q : (packed[at] & 0x0F) | (q << 4));
                    }
                }
            }
            String b = g.constant(name + ".qweight", new NamedTensor(name + ".qweight", DType.UINT8, new long[] {out, blocks, BLOCK / 2}, packed));
            String s = tensor(name + ".scales", scales, (long) out * blocks);
            g.addFlops(2.0 * in * out);
            return g.op(MS + "MatMulNBits", name, List.of(x, b, s), attr("K", (long) in), attr("N", (long) out), attr("bits", 4L),
                    attr("block_size", (long) BLOCK));
        }
    }
}
