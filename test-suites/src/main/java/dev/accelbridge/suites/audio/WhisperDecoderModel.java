package dev.accelbridge.suites.audio;

import dev.accelbridge.core.DType;
import dev.accelbridge.suites.onnx.GeneratedModel;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.Layers;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static dev.accelbridge.suites.onnx.GraphBuilder.attr;
import static dev.accelbridge.suites.onnx.GraphBuilder.ints;

/**
 * A Whisper-style merged decoder authored as ONNX in the form Hugging Face Optimum exports {@code decoder_model_merged.onnx}:
 * an {@code If} on {@code use_cache_branch} between the graph without a past (the first step: the cross-attention keys and
 * values computed from {@code encoder_hidden_states}) and the graph with one (every later step: the self-attention cache
 * grown by the new tokens, the cross-attention cache passed through). Both branches read the outer graph's weights. Each
 * layer is pre-LN: causal self-attention, cross-attention over the encoder's states, a GELU MLP; learned positions offset by
 * the past; logits over a small character vocabulary ({@link #TOKENS}).
 *
 * <p>Inputs: {@code input_ids [batch_size, decoder_sequence_length]}, {@code encoder_hidden_states [batch_size,
 * encoder_sequence_length, d]}, per layer {@code past_key_values.N.decoder.key|value} and
 * {@code past_key_values.N.encoder.key|value} {@code [batch_size, heads, *, head_dim]}, {@code use_cache_branch} bool
 * {@code [1]}. Outputs: {@code logits} and per layer {@code present.N.decoder.key|value}, {@code present.N.encoder.key|value}.
 */
public final class WhisperDecoderModel {
    /** The vocabulary: Whisper's task tokens, then characters. */
    public static final List<String> TOKENS = List.copyOf(java.util.stream.Stream.concat(
            java.util.stream.Stream.of("<|endoftext|>", "<|startoftranscript|>", "<|en|>", "<|transcribe|>", "<|notimestamps|>", " ", "'", ".", ","),
            IntStream.rangeClosed('a', 'z').mapToObj(ch -> String.valueOf((char) ch))).toList());
    /** The forced decoder prompt: start of transcript, English, transcribe, no timestamps. */
    public static final long[] PROMPT = {1, 2, 3, 4};

    private WhisperDecoderModel() {
    }

    /**
     * @param dModel       width (the encoder's)
     * @param layers       decoder layers
     * @param heads        attention heads
     * @param maxPositions learned positions (the longest transcript)
     */
    public record Config(int dModel, int layers, int heads, int maxPositions) {
        public Config {
            if (dModel % heads != 0) {
                throw new IllegalArgumentException("heads must divide the width: " + this);
            }
        }

        int headDim() {
            return dModel / heads;
        }
    }

    /** {@code tokens} as text: task tokens dropped, characters joined. */
    public static String text(long[] tokens) {
        return java.util.Arrays.stream(tokens).mapToObj(t -> t >= 0 && t < TOKENS.size() ? TOKENS.get((int) t) : "<" + t + ">")
                .filter(t -> !t.startsWith("<|")).collect(Collectors.joining());
    }

    public static GeneratedModel build(String name, Config c, long seed) {
        GraphBuilder g = new GraphBuilder(name, seed);
        int d = c.dModel();
        int v = TOKENS.size();
        g.input("input_ids", DType.INT64, "batch_size", "decoder_sequence_length");
        g.input("encoder_hidden_states", DType.FLOAT32, "batch_size", "encoder_sequence_length", (long) d);
        List<String> presents = new ArrayList<>();
        for (int i = 0; i < c.layers(); i++) {
            for (String kind : List.of("decoder", "encoder")) {
                for (String kv : List.of("key", "value")) {
                    g.input("past_key_values." + i + "." + kind + "." + kv, DType.FLOAT32, "batch_size", (long) c.heads(),
                            kind.equals("decoder") ? "past_decoder_sequence_length" : "encoder_sequence_length_out", (long) c.headDim());
                    presents.add("present." + i + "." + kind + "." + kv);
                }
            }
        }
        g.input("use_cache_branch", DType.BOOL, 1L);
        weights(g, c, v);
        List<String> outs = new ArrayList<>(List.of("logits"));
        outs.addAll(presents);
        g.nodeInto("If", "optimum::if", List.of("use_cache_branch"), outs, graph("then_branch", branch(c, true, outs)),
                graph("else_branch", branch(c, false, outs)));
        g.output("logits", DType.FLOAT32, "batch_size", "decoder_sequence_length", (long) v);
        for (String p : presents) {
            g.output(p, DType.FLOAT32, "batch_size", (long) c.heads(), p.contains(".decoder.") ? "present_decoder_sequence_length"
                    : "encoder_sequence_length_out", (long) c.headDim());
        }
        // per decoded token: self-attention, cross-attention and MLP projections, and the logits
        g.addFlops(2.0 * c.layers() * (4.0 * d * d + 2.0 * d * d + 8.0 * d * d) + 2.0 * d * v);
        return new GeneratedModel(g.build("Whisper-style merged decoder (use_cache_branch If) generated by Accelbridge: " + c), g.flops());
    }

    /** The weights, in the outer graph where both branches read them. */
    private static void weights(GraphBuilder g, Config c, int v) {
        int d = c.dModel();
        double proj = Math.sqrt(6.0 / (2 * d));
        g.uniform("model.decoder.embed_tokens.weight", 1.0, v, d);
        g.uniform("model.decoder.embed_positions.weight", 0.5, c.maxPositions(), d);
        for (int i = 0; i < c.layers(); i++) {
            String p = "model.decoder.layers." + i;
            for (String attn : List.of("self_attn", "encoder_attn")) {
                for (String m : List.of("q_proj", "k_proj", "v_proj", "out_proj")) {
                    g.uniform(p + "." + attn + "." + m + ".weight", proj, d, d);
                    if (!m.equals("k_proj")) { // Whisper's key projections have no bias
                        g.uniform(p + "." + attn + "." + m + ".bias", 0.02, d);
                    }
                }
                norm(g, p + "." + attn + "_layer_norm", d);
            }
            g.uniform(p + ".fc1.weight", Math.sqrt(6.0 / (5 * d)), d, 4 * d);
            g.uniform(p + ".fc1.bias", 0.02, 4 * d);
            g.uniform(p + ".fc2.weight", Math.sqrt(6.0 / (5 * d)), 4 * d, d);
            g.uniform(p + ".fc2.bias", 0.02, d);
            norm(g, p + ".final_layer_norm", d);
        }
        norm(g, "model.decoder.layer_norm", d);
        g.uniform("proj_out.weight", Math.sqrt(6.0 / (d + v)) * 4, d, v);
    }

    private static void norm(GraphBuilder g, String name, int d) {
        g.uniform(name + ".weight", 1.0, 0.1, d);
        g.uniform(name + ".bias", 0.05, d);
    }

    /** One branch: with the past (the cache grows, the cross cache passes through) or without (the first step). */
    private static GraphProto branch(Config c, boolean withPast, List<String> outs) {
        String n = withPast ? "with_past" : "no_past";
        GraphBuilder b = new GraphBuilder(n, 0);
        int d = c.dModel();
        String seqLen = b.op("Gather", n, List.of(b.op("Shape", n, List.of("input_ids")), b.vector(n + ".seq_axis", 1)), attr("axis", 0L));
        String offset = withPast
                ? b.op("Gather", n, List.of(b.op("Shape", n, List.of("past_key_values.0.decoder.key")), b.vector(n + ".past_axis", 2)), attr("axis", 0L))
                : b.vector(n + ".no_offset", 0);
        String total = b.op("Add", n, List.of(offset, seqLen));
        String one = b.longs(n + ".one", new long[] {1});
        String positions = b.op("Range", n, List.of(b.op("Squeeze", n, List.of(offset)), b.op("Squeeze", n, List.of(total)), one));
        String x = b.op("Add", n, List.of(b.op("Gather", n, List.of("model.decoder.embed_tokens.weight", "input_ids"), attr("axis", 0L)),
                b.op("Gather", n, List.of("model.decoder.embed_positions.weight", positions), attr("axis", 0L))));
        // causal: a key after the query's own position is masked ([new, total], -1e4)
        String keys = b.op("Range", n, List.of(b.longs(n + ".zero", new long[] {0}), b.op("Squeeze", n, List.of(total)), one));
        String later = b.op("Greater", n, List.of(b.op("Unsqueeze", n, List.of(keys, b.vector(n + ".row", 0))),
                b.op("Unsqueeze", n, List.of(positions, b.vector(n + ".col", 1)))));
        String mask = b.op("Mul", n, List.of(b.op("Cast", n, List.of(later), attr("to", (long) DType.FLOAT32.onnxCode())), b.scalar(n + ".min", -10000f)));
        String heads = b.vector(n + ".split", 0, 0, c.heads(), c.headDim());
        String merge = b.vector(n + ".merge", 0, 0, d);
        String scale = b.scalar(n + ".scale", (float) (1.0 / Math.sqrt(c.headDim())));
        for (int i = 0; i < c.layers(); i++) {
            String p = "model.decoder.layers." + i;
            String past = "past_key_values." + i;
            String present = n + "/present." + i;
            String h = norm(b, n, p + ".self_attn_layer_norm", x);
            String q = split(b, n, linear(b, n, h, p + ".self_attn.q_proj", true), heads);
            String k = split(b, n, linear(b, n, h, p + ".self_attn.k_proj", false), heads);
            String v = split(b, n, linear(b, n, h, p + ".self_attn.v_proj", true), heads);
            if (withPast) {
                k = b.op("Concat", n, List.of(past + ".decoder.key", k), attr("axis", 2L));
                v = b.op("Concat", n, List.of(past + ".decoder.value", v), attr("axis", 2L));
            }
            b.opInto("Identity", present + ".decoder.key", List.of(k));
            b.opInto("Identity", present + ".decoder.value", List.of(v));
            x = b.op("Add", n, List.of(x, attend(b, n, q, k, v, mask, scale, merge, p + ".self_attn.out_proj")));
            h = norm(b, n, p + ".encoder_attn_layer_norm", x);
            q = split(b, n, linear(b, n, h, p + ".encoder_attn.q_proj", true), heads);
            String ck = withPast ? past + ".encoder.key" : split(b, n, linear(b, n, "encoder_hidden_states", p + ".encoder_attn.k_proj", false), heads);
            String cv = withPast ? past + ".encoder.value" : split(b, n, linear(b, n, "encoder_hidden_states", p + ".encoder_attn.v_proj", true), heads);
            b.opInto("Identity", present + ".encoder.key", List.of(ck));
            b.opInto("Identity", present + ".encoder.value", List.of(cv));
            x = b.op("Add", n, List.of(x, attend(b, n, q, ck, cv, null, scale, merge, p + ".encoder_attn.out_proj")));
            h = norm(b, n, p + ".final_layer_norm", x);
            x = b.op("Add", n, List.of(x, linear(b, n, new Layers(b).gelu(n + "." + p + ".act", linear(b, n, h, p + ".fc1", true)),
                    p + ".fc2", true)));
        }
        b.opInto("MatMul", n + "/logits", List.of(norm(b, n, "model.decoder.layer_norm", x), "proj_out.weight"));
        for (String o : outs) {
            b.outputOfType(n + "/" + o, DType.FLOAT32);
        }
        return b.build(n).getGraph();
    }

    private static String linear(GraphBuilder b, String n, String x, String w, boolean bias) {
        String y = b.op("MatMul", n, List.of(x, w + ".weight"));
        return bias ? b.op("Add", n, List.of(y, w + ".bias")) : y;
    }

    private static String norm(GraphBuilder b, String n, String w, String x) {
        return b.op("LayerNormalization", n, List.of(x, w + ".weight", w + ".bias"), attr("axis", -1L), attr("epsilon", 1e-5f));
    }

    /** [B, S, d] to [B, H, S, dh]. */
    private static String split(GraphBuilder b, String n, String x, String heads) {
        return b.op("Transpose", n, List.of(b.op("Reshape", n, List.of(x, heads))), ints("perm", 0, 2, 1, 3));
    }

    private static String attend(GraphBuilder b, String n, String q, String k, String v, String mask, String scale, String merge, String out) {
        String s = b.op("Mul", n, List.of(b.op("MatMul", n, List.of(q, b.op("Transpose", n, List.of(k), ints("perm", 0, 1, 3, 2)))), scale));
        if (mask != null) {
            s = b.op("Add", n, List.of(s, mask));
        }
        String ctx = b.op("MatMul", n, List.of(b.op("Softmax", n, List.of(s), attr("axis", -1L)), v));
        ctx = b.op("Reshape", n, List.of(b.op("Transpose", n, List.of(ctx), ints("perm", 0, 2, 1, 3)), merge));
        return linear(b, n, ctx, out, true);
    }

    private static GraphBuilder.Attr graph(String name, GraphProto g) {
        return new GraphBuilder.Attr(AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.GRAPH).setG(g).build());
    }
}
