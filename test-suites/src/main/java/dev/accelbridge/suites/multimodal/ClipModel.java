package dev.accelbridge.suites.multimodal;

import dev.accelbridge.core.DType;
import dev.accelbridge.suites.onnx.GeneratedModel;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.Layers;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.accelbridge.suites.onnx.GraphBuilder.attr;
import static dev.accelbridge.suites.onnx.GraphBuilder.ints;

/**
 * A CLIP-style two-tower model authored as ONNX, in the form Hugging Face exports CLIP: a vision transformer (patches by a
 * strided Conv, a class token, pre-LN layers, the class token's state through a projection) and a text transformer (token
 * and position embeddings, pre-LN layers with a causal and a padding mask, the last real token's state through a
 * projection) into one embedding space; both embeddings L2-normalised, and {@code logits_per_image = exp(logit_scale) *
 * image_embeds @ text_embeds^T}.
 *
 * <p>Inputs: {@code input_ids}, {@code attention_mask} int64 {@code [text_batch_size, sequence_length]}, {@code pixel_values}
 * float32 {@code [image_batch_size, 3, H, W]}. Outputs: {@code logits_per_image [images, texts]}, {@code logits_per_text},
 * {@code text_embeds}, {@code image_embeds}. Each tower is also a model of its own ({@link #tower}), the same weights.
 */
public final class ClipModel {
    private ClipModel() {
    }

    /**
     * Shape of the two towers.
     *
     * @param imageSize    image side in pixels
     * @param patch        patch side (the Conv's kernel and stride)
     * @param visionWidth  the vision transformer's width
     * @param visionLayers its layers
     * @param visionHeads  its heads
     * @param textWidth    the text transformer's width
     * @param textLayers   its layers
     * @param textHeads    its heads
     * @param vocabSize    token embedding rows (the tokenizer's vocabulary)
     * @param maxPositions text positions
     * @param embed        the shared embedding space's width
     */
    public record Config(int imageSize, int patch, int visionWidth, int visionLayers, int visionHeads, int textWidth,
                         int textLayers, int textHeads, int vocabSize, int maxPositions, int embed) {
        public Config {
            if (imageSize % patch != 0 || visionWidth % visionHeads != 0 || textWidth % textHeads != 0) {
                throw new IllegalArgumentException("patch must divide the image and heads the widths: " + this);
            }
        }

        int patches() {
            return (imageSize / patch) * (imageSize / patch);
        }
    }

    /** Which part of the model: the pair, or one tower. */
    public enum Part {
        /** Both towers and the similarity matrix. */
        PAIR,
        /** {@code pixel_values} to {@code image_embeds}. */
        VISION,
        /** {@code input_ids}, {@code attention_mask} to {@code text_embeds}. */
        TEXT
    }

    /**
     * Builds {@code part} with weights from {@code seed}; FLOPs are estimated for {@code images} images and {@code texts}
     * texts of {@code seq} tokens.
     */
    public static GeneratedModel build(String name, Config c, long seed, Part part, int images, int texts, int seq) {
        GraphBuilder g = new GraphBuilder(name, seed);
        Layers l = new Layers(g);
        String pixels = g.input("pixel_values", DType.FLOAT32, "image_batch_size", 3L, (long) c.imageSize(), (long) c.imageSize());
        String image = vision(g, l, c, pixels, images);
        double visionFlops = g.flops();
        String ids = g.input("input_ids", DType.INT64, "text_batch_size", "sequence_length");
        String mask = g.input("attention_mask", DType.INT64, "text_batch_size", "sequence_length");
        String text = text(g, l, c, ids, mask, (long) texts * seq, seq);
        double textFlops = g.flops() - visionFlops;
        g.opInto("Identity", "image_embeds", List.of(normalize(g, "image_embeds", image)));
        g.opInto("Identity", "text_embeds", List.of(normalize(g, "text_embeds", text)));
        String scale = g.op("Exp", "logit_scale", List.of(g.scalar("logit_scale", (float) Math.log(1 / 0.07))));
        String sim = g.op("MatMul", "similarity", List.of("image_embeds", g.op("Transpose", "similarity", List.of("text_embeds"),
                ints("perm", 1, 0))));
        g.addFlops(2.0 * images * texts * c.embed());
        g.opInto("Mul", "logits_per_image", List.of(sim, scale));
        g.opInto("Transpose", "logits_per_text", List.of("logits_per_image"), ints("perm", 1, 0));
        g.output("logits_per_image", DType.FLOAT32, "image_batch_size", "text_batch_size");
        g.output("logits_per_text", DType.FLOAT32, "text_batch_size", "image_batch_size");
        g.output("text_embeds", DType.FLOAT32, "text_batch_size", (long) c.embed());
        g.output("image_embeds", DType.FLOAT32, "image_batch_size", (long) c.embed());
        String doc = "CLIP-style two-tower model generated by Accelbridge: " + c;
        ModelProto pair = g.build(doc);
        return switch (part) {
            case PAIR -> new GeneratedModel(pair, g.flops());
            case VISION -> new GeneratedModel(tower(pair, "image_embeds"), visionFlops);
            case TEXT -> new GeneratedModel(tower(pair, "text_embeds"), textFlops);
        };
    }

    private static String vision(GraphBuilder g, Layers l, Config c, String pixels, int images) {
        int d = c.visionWidth();
        String p = "vision_model";
        String w = g.uniform(p + ".embeddings.patch_embedding.weight", Math.sqrt(6.0 / (3 * c.patch() * c.patch())), d, 3, c.patch(), c.patch());
        String x = g.op("Conv", p + ".embeddings", List.of(pixels, w), ints("kernel_shape", c.patch(), c.patch()),
                ints("strides", c.patch(), c.patch()));
        g.addFlops(2.0 * images * c.patches() * d * 3 * c.patch() * c.patch());
        x = g.op("Transpose", p + ".embeddings", List.of(g.op("Reshape", p + ".embeddings", List.of(x, g.vector(p + ".flat", 0, d, -1)))),
                ints("perm", 0, 2, 1));
        // the class token, one per image: expanded to [batch, 1, d] by the batch read off the pixels
        String batch = g.op("Gather", p + ".embeddings", List.of(g.op("Shape", p + ".embeddings", List.of(pixels)),
                g.vector(p + ".batch_axis", 0)), attr("axis", 0L));
        String clsShape = g.op("Concat", p + ".embeddings", List.of(batch, g.vector(p + ".cls_tail", 1, d)), attr("axis", 0L));
        String cls = g.op("Expand", p + ".embeddings", List.of(g.uniform(p + ".embeddings.class_embedding", 1.0, 1, 1, d), clsShape));
        x = g.op("Concat", p + ".embeddings", List.of(cls, x), attr("axis", 1L));
        x = l.add(p + ".embeddings", x, g.uniform(p + ".embeddings.position_embedding.weight", 1.0, c.patches() + 1, d));
        x = l.layerNorm(p + ".pre_layrnorm", x, d, 1e-5f);
        x = layers(l, p + ".encoder", x, d, c.visionLayers(), c.visionHeads(), null, (long) images * (c.patches() + 1), c.patches() + 1);
        // a rank-0 index: the class token's state, [batch, d]
        String pooled = g.op("Gather", p + ".pool", List.of(x, g.longs(p + ".cls_index", new long[] {0})), attr("axis", 1L));
        pooled = l.layerNorm(p + ".post_layernorm", pooled, d, 1e-5f);
        return l.linear("visual_projection", pooled, d, c.embed(), images, false);
    }

    private static String text(GraphBuilder g, Layers l, Config c, String ids, String mask, long tokens, int seq) {
        int d = c.textWidth();
        String p = "text_model";
        String words = g.op("Gather", p + ".embeddings", List.of(g.uniform(p + ".embeddings.token_embedding.weight", 1.0,
                c.vocabSize(), d), ids), attr("axis", 0L));
        String len = g.op("Gather", p + ".embeddings", List.of(g.op("Shape", p + ".embeddings", List.of(ids)),
                g.vector(p + ".seq_axis", 1)), attr("axis", 0L));
        String positions = g.op("Range", p + ".embeddings", List.of(g.longs(p + ".range_start", new long[] {0}),
                g.op("Squeeze", p + ".embeddings", List.of(len)), g.longs(p + ".range_step", new long[] {1})));
        String x = l.add(p + ".embeddings", words, g.op("Gather", p + ".embeddings", List.of(g.uniform(
                p + ".embeddings.position_embedding.weight", 1.0, c.maxPositions(), d), positions), attr("axis", 0L)));
        // causal [1, 1, S, S] (-1e4 above the diagonal) plus padding [B, 1, 1, S] (-1e4 where the mask is 0)
        String square = g.op("Concat", p + ".causal", List.of(len, len), attr("axis", 0L));
        String ones = g.op("Expand", p + ".causal", List.of(g.floats(p + ".causal_one", new float[] {1f}, 1, 1), square));
        String upper = g.op("Trilu", p + ".causal", List.of(ones, g.longs(p + ".causal_k", new long[] {1})), attr("upper", 1L));
        String causal = g.op("Mul", p + ".causal", List.of(upper, g.scalar(p + ".causal_min", -10000f)));
        String m = g.op("Cast", p + ".mask", List.of(mask), attr("to", (long) DType.FLOAT32.onnxCode()));
        String pad = g.op("Mul", p + ".mask", List.of(g.op("Sub", p + ".mask", List.of(g.scalar(p + ".mask_one", 1f), m)),
                g.scalar(p + ".mask_min", -10000f)));
        String additive = l.add(p + ".mask", g.op("Unsqueeze", p + ".mask", List.of(pad, g.vector(p + ".mask_axes", 1, 2))), causal);
        x = layers(l, p + ".encoder", x, d, c.textLayers(), c.textHeads(), additive, tokens, seq);
        x = l.layerNorm(p + ".final_layer_norm", x, d, 1e-5f);
        // pooled at each text's last real token (its end-of-text), as CLIP pools at the EOS position
        String last = g.op("Sub", p + ".pool", List.of(g.op("ReduceSum", p + ".pool", List.of(mask, g.vector(p + ".pool_axis", 1)),
                attr("keepdims", 1L)), g.longs(p + ".pool_one", new long[] {1})));
        String index = g.op("Expand", p + ".pool", List.of(g.op("Unsqueeze", p + ".pool", List.of(last, g.vector(p + ".pool_axes", 2))),
                g.op("Concat", p + ".pool", List.of(g.op("Shape", p + ".pool", List.of(last)), g.vector(p + ".pool_width", d)),
                        attr("axis", 0L))));
        String pooled = g.op("Squeeze", p + ".pool", List.of(g.op("GatherElements", p + ".pool", List.of(x, index), attr("axis", 1L)),
                g.vector(p + ".pool_squeeze", 1)));
        return l.linear("text_projection", pooled, d, c.embed(), tokens / seq, false);
    }

    /** Pre-LN transformer layers: {@code x + attn(LN(x))}, then {@code x + mlp(LN(x))}. */
    private static String layers(Layers l, String p, String x, int d, int layers, int heads, String mask, long tokens, long seq) {
        for (int i = 0; i < layers; i++) {
            String q = p + ".layers." + i;
            x = l.add(q, x, l.selfAttention(q + ".self_attn", l.layerNorm(q + ".layer_norm1", x, d, 1e-5f), d, heads, mask, true, tokens, seq));
            x = l.add(q, x, l.feedForward(q + ".mlp", l.layerNorm(q + ".layer_norm2", x, d, 1e-5f), d, 4 * d, tokens));
        }
        return x;
    }

    private static String normalize(GraphBuilder g, String p, String x) {
        return g.op("Div", p, List.of(x, g.op("ReduceL2", p, List.of(x), ints("axes", -1), attr("keepdims", 1L))));
    }

    /**
     * One tower of {@code pair}: the nodes {@code output} needs, the inputs and initializers they read, {@code output} alone
     * out. The weights are the pair's, so a tower's embeddings are the pair's.
     */
    public static ModelProto tower(ModelProto pair, String output) {
        GraphProto g = pair.getGraph();
        Set<String> needed = new HashSet<>(List.of(output));
        List<NodeProto> kept = new ArrayList<>();
        List<NodeProto> nodes = g.getNodeList();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            NodeProto n = nodes.get(i);
            if (n.getOutputList().stream().anyMatch(needed::contains)) {
                kept.add(0, n);
                needed.addAll(n.getInputList());
            }
        }
        GraphProto.Builder b = g.toBuilder().clearNode().addAllNode(kept).clearInput().clearOutput().clearInitializer();
        g.getInputList().stream().filter(v -> needed.contains(v.getName())).forEach(b::addInput);
        g.getOutputList().stream().filter(v -> v.getName().equals(output)).forEach(b::addOutput);
        g.getInitializerList().stream().filter(t -> needed.contains(t.getName())).forEach(b::addInitializer);
        return pair.toBuilder().setGraph(b).build();
    }
}
