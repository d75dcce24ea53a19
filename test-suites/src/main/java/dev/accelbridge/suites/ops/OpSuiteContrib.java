package dev.accelbridge.suites.ops;

import dev.accelbridge.core.DType;

import java.util.ArrayList;
import java.util.List;

import static dev.accelbridge.suites.ops.Op.ms;
import static dev.accelbridge.suites.ops.Op.op;

/**
 * The op suite's cases of ONNX Runtime's own operators ({@code com.microsoft}, and the two normalizations it registers
 * in the default domain), the ones exporters and the model builder fuse optimized models into: attention in its three
 * forms, rotary embedding, the skip and simplified normalizations, the GELU variants, int4 {@code MatMulNBits} and
 * {@code GatherBlockQuantized}, {@code FusedConv}. Inputs are made per op (positions, sequence lengths, masks), and
 * the regions where defects live are cases of their own: attention at past lengths 0, 1, 16, 64 and 256, a padded and a
 * causal mask, {@code MatMulNBits} at every block size, with and without zero points, and with K = 4096 in fp16.
 */
final class OpSuiteContrib {
    private static final DType F = DType.FLOAT32;
    private static final DType H = DType.FLOAT16;
    private static final DType I64 = DType.INT64;
    private static final DType I32 = DType.INT32;
    private static final DType U8 = DType.UINT8;
    /** Per-block scales of int4 weights: small and positive, as quantizers write them. */
    private static final Gen SCALES = Gen.range(0.005, 0.05);
    /** Packed int4 weights or zero points: any byte (two nibbles). */
    private static final Gen NIBBLES = Gen.ints(0, 255);

    private OpSuiteContrib() {
    }

    static List<OpCase> cases() {
        List<OpCase> l = new ArrayList<>();
        activations(l);
        normalizations(l);
        rotary(l);
        matMulNBits(l);
        gatherBlockQuantized(l);
        attention(l);
        multiHeadAttention(l);
        groupQueryAttention(l);
        fusedConv(l);
        return l;
    }

    private static void activations(List<OpCase> l) {
        l.add(ms("FastGelu").in(F, 2, 3, 8).v("f32"));
        l.add(ms("FastGelu").in(F, 2, 3, 8).in(F, 8).v("f32.bias"));
        l.add(ms("FastGelu").in(H, 2, 3, 8).v("f16"));
        l.add(ms("Gelu").in(F, 2, 3, 8).v("f32"));
        l.add(ms("Gelu").in(H, 2, 3, 8).v("f16"));
        l.add(ms("BiasGelu").in(F, 2, 3, 8).in(F, 8).v("f32"));
        l.add(ms("QuickGelu").in(F, 2, 3, 8).v("f32.alpha=1.702"));
        l.add(ms("QuickGelu").in(F, 2, 3, 8).a("alpha", 1.0).v("f32.alpha=1"));
    }

    private static void normalizations(List<OpCase> l) {
        l.add(ms("SkipLayerNormalization").in(F, 2, 4, 32).in(F, 2, 4, 32).c(F, Gen.NORMAL, 32).c(F, Gen.NORMAL, 32).v("f32"));
        l.add(ms("SkipLayerNormalization").in(F, 2, 4, 32).in(F, 2, 4, 32).c(F, Gen.NORMAL, 32).c(F, Gen.NORMAL, 32)
                .c(F, Gen.NORMAL, 32).a("epsilon", 1e-5).v("f32.bias.epsilon=1e-5"));
        l.add(ms("SkipLayerNormalization").in(F, 2, 4, 32).in(F, 1, 4, 32).c(F, Gen.NORMAL, 32).c(F, Gen.NORMAL, 32).v("f32.skip-bcast"));
        l.add(ms("SkipLayerNormalization").in(H, 2, 4, 32).in(H, 2, 4, 32).c(H, Gen.NORMAL, 32).c(H, Gen.NORMAL, 32).v("f16"));
        l.add(ms("SkipSimplifiedLayerNormalization").in(F, 2, 4, 32).in(F, 2, 4, 32).c(F, Gen.NORMAL, 32).v("f32"));
        l.add(ms("SkipSimplifiedLayerNormalization").in(F, 2, 4, 32).in(F, 2, 4, 32).c(F, Gen.NORMAL, 32).c(F, Gen.NORMAL, 32)
                .v("f32.bias"));
        l.add(ms("SkipSimplifiedLayerNormalization").in(H, 2, 4, 32).in(H, 2, 4, 32).c(H, Gen.NORMAL, 32).v("f16"));
        // registered by ONNX Runtime in the default domain (since version 1), as the model builder writes it
        l.add(op("SimplifiedLayerNormalization", 17).in(F, 2, 4, 32).c(F, Gen.NORMAL, 32).a("epsilon", 1e-6).v("f32"));
        l.add(op("SimplifiedLayerNormalization", 17).in(H, 2, 4, 32).c(H, Gen.NORMAL, 32).a("epsilon", 1e-6).v("f16"));
    }

    private static void rotary(List<OpCase> l) {
        // input (batch, sequence, heads x head size); positions per token; caches of (max position, head size / 2)
        l.add(ms("RotaryEmbedding").in(F, 1, 8, 64).in(I64, Gen.ints(0, 7), 1, 8).c(F, Gen.UNIT, 32, 8).c(F, Gen.UNIT, 32, 8)
                .a("num_heads", 4).v("f32.heads=4.interleaved=0"));
        l.add(ms("RotaryEmbedding").in(F, 1, 8, 64).in(I64, Gen.ints(0, 7), 1, 8).c(F, Gen.UNIT, 32, 8).c(F, Gen.UNIT, 32, 8)
                .a("num_heads", 4).a("interleaved", 1).v("f32.heads=4.interleaved=1"));
        l.add(ms("RotaryEmbedding").in(F, 2, 1, 64).in(I64, Gen.ints(16, 31), 2, 1).c(F, Gen.UNIT, 32, 8).c(F, Gen.UNIT, 32, 8)
                .a("num_heads", 4).v("f32.decode.positions=16-31"));
        l.add(ms("RotaryEmbedding").in(H, 1, 8, 64).in(I64, Gen.ints(0, 7), 1, 8).c(H, Gen.UNIT, 32, 8).c(H, Gen.UNIT, 32, 8)
                .a("num_heads", 4).v("f16.heads=4"));
    }

    /** int4 weights in blocks along K: B is (N, blocks, block/2) bytes, one scale per block, zero points packed two to a byte. */
    private static void matMulNBits(List<OpCase> l) {
        for (int block : new int[] {16, 32, 64, 128}) {
            l.add(nbits(F, 1, 4, 128, 32, block, false).v("f32.k=128.block=" + block));
        }
        l.add(nbits(F, 2, 3, 128, 32, 32, true).v("f32.k=128.block=32.zero-points"));
        l.add(nbits(F, 1, 1, 256, 48, 32, false).v("f32.m=1.k=256.n=48"));
        l.add(nbits(F, 1, 4, 128, 32, 32, false).a("accuracy_level", 4).v("f32.k=128.block=32.accuracy_level=4"));
        l.add(nbits(H, 1, 4, 128, 32, 32, false).v("f16.k=128.block=32"));
        l.add(nbits(H, 1, 4, 128, 32, 32, true).v("f16.k=128.block=32.zero-points"));
        // the long reduction where fp16 accumulation loses precision or overflows
        l.add(nbits(H, 1, 1, 4096, 64, 32, false).v("f16.k=4096.block=32"));
        l.add(nbits(H, 1, 4, 4096, 64, 128, true).v("f16.k=4096.block=128.zero-points"));
        l.add(nbits(F, 1, 4, 4096, 64, 32, false).v("f32.k=4096.block=32"));
    }

    private static Op nbits(DType t, long batch, long m, long k, long n, long block, boolean zeroPoints) {
        long blocks = (k + block - 1) / block;
        Op o = ms("MatMulNBits").in(t, batch, m, k).c(U8, NIBBLES, n, blocks, block / 2).c(t, SCALES, n * blocks);
        if (zeroPoints) {
            o.c(U8, NIBBLES, n * ((blocks + 1) / 2));
        }
        return o.a("K", k).a("N", n).a("bits", 4).a("block_size", block);
    }

    /** Embeddings stored as int4 (two to a byte), gathered by token id and dequantized per block of the hidden axis. */
    private static void gatherBlockQuantized(List<OpCase> l) {
        l.add(ms("GatherBlockQuantized").c(U8, NIBBLES, 64, 16).in(I64, Gen.ints(0, 63), 1, 8).c(F, SCALES, 64, 1)
                .a("bits", 4).a("block_size", 32).a("gather_axis", 0).a("quantize_axis", 1).out(F).v("u8x2.i64.block=32"));
        l.add(ms("GatherBlockQuantized").c(U8, NIBBLES, 64, 16).in(I32, Gen.ints(0, 63), 2, 4).c(H, SCALES, 64, 1)
                .c(U8, NIBBLES, 64, 1).a("bits", 4).a("block_size", 32).a("gather_axis", 0).a("quantize_axis", 1).out(H)
                .v("u8x2.i32.f16.zero-points"));
    }

    /** The fused QKV attention of BERT-style exports: input (B, S, 32) times one (32, 96) weight, four heads of 8. */
    private static void attention(List<OpCase> l) {
        l.add(ms("Attention").in(F, 2, 8, 32).c(F, Gen.UNIT, 32, 96).c(F, Gen.UNIT, 96).a("num_heads", 4).v("f32.heads=4"));
        l.add(ms("Attention").in(F, 2, 8, 32).c(F, Gen.UNIT, 32, 96).c(F, Gen.UNIT, 96).in(I32, PADDED_2x8, 2, 8).a("num_heads", 4)
                .v("f32.heads=4.padded-mask"));
        l.add(ms("Attention").in(F, 2, 8, 32).c(F, Gen.UNIT, 32, 96).c(F, Gen.UNIT, 96).a("num_heads", 4).a("unidirectional", 1)
                .v("f32.heads=4.causal"));
        l.add(ms("Attention").in(H, 2, 8, 32).c(H, Gen.UNIT, 32, 96).c(H, Gen.UNIT, 96).a("num_heads", 4).v("f16.heads=4"));
    }

    /** Two rows of eight keys, the second padded after five: what a tokenizer's attention mask looks like. */
    private static final Gen PADDED_2x8 = Gen.fixed(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0);

    /** Separate Q, K, V of (B, S, 4 heads x 8); with a past, the cache in (B, heads, past, 8) and the present out. */
    private static void multiHeadAttention(List<OpCase> l) {
        l.add(ms("MultiHeadAttention").in(F, 2, 8, 32).in(F, 2, 8, 32).in(F, 2, 8, 32).a("num_heads", 4).v("f32.heads=4"));
        l.add(ms("MultiHeadAttention").in(F, 2, 8, 32).in(F, 2, 8, 32).in(F, 2, 8, 32).none().in(I32, PADDED_2x8, 2, 8)
                .a("num_heads", 4).v("f32.heads=4.padded-mask"));
        l.add(ms("MultiHeadAttention").in(F, 2, 8, 32).in(F, 2, 8, 32).in(F, 2, 8, 32).a("num_heads", 4).a("unidirectional", 1)
                .v("f32.heads=4.causal"));
        l.add(ms("MultiHeadAttention").in(F, 2, 4, 32).in(F, 2, 12, 32).in(F, 2, 12, 32).a("num_heads", 4).v("f32.heads=4.cross"));
        for (int past : new int[] {1, 16, 64}) {
            l.add(ms("MultiHeadAttention").in(F, 1, 1, 32).in(F, 1, 1, 32).in(F, 1, 1, 32).none().none().none()
                    .in(F, 1, 4, past, 8).in(F, 1, 4, past, 8).a("num_heads", 4).a("unidirectional", 1).out(F, F, F)
                    .v("f32.decode.past=" + past));
        }
        l.add(ms("MultiHeadAttention").in(H, 2, 8, 32).in(H, 2, 8, 32).in(H, 2, 8, 32).a("num_heads", 4).v("f16.heads=4"));
    }

    /**
     * Grouped-query attention as the model builder writes it: 4 query heads over 2 key/value heads of 16, the cache
     * (B, 2, past, 16) in and (B, 2, past + S, 16) out, {@code seqlens_k} the total length less one per row and
     * {@code total_sequence_length} a scalar.
     */
    private static void groupQueryAttention(List<OpCase> l) {
        l.add(gqa(F, 1, 8, 0).v("f32.prompt=8.past=0"));
        for (int past : new int[] {1, 16, 64, 256}) {
            l.add(gqa(F, 1, 1, past).v("f32.decode.past=" + past));
        }
        l.add(gqa(F, 2, 1, 16).v("f32.batch=2.decode.past=16"));
        l.add(gqa(F, 1, 4, 16).v("f32.chunk=4.past=16"));
        l.add(gqa(F, 1, 1, 64).a("local_window_size", 32).v("f32.decode.past=64.window=32"));
        l.add(gqa(F, 1, 1, 16).c(F, Gen.UNIT, 512, 8).c(F, Gen.UNIT, 512, 8).a("do_rotary", 1).v("f32.decode.past=16.rotary"));
        l.add(gqa(H, 1, 8, 0).v("f16.prompt=8.past=0"));
        l.add(gqa(H, 1, 1, 64).v("f16.decode.past=64"));
    }

    private static Op gqa(DType t, long batch, long seq, long past) {
        return ms("GroupQueryAttention").in(t, batch, seq, 64).in(t, batch, seq, 32).in(t, batch, seq, 32)
                .in(t, batch, 2, past, 16).in(t, batch, 2, past, 16)
                .in(I32, Gen.fixed(past + seq - 1), batch).in(I32, Gen.fixed(past + seq))
                .a("num_heads", 4).a("kv_num_heads", 2).out(t, t, t);
    }

    private static void fusedConv(List<OpCase> l) {
        l.add(ms("FusedConv").in(F, 1, 2, 5, 5).c(F, Gen.NORMAL, 3, 2, 3, 3).c(F, Gen.NORMAL, 3).as("pads", 1, 1, 1, 1)
                .a("activation", "Relu").v("f32.activation=Relu"));
        l.add(ms("FusedConv").in(F, 1, 2, 5, 5).c(F, Gen.NORMAL, 3, 2, 3, 3).c(F, Gen.NORMAL, 3).a("activation", "Clip")
                .af("activation_params", -0.5, 0.5).v("f32.activation=Clip"));
        l.add(ms("FusedConv").in(F, 1, 2, 5, 5).c(F, Gen.NORMAL, 3, 2, 3, 3).c(F, Gen.NORMAL, 3).a("activation", "LeakyRelu")
                .af("activation_params", 0.1).v("f32.activation=LeakyRelu"));
        l.add(ms("FusedConv").in(F, 1, 2, 5, 5).c(F, Gen.NORMAL, 3, 2, 3, 3).c(F, Gen.NORMAL, 3).a("activation", "Sigmoid")
                .v("f32.activation=Sigmoid"));
    }
}
