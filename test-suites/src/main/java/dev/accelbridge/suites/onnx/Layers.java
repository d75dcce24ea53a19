package dev.accelbridge.suites.onnx;

import java.util.List;

import static dev.accelbridge.suites.onnx.GraphBuilder.attr;
import static dev.accelbridge.suites.onnx.GraphBuilder.ints;

/**
 * Transformer and convolution building blocks on a {@link GraphBuilder}, shared by the suite models. Every
 * helper works on symbolic batch and sequence dimensions (Reshape with 0 copies a dimension) and adds its
 * matrix-product FLOPs to the builder's estimate given the token count of one inference.
 */
public final class Layers {
    private final GraphBuilder g;

    public Layers(GraphBuilder g) {
        this.g = g;
    }

    /** The builder these layers write to. */
    public GraphBuilder graph() {
        return g;
    }

    /**
     * {@code x @ W + b} over the last axis (Linear / Dense), Xavier-uniform weights.
     *
     * @param tokens rows processed per inference (for the FLOP estimate)
     */
    public String linear(String name, String x, int in, int out, long tokens, boolean bias) {
        double bound = Math.sqrt(6.0 / (in + out));
        String w = g.uniform(name + ".weight", bound, in, out);
        String y = g.op("MatMul", name, List.of(x, w));
        g.addFlops(2.0 * tokens * in * out);
        if (!bias) {
            return y;
        }
        String b = g.uniform(name + ".bias", 0.02, out);
        return g.op("Add", name, List.of(y, b));
    }

    /** LayerNormalization over the last axis (opset 17), scale near 1 and bias near 0. */
    public String layerNorm(String name, String x, int dim, float eps) {
        String scale = g.uniform(name + ".weight", 1.0, 0.1, dim);
        String bias = g.uniform(name + ".bias", 0.05, dim);
        return g.op("LayerNormalization", name, List.of(x, scale, bias), attr("axis", -1L), attr("epsilon", eps));
    }

    /**
     * Exact GELU, {@code 0.5 * x * (1 + erf(x / sqrt(2)))}: written with Erf because the Gelu op only exists
     * from opset 20.
     */
    public String gelu(String name, String x) {
        String sqrt2 = g.scalar(name + ".sqrt2", (float) Math.sqrt(2.0));
        String one = g.scalar(name + ".one", 1f);
        String half = g.scalar(name + ".half", 0.5f);
        String e = g.op("Erf", name, List.of(g.op("Div", name, List.of(x, sqrt2))));
        String y = g.op("Mul", name, List.of(x, g.op("Add", name, List.of(e, one))));
        return g.op("Mul", name, List.of(y, half));
    }

    /**
     * Multi-head self-attention on {@code x [B, S, d]}.
     *
     * @param additiveMask a {@code [B, 1, 1, S]} tensor added to the scores (0 keep, large negative drop), or null
     * @param keyBias      whether the key projection has a bias (BERT yes, Whisper no)
     * @param seq          sequence length of one inference, and {@code tokens = batch * seq}, for the FLOP estimate
     */
    public String selfAttention(String name, String x, int d, int heads, String additiveMask, boolean keyBias,
                                long tokens, long seq) {
        int dh = d / heads;
        String q = splitHeads(name + ".q", linear(name + ".query", x, d, d, tokens, true), heads, dh, false);
        String k = splitHeads(name + ".k", linear(name + ".key", x, d, d, tokens, keyBias), heads, dh, true);
        String v = splitHeads(name + ".v", linear(name + ".value", x, d, d, tokens, true), heads, dh, false);
        String scores = g.op("MatMul", name, List.of(q, k));
        g.addFlops(2.0 * tokens * seq * d);
        scores = g.op("Mul", name, List.of(scores, g.scalar(name + ".scale", (float) (1.0 / Math.sqrt(dh)))));
        if (additiveMask != null) {
            scores = g.op("Add", name, List.of(scores, additiveMask));
        }
        String probs = g.op("Softmax", name, List.of(scores), attr("axis", -1L));
        String ctx = g.op("MatMul", name, List.of(probs, v));
        g.addFlops(2.0 * tokens * seq * d);
        ctx = g.op("Transpose", name, List.of(ctx), ints("perm", 0, 2, 1, 3));
        ctx = g.op("Reshape", name, List.of(ctx, g.vector(name + ".merge_shape", 0, 0, d)));
        return linear(name + ".output", ctx, d, d, tokens, true);
    }

    /** [B, S, d] to [B, H, S, dh], or [B, H, dh, S] when {@code transposed} (keys, ready for q @ k). */
    private String splitHeads(String name, String x, int heads, int dh, boolean transposed) {
        String r = g.op("Reshape", name, List.of(x, g.vector(name + ".split_shape", 0, 0, heads, dh)));
        return g.op("Transpose", name, List.of(r), transposed ? ints("perm", 0, 2, 3, 1) : ints("perm", 0, 2, 1, 3));
    }

    /** Two-layer feed-forward block with GELU. */
    public String feedForward(String name, String x, int d, int hidden, long tokens) {
        String h = gelu(name + ".act", linear(name + ".fc1", x, d, hidden, tokens, true));
        return linear(name + ".fc2", h, hidden, d, tokens, true);
    }

    /** Residual add. */
    public String add(String name, String a, String b) {
        return g.op("Add", name, List.of(a, b));
    }
}
