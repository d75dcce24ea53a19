package dev.accelbridge.suites.ops;

import dev.accelbridge.core.DType;

import java.util.ArrayList;
import java.util.List;

import static dev.accelbridge.suites.ops.Op.ms;

/**
 * The op suite's cases of the contrib operators only ONNX Runtime's CPU provider registers (what onnxruntime-web's wasm
 * backend runs; on WebGPU and WebNN they fall back to the CPU EP): the fused and quantized matrix products quantizers and
 * optimizers write ({@code FusedMatMul}, {@code MatMulIntegerToFloat}, {@code DynamicQuantizeMatMul}, {@code QGemm}), the
 * {@code QLinear*} family, BERT's {@code EmbedLayerNormalization}, and the contrib forms of a few default-domain ops.
 * Their first variant is each op's guard case.
 */
final class OpSuiteContribCpu {
    private static final DType F = DType.FLOAT32;
    private static final DType I64 = DType.INT64;
    private static final DType I32 = DType.INT32;
    private static final DType U8 = DType.UINT8;
    private static final Gen BYTES = Gen.ints(0, 255);

    private OpSuiteContribCpu() {
    }

    static List<OpCase> cases() {
        List<OpCase> l = new ArrayList<>();
        l.add(ms("FusedMatMul").in(F, 2, 3, 4).in(F, 2, 5, 4).a("transB", 1).a("alpha", 0.5).v("f32.transB=1.alpha=0.5"));
        l.add(ms("FusedMatMul").in(F, 4, 3).in(F, 4, 5).a("transA", 1).v("f32.transA=1"));
        l.add(ms("TransposeMatMul").in(F, 3, 4).in(F, 5, 4).a("transB", 1).v("f32.transB=1"));
        l.add(ms("FusedGemm").in(F, 3, 4).c(F, Gen.NORMAL, 4, 5).c(F, Gen.NORMAL, 5).a("activation", "Relu").v("f32.activation=Relu"));
        l.add(ms("FusedGemm").in(F, 3, 4).c(F, Gen.NORMAL, 4, 5).c(F, Gen.NORMAL, 5).a("activation", "LeakyRelu")
                .a("activation_alpha", 0.1).a("alpha", 0.5).v("f32.activation=LeakyRelu.alpha=0.5"));
        // quantized matrix products: uint8 operands, their scales and zero points
        l.add(ms("MatMulIntegerToFloat").in(U8, BYTES, 2, 4).c(U8, BYTES, 4, 3).scalar(F, 0.02).c(F, Gen.range(0.01, 0.05), 3)
                .scalar(U8, 128).c(U8, Gen.fixed(120, 128, 136), 3).out(F).v("u8.per-column"));
        l.add(ms("DynamicQuantizeMatMul").in(F, 2, 3, 4).c(U8, BYTES, 4, 5).c(F, Gen.range(0.01, 0.05), 5).c(U8, Gen.fixed(128), 5)
                .out(F).v("f32.u8-weights"));
        l.add(ms("QGemm").in(U8, BYTES, 2, 4).scalar(F, 0.02).scalar(U8, 128).c(U8, BYTES, 4, 3).scalar(F, 0.03).scalar(U8, 120)
                .out(F).v("u8.float-out"));
        // the QLinear family: (x, x_scale, x_zero_point) in, (y_scale, y_zero_point) out
        l.add(ms("QuantizeLinear").in(F, 2, 3, 4).scalar(F, 0.02).scalar(U8, 128).out(U8).v("f32-to-u8"));
        l.add(ms("DequantizeLinear").in(U8, BYTES, 2, 3, 4).scalar(F, 0.02).scalar(U8, 128).out(F).v("u8-to-f32"));
        l.add(ms("QLinearAdd").in(U8, BYTES, 2, 3, 4).scalar(F, 0.02).scalar(U8, 128).in(U8, BYTES, 2, 3, 4).scalar(F, 0.03)
                .scalar(U8, 120).scalar(F, 0.05).scalar(U8, 128).out(U8).v("u8"));
        l.add(ms("QLinearMul").in(U8, BYTES, 2, 3, 4).scalar(F, 0.02).scalar(U8, 128).in(U8, BYTES, 4).scalar(F, 0.03)
                .scalar(U8, 120).scalar(F, 0.05).scalar(U8, 128).out(U8).v("u8.bcast"));
        l.add(ms("QLinearSigmoid").in(U8, BYTES, 2, 3, 4).scalar(F, 0.05).scalar(U8, 128).scalar(F, 1.0 / 256).scalar(U8, 0).out(U8).v("u8"));
        l.add(ms("QLinearLeakyRelu").in(U8, BYTES, 2, 3, 4).scalar(F, 0.05).scalar(U8, 128).scalar(F, 0.05).scalar(U8, 128)
                .a("alpha", 0.1).out(U8).v("u8.alpha=0.1"));
        l.add(ms("QLinearSoftmax").in(U8, BYTES, 2, 3, 4).scalar(F, 0.05).scalar(U8, 128).scalar(F, 1.0 / 256).scalar(U8, 0)
                .a("axis", -1).a("opset", 13).out(U8).v("u8.axis=-1"));
        l.add(ms("QLinearGlobalAveragePool").in(U8, BYTES, 1, 2, 4, 4).scalar(F, 0.02).scalar(U8, 128).scalar(F, 0.02).scalar(U8, 128)
                .out(U8).v("u8.nchw"));
        l.add(ms("QLinearConcat").scalar(F, 0.05).scalar(U8, 128).in(U8, BYTES, 2, 3).scalar(F, 0.02).scalar(U8, 128)
                .in(U8, BYTES, 2, 2).scalar(F, 0.04).scalar(U8, 100).a("axis", 1).out(U8).v("u8.axis=1"));
        l.add(ms("EmbedLayerNormalization").in(I32, Gen.ints(0, 15), 1, 8).in(I32, Gen.ints(0, 1), 1, 8).c(F, Gen.NORMAL, 16, 32)
                .c(F, Gen.NORMAL, 16, 32).c(F, Gen.NORMAL, 2, 32).c(F, Gen.NORMAL, 32).c(F, Gen.NORMAL, 32).out(F, I32)
                .v("f32.segments"));
        // the contrib forms of default-domain operators
        l.add(ms("Trilu").in(F, 2, 4, 4).a("upper", 1).v("f32.upper=1"));
        l.add(ms("Range").scalar(F, 1).scalar(F, 7).scalar(F, 0.5).out(F).v("f32"));
        l.add(ms("ExpandDims").in(F, 2, 3).c(I32, Gen.fixed(1)).v("f32.axis=1"));
        l.add(ms("GatherND").in(F, 2, 3, 4).in(I64, Gen.ints(0, 1), 2, 2).v("f32"));
        l.add(ms("Pad").in(F, 2, 3).ints(0, 1, 0, 2).scalar(F, 0.5).v("f32.constant"));
        l.add(ms("CDist").in(F, 4, 3).c(F, Gen.NORMAL, 5, 3).a("metric", "euclidean").v("f32.euclidean"));
        return l;
    }
}
