package dev.accelbridge.suites.generation;

import dev.accelbridge.core.DType;
import dev.accelbridge.suites.onnx.GeneratedModel;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.Layers;

import java.util.List;

import static dev.accelbridge.suites.onnx.GraphBuilder.attr;
import static dev.accelbridge.suites.onnx.GraphBuilder.ints;

/**
 * A Llama-style decoder with a KV cache, authored in plain ONNX ops (opset 17) under the names Hugging Face exporters and
 * transformers.js use: RMSNorm, rotary positions (the {@code rotate_half} form, tables gathered by {@code position_ids}),
 * grouped-query attention whose keys and values are the past concatenated with the new ones (given back as
 * {@code present.N.key|value}), a causal mask offset by the past's length joined with the padding in
 * {@code attention_mask}, and a SiLU-gated MLP. Batch, sequence and past length are symbolic, so one file serves the
 * prompt's prefill, single-token steps, steps of several tokens and padded batches.
 *
 * <p>Inputs: {@code input_ids}, {@code position_ids} int64 [batch, sequence]; {@code attention_mask} int64
 * [batch, past + sequence]; {@code past_key_values.N.key|value} float32 [batch, kv_heads, past, head_dim]. Outputs:
 * {@code logits} float32 [batch, sequence, vocab]; {@code present.N.key|value} float32 [batch, kv_heads, past + sequence,
 * head_dim].
 *
 * <p>The output head is scaled ({@link Config#logitScale}) so that the logits spread widely: greedy decoding then has a
 * clear top-1 margin and is stable under float noise (asserted for the suite's seed by its tests).
 */
public final class LlamaDecoderModel {
    /** The additive bias of a masked position: large and finite, so a fully masked (padded) row stays finite. */
    static final float MASKED = -1e9f;

    private LlamaDecoderModel() {
    }

    /**
     * Shape of the decoder.
     *
     * @param vocab        vocabulary size
     * @param hidden       hidden size
     * @param layers       decoder layers
     * @param heads        query heads
     * @param kvHeads      key/value heads (grouped-query attention; divides {@code heads})
     * @param intermediate MLP width
     * @param maxPositions rows of the rotary tables (longest past + sequence)
     * @param logitScale   the output head's scale (a wide logit spread: a clear top-1 margin)
     * @param brokenFrom   for tests of the harness itself: attention drops the oldest key when a query's position is at least
     *                     this (a deliberate defect at cache depth ≥ brokenFrom); 0 for a correct decoder
     * @param ropeTheta    the rotary base (10,000 for Llama 2; 1,000,000 for Qwen2.5)
     * @param style        the layout's details that differ between the published families
     */
    public record Config(int vocab, int hidden, int layers, int heads, int kvHeads, int intermediate, int maxPositions,
                         double logitScale, int brokenFrom, double ropeTheta, Style style) {
        public Config {
            if (hidden % heads != 0 || heads % kvHeads != 0 || (hidden / heads) % 2 != 0) {
                throw new IllegalArgumentException("hidden " + hidden + ", heads " + heads + ", kv heads " + kvHeads
                        + ": heads must divide hidden into an even head size, kv heads must divide heads");
            }
            java.util.Objects.requireNonNull(style, "style");
        }

        /** A Llama-layout decoder with the rotary base 10,000. */
        public Config(int vocab, int hidden, int layers, int heads, int kvHeads, int intermediate, int maxPositions,
                      double logitScale, int brokenFrom) {
            this(vocab, hidden, layers, heads, kvHeads, intermediate, maxPositions, logitScale, brokenFrom, 10000.0, Style.LLAMA);
        }

        /**
         * The layout of {@code Qwen/Qwen2.5-0.5B} as published: hidden 896, 24 layers, 14 heads over 2 kv heads, MLP 4864,
         * 151,936 words, biases on q, k and v, the output head tied to the embedding, rotary base 1,000,000 (494,032,768
         * parameters). Its rotary tables are cut to {@code maxPositions} rows (the suite's cases are short).
         */
        public static Config qwen25Half(int maxPositions) {
            return new Config(151936, 896, 24, 14, 2, 4864, maxPositions, 1.0, 0, 1_000_000.0, Style.QWEN2);
        }

        /**
         * The embedding's draw, uniform in ± this: 1 for a decoder with a head of its own (its head's scale sets the logits'
         * spread); for a head tied to the embedding, 4·√(3 / hidden), so the logits spread about 4 as a real model's do and
         * not about √(hidden / 3) (17 at Qwen2.5-0.5B's width, whose float noise then passes an fp32 tolerance: found when run).
         */
        public double embeddingBound() {
            return style.tiedHead ? 4 * Math.sqrt(3.0 / hidden) : 1.0;
        }

        /**
         * Its learned parameters as the published model card counts them: the embedding (once where the head is tied to
         * it), each layer's projections (and q, k, v biases where the style has them), MLP and two RMSNorms, the final norm.
         */
        public long parameters() {
            long d = hidden;
            long kv = (long) kvHeads * headDim();
            long attention = d * d + 2 * d * kv + d * d + (style.qkvBias ? d + 2 * kv : 0);
            long layer = attention + 3 * d * intermediate + 2 * d;
            return (long) vocab * d * (style.tiedHead ? 1 : 2) + layers * layer + d;
        }

        /** The default matrix's decoder ({@code llama-tiny}): hidden 64, 2 layers, 4 heads over 2 kv heads. */
        public static Config tiny(int vocab) {
            return new Config(vocab, 64, 2, 4, 2, 176, 512, 4.0, 0);
        }

        /** {@code --size large}: hidden 512, 4 layers, 8 heads over 2 kv heads, a 32k vocabulary (about 44 M parameters). */
        public static Config large() {
            return new Config(32000, 512, 4, 8, 2, 1408, 2048, 4.0, 0);
        }

        /** The head size. */
        public int headDim() {
            return hidden / heads;
        }

        /**
         * The rotary tables of every form, {@code {cos, sin}}, each (positions, head size / 2) row-major: the angle of
         * frequency {@code i} at position {@code pos} is {@code pos / ropeTheta^(2i / head size)}.
         */
        public float[][] rotaryTables() {
            int half = headDim() / 2;
            float[] cos = new float[maxPositions * half];
            float[] sin = new float[maxPositions * half];
            for (int pos = 0; pos < maxPositions; pos++) {
                for (int i = 0; i < half; i++) {
                    double angle = pos / Math.pow(ropeTheta, 2.0 * i / headDim());
                    cos[pos * half + i] = (float) Math.cos(angle);
                    sin[pos * half + i] = (float) Math.sin(angle);
                }
            }
            return new float[][] {cos, sin};
        }

        /** The same decoder whose attention is wrong from cache depth {@code depth} on. */
        public Config brokenFrom(int depth) {
            return new Config(vocab, hidden, layers, heads, kvHeads, intermediate, maxPositions, logitScale, depth, ropeTheta, style);
        }
    }

    /** What differs between the published decoder families this layout covers. */
    public enum Style {
        /** Llama: no projection biases, an output head of its own. */
        LLAMA(false, false),
        /** Qwen2: biases on q, k and v; the output head is the embedding's transpose. */
        QWEN2(true, true);

        /** Whether q, k and v have biases. */
        public final boolean qkvBias;
        /** Whether the output head is the embedding (counted once). */
        public final boolean tiedHead;

        Style(boolean qkvBias, boolean tiedHead) {
            this.qkvBias = qkvBias;
            this.tiedHead = tiedHead;
        }
    }

    /** Builds the decoder with weights from {@code seed}; the FLOP estimate is for one token at an empty cache. */
    public static GeneratedModel build(String name, Config c, long seed) {
        GraphBuilder g = new GraphBuilder(name, seed);
        Layers l = new Layers(g);
        int d = c.hidden();
        int dh = c.headDim();
        String ids = g.input("input_ids", DType.INT64, "batch", "sequence");
        String mask = g.input("attention_mask", DType.INT64, "batch", "total_sequence");
        String positions = g.input("position_ids", DType.INT64, "batch", "sequence");
        for (int i = 0; i < c.layers(); i++) {
            g.input("past_key_values." + i + ".key", DType.FLOAT32, "batch", (long) c.kvHeads(), "past_sequence", (long) dh);
            g.input("past_key_values." + i + ".value", DType.FLOAT32, "batch", (long) c.kvHeads(), "past_sequence", (long) dh);
        }

        String embed = g.uniform("model.embed_tokens.weight", c.embeddingBound(), c.vocab(), d);
        String x = g.op("Gather", "embed_tokens", List.of(embed, ids), attr("axis", 0L));
        Rotary rope = Rotary.of(g, c, positions);
        String bias = attentionBias(g, c, ids, mask);

        for (int i = 0; i < c.layers(); i++) {
            String p = "model.layers." + i;
            String a = attention(g, l, c, p + ".self_attn", rmsNorm(g, p + ".input_layernorm", x, d), rope, bias, i);
            x = l.add(p, x, a);
            x = l.add(p, x, mlp(g, l, c, p + ".mlp", rmsNorm(g, p + ".post_attention_layernorm", x, d)));
        }
        x = rmsNorm(g, "model.norm", x, d);
        double bound = c.logitScale() * Math.sqrt(6.0 / (d + c.vocab()));
        String head = c.style().tiedHead ? g.op("Transpose", "lm_head", List.of(embed), ints("perm", 1, 0))
                : g.uniform("lm_head.weight", bound, d, c.vocab());
        g.opInto("MatMul", "logits", List.of(x, head));
        g.addFlops(2.0 * d * c.vocab());

        g.output("logits", DType.FLOAT32, "batch", "sequence", (long) c.vocab());
        for (int i = 0; i < c.layers(); i++) {
            g.output("present." + i + ".key", DType.FLOAT32, "batch", (long) c.kvHeads(), "total_sequence", (long) dh);
            g.output("present." + i + ".value", DType.FLOAT32, "batch", (long) c.kvHeads(), "total_sequence", (long) dh);
        }
        return new GeneratedModel(g.build("Llama-style decoder with a KV cache generated by Accelbridge: " + c), g.flops());
    }

    /** RMSNorm over the last axis: {@code x / sqrt(mean(x²) + eps) * weight}. */
    static String rmsNorm(GraphBuilder g, String name, String x, int d) {
        String w = g.uniform(name + ".weight", 1.0, 0.1, d);
        String ms = g.op("ReduceMean", name, List.of(g.op("Mul", name, List.of(x, x))), ints("axes", -1), attr("keepdims", 1L));
        String rms = g.op("Sqrt", name, List.of(g.op("Add", name, List.of(ms, g.scalar(name + ".eps", 1e-6f)))));
        return g.op("Mul", name, List.of(g.op("Div", name, List.of(x, rms)), w));
    }

    /**
     * The additive attention bias {@code [batch, 1, sequence, past + sequence]}: 0 where a query may look, {@link #MASKED}
     * where the key is in its future (key index > past + query index) or padding ({@code attention_mask} 0).
     */
    private static String attentionBias(GraphBuilder g, Config c, String ids, String mask) {
        String n = "attention_bias";
        String total = g.op("Gather", n, List.of(g.op("Shape", n, List.of(mask)), g.longs(n + ".axis1", new long[] {1})), attr("axis", 0L));
        String seq = g.op("Gather", n, List.of(g.op("Shape", n, List.of(ids)), g.longs(n + ".seq_axis", new long[] {1})), attr("axis", 0L));
        String past = g.op("Sub", n, List.of(total, seq)); // scalars: Gather with a scalar index
        String zero = g.longs(n + ".zero", new long[] {0});
        String one = g.longs(n + ".one", new long[] {1});
        String keys = g.op("Unsqueeze", n, List.of(g.op("Range", n, List.of(zero, total, one)), g.vector(n + ".axes0", 0))); // [1, T]
        String queries = g.op("Unsqueeze", n, List.of(g.op("Range", n, List.of(past, total, one)), g.vector(n + ".axes1", 1))); // [S, 1]
        String allowed = g.op("LessOrEqual", n, List.of(keys, queries)); // [S, T]
        if (c.brokenFrom() > 0) {
            // the deliberate defect: a query at position q >= brokenFrom no longer sees key 0
            String late = g.op("GreaterOrEqual", n, List.of(queries, g.longs(n + ".broken_from", new long[] {c.brokenFrom()})));
            String first = g.op("Equal", n, List.of(keys, g.longs(n + ".key0", new long[] {0})));
            allowed = g.op("And", n, List.of(allowed, g.op("Not", n, List.of(g.op("And", n, List.of(late, first))))));
        }
        String causal = g.op("Where", n, List.of(allowed, g.scalar(n + ".open", 0f), g.scalar(n + ".masked", MASKED)));
        String m = g.op("Cast", n, List.of(mask), attr("to", (long) DType.FLOAT32.onnxCode()));
        String padding = g.op("Mul", n, List.of(g.op("Sub", n, List.of(g.scalar(n + ".one_f", 1f), m)), g.scalar(n + ".masked_pad", MASKED)));
        padding = g.op("Unsqueeze", n, List.of(padding, g.vector(n + ".axes12", 1, 2))); // [B, 1, 1, T]
        return g.op("Add", n, List.of(causal, padding)); // [B, 1, S, T]
    }

    private static String attention(GraphBuilder g, Layers l, Config c, String p, String h, Rotary rope, String bias, int layer) {
        int dh = c.headDim();
        int kv = c.kvHeads();
        boolean qkvBias = c.style().qkvBias;
        String q = heads(g, p + ".q", l.linear(p + ".q_proj", h, c.hidden(), c.heads() * dh, 1, qkvBias), c.heads(), dh);
        String k = heads(g, p + ".k", l.linear(p + ".k_proj", h, c.hidden(), kv * dh, 1, qkvBias), kv, dh);
        String v = heads(g, p + ".v", l.linear(p + ".v_proj", h, c.hidden(), kv * dh, 1, qkvBias), kv, dh);
        q = rope.apply(g, p + ".q_rope", q);
        k = rope.apply(g, p + ".k_rope", k);
        String presentK = g.opInto("Concat", "present." + layer + ".key", List.of("past_key_values." + layer + ".key", k), attr("axis", 2L));
        String presentV = g.opInto("Concat", "present." + layer + ".value", List.of("past_key_values." + layer + ".value", v), attr("axis", 2L));
        String kr = repeatKv(g, p + ".k_rep", presentK, c);
        String vr = repeatKv(g, p + ".v_rep", presentV, c);
        String scores = g.op("MatMul", p, List.of(q, g.op("Transpose", p, List.of(kr), ints("perm", 0, 1, 3, 2))));
        scores = g.op("Mul", p, List.of(scores, g.scalar(p + ".scale", (float) (1.0 / Math.sqrt(dh)))));
        String probs = g.op("Softmax", p, List.of(g.op("Add", p, List.of(scores, bias))), attr("axis", -1L));
        String ctx = g.op("Transpose", p, List.of(g.op("MatMul", p, List.of(probs, vr))), ints("perm", 0, 2, 1, 3));
        ctx = g.op("Reshape", p, List.of(ctx, g.vector(p + ".merge_shape", 0, 0, (long) c.heads() * dh)));
        g.addFlops(4.0 * c.heads() * dh);
        return l.linear(p + ".o_proj", ctx, c.heads() * dh, c.hidden(), 1, false);
    }

    /** [B, S, n·dh] to [B, n, S, dh]. */
    private static String heads(GraphBuilder g, String name, String x, int n, int dh) {
        String r = g.op("Reshape", name, List.of(x, g.vector(name + ".shape", 0, 0, n, dh)));
        return g.op("Transpose", name, List.of(r), ints("perm", 0, 2, 1, 3));
    }

    /** Grouped-query attention: each of the {@code kvHeads} heads [B, kv, T, dh] repeated for its group, to [B, heads, T, dh]. */
    private static String repeatKv(GraphBuilder g, String name, String x, Config c) {
        int group = c.heads() / c.kvHeads();
        if (group == 1) {
            return x;
        }
        String u = g.op("Unsqueeze", name, List.of(x, g.vector(name + ".axes", 2))); // [B, kv, 1, T, dh]
        String e = g.op("Expand", name, List.of(u, g.vector(name + ".group", 1, 1, group, 1, 1)));
        return g.op("Reshape", name, List.of(e, g.vector(name + ".shape", 0, c.heads(), -1, c.headDim())));
    }

    private static String mlp(GraphBuilder g, Layers l, Config c, String p, String h) {
        String gate = l.linear(p + ".gate_proj", h, c.hidden(), c.intermediate(), 1, false);
        String up = l.linear(p + ".up_proj", h, c.hidden(), c.intermediate(), 1, false);
        String silu = g.op("Mul", p, List.of(gate, g.op("Sigmoid", p, List.of(gate))));
        return l.linear(p + ".down_proj", g.op("Mul", p, List.of(silu, up)), c.intermediate(), c.hidden(), 1, false);
    }

    /** The rotary tables gathered at {@code position_ids}, [B, 1, S, dh] each, and how to apply them. */
    private record Rotary(String cos, String sin, int half) {
        static Rotary of(GraphBuilder g, Config c, String positions) {
            int dh = c.headDim();
            int half = dh / 2;
            float[][] t = c.rotaryTables();
            // the rotate_half form repeats each half table over both halves of the head
            float[] cos = new float[c.maxPositions() * dh];
            float[] sin = new float[c.maxPositions() * dh];
            for (int pos = 0; pos < c.maxPositions(); pos++) {
                for (int k = 0; k < 2; k++) {
                    System.arraycopy(t[0], pos * half, cos, pos * dh + k * half, half);
                    System.arraycopy(t[1], pos * half, sin, pos * dh + k * half, half);
                }
            }
            String n = "rotary";
            String cg = g.op("Gather", n, List.of(g.floats(n + ".cos_cached", cos, c.maxPositions(), dh), positions), attr("axis", 0L));
            String sg = g.op("Gather", n, List.of(g.floats(n + ".sin_cached", sin, c.maxPositions(), dh), positions), attr("axis", 0L));
            return new Rotary(g.op("Unsqueeze", n, List.of(cg, g.vector(n + ".axes_c", 1))),
                    g.op("Unsqueeze", n, List.of(sg, g.vector(n + ".axes_s", 1))), half);
        }

        /** {@code x * cos + rotate_half(x) * sin}, {@code rotate_half(x) = concat(-x2, x1)}. */
        String apply(GraphBuilder g, String name, String x) {
            List<String> halves = g.opN("Split", name, 2, List.of(x, g.vector(name + ".split", half, half)), attr("axis", -1L));
            String rotated = g.op("Concat", name, List.of(g.op("Neg", name, List.of(halves.get(1))), halves.get(0)), attr("axis", -1L));
            return g.op("Add", name, List.of(g.op("Mul", name, List.of(x, cos)), g.op("Mul", name, List.of(rotated, sin))));
        }
    }
}
