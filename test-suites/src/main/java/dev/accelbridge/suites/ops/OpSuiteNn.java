package dev.accelbridge.suites.ops;

import dev.accelbridge.core.DType;

import java.util.ArrayList;
import java.util.List;

import static dev.accelbridge.suites.ops.Op.op;

/** The op suite's neural-network, normalization, quantized, detection, signal and recurrent cases (see {@link OpSuite}). */
final class OpSuiteNn {
    private static final DType F = DType.FLOAT32;
    private static final DType H = DType.FLOAT16;
    private static final DType I64 = DType.INT64;
    private static final DType I32 = DType.INT32;
    private static final DType I8 = DType.INT8;
    private static final DType U8 = DType.UINT8;

    private OpSuiteNn() {
    }

    static List<OpCase> cases() {
        List<OpCase> l = new ArrayList<>();
        conv(l);
        pools(l);
        norms(l);
        matmul(l);
        quantized(l);
        vision(l);
        signal(l);
        recurrent(l);
        return l;
    }

    private static void conv(List<OpCase> l) {
        l.add(op("Conv", 11).in(F, 1, 2, 5, 5).c(F, Gen.NORMAL, 3, 2, 3, 3).c(F, Gen.NORMAL, 3).as("pads", 1, 1, 1, 1).v("f32.k=3.pads=1"));
        l.add(op("Conv", 11).in(F, 1, 2, 5, 5).c(F, Gen.NORMAL, 3, 2, 3, 3).c(F, Gen.NORMAL, 3).as("strides", 2, 2).v("f32.strides=2"));
        l.add(op("Conv", 11).in(F, 1, 2, 7, 7).c(F, Gen.NORMAL, 3, 2, 3, 3).as("dilations", 2, 2).v("f32.dilations=2.no-bias"));
        l.add(op("Conv", 11).in(F, 1, 4, 5, 5).c(F, Gen.NORMAL, 4, 2, 3, 3).c(F, Gen.NORMAL, 4).a("group", 2).v("f32.group=2"));
        l.add(op("Conv", 11).in(F, 1, 3, 5, 5).c(F, Gen.NORMAL, 3, 1, 3, 3).a("group", 3).v("f32.depthwise"));
        l.add(op("Conv", 11).in(F, 1, 2, 5, 5).c(F, Gen.NORMAL, 3, 2, 3, 3).a("auto_pad", "SAME_UPPER").as("strides", 2, 2)
                .v("f32.auto_pad=SAME_UPPER.strides=2"));
        l.add(op("Conv", 11).in(F, 1, 2, 8).c(F, Gen.NORMAL, 3, 2, 3).v("f32.conv1d"));
        l.add(op("Conv", 11).in(F, 1, 2, 4, 4, 4).c(F, Gen.NORMAL, 2, 2, 2, 2, 2).v("f32.conv3d"));
        l.add(op("Conv", 11).in(H, 1, 2, 5, 5).c(H, Gen.NORMAL, 3, 2, 3, 3).v("f16.k=3"));
        l.add(op("ConvTranspose", 11).in(F, 1, 2, 3, 3).c(F, Gen.NORMAL, 2, 3, 3, 3).c(F, Gen.NORMAL, 3).v("f32.k=3"));
        l.add(op("ConvTranspose", 11).in(F, 1, 2, 3, 3).c(F, Gen.NORMAL, 2, 3, 3, 3).as("strides", 2, 2).as("output_padding", 1, 1)
                .v("f32.strides=2.output_padding=1"));
        l.add(op("ConvTranspose", 11).in(F, 1, 2, 4, 4).c(F, Gen.NORMAL, 2, 1, 3, 3).a("group", 2).as("pads", 1, 1, 1, 1).v("f32.group=2.pads=1"));
    }

    private static void pools(List<OpCase> l) {
        l.add(op("MaxPool", 12).in(F, 1, 2, 6, 6).as("kernel_shape", 2, 2).as("strides", 2, 2).v("f32.k=2.s=2"));
        l.add(op("MaxPool", 12).in(F, 1, 2, 6, 6).as("kernel_shape", 3, 3).as("strides", 2, 2).as("pads", 1, 1, 1, 1).a("ceil_mode", 1)
                .v("f32.k=3.pads=1.ceil_mode=1"));
        l.add(op("MaxPool", 12).in(F, 1, 2, 6, 6).as("kernel_shape", 2, 2).as("dilations", 2, 2).v("f32.dilations=2"));
        l.add(op("MaxPool", 12).in(F, Gen.DISTINCT, 1, 2, 4, 4).as("kernel_shape", 2, 2).as("strides", 2, 2).out(F, I64).v("f32.indices"));
        l.add(op("MaxPool", 12).in(U8, Gen.ints(0, 255), 1, 2, 6, 6).as("kernel_shape", 2, 2).as("strides", 2, 2).v("u8"));
        l.add(op("MaxPool", 12).in(F, 1, 2, 8).as("kernel_shape", 3).v("f32.pool1d"));
        l.add(op("AveragePool", 19).in(F, 1, 2, 5, 5).as("kernel_shape", 3, 3).as("pads", 1, 1, 1, 1).v("f32.pads=1.count_include_pad=0"));
        l.add(op("AveragePool", 19).in(F, 1, 2, 5, 5).as("kernel_shape", 3, 3).as("pads", 1, 1, 1, 1).a("count_include_pad", 1)
                .v("f32.pads=1.count_include_pad=1"));
        l.add(op("AveragePool", 19).in(F, 1, 2, 6, 6).as("kernel_shape", 3, 3).as("strides", 2, 2).a("ceil_mode", 1).v("f32.s=2.ceil_mode=1"));
        l.add(op("AveragePool", 11).in(F, 1, 2, 6, 6).as("kernel_shape", 2, 2).as("strides", 2, 2).v("f32.k=2"));
        l.add(op("GlobalAveragePool", 1).in(F, 1, 3, 4, 5).v("f32"));
        l.add(op("GlobalMaxPool", 1).in(F, 1, 3, 4, 5).v("f32"));
        l.add(op("GlobalLpPool", 2).in(F, 1, 3, 4, 5).v("f32.p=2"));
        l.add(op("LpPool", 18).in(F, 1, 2, 4, 4).as("kernel_shape", 2, 2).as("strides", 2, 2).v("f32.p=2"));
        for (String t : List.of("GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")) {
            l.add(op(t, 22).in(F, 1, 3, 4, 5).v("f32"));
        }
        l.add(op("LpNormalization", 1).in(F, 2, 3, 4).v("f32.axis=-1.p=2"));
        l.add(op("LpNormalization", 1).in(F, 2, 3, 4).a("p", 1).a("axis", 1).v("f32.axis=1.p=1"));
    }

    private static void norms(List<OpCase> l) {
        l.add(op("BatchNormalization", 15).in(F, 2, 3, 4, 4).c(F, Gen.NORMAL, 3).c(F, Gen.NORMAL, 3).c(F, Gen.NORMAL, 3)
                .c(F, Gen.POSITIVE, 3).v("f32.inference"));
        l.add(op("BatchNormalization", 15).in(F, 2, 3).c(F, Gen.NORMAL, 3).c(F, Gen.NORMAL, 3).c(F, Gen.NORMAL, 3)
                .c(F, Gen.POSITIVE, 3).v("f32.2d"));
        l.add(op("InstanceNormalization", 6).in(F, 2, 3, 4, 4).c(F, Gen.NORMAL, 3).c(F, Gen.NORMAL, 3).v("f32"));
        l.add(op("LayerNormalization", 17).in(F, 2, 3, 8).c(F, Gen.NORMAL, 8).c(F, Gen.NORMAL, 8).v("f32.axis=-1"));
        l.add(op("LayerNormalization", 17).in(F, 2, 3, 8).c(F, Gen.NORMAL, 3, 8).a("axis", 1).v("f32.axis=1.no-bias"));
        l.add(op("LayerNormalization", 17).in(H, 2, 3, 8).c(H, Gen.NORMAL, 8).c(H, Gen.NORMAL, 8).v("f16.axis=-1"));
        l.add(op("GroupNormalization", 21).in(F, 2, 4, 3, 3).c(F, Gen.NORMAL, 4).c(F, Gen.NORMAL, 4).a("num_groups", 2).v("f32.num_groups=2"));
        l.add(op("GroupNormalization", 18).in(F, 2, 4, 3, 3).c(F, Gen.NORMAL, 2).c(F, Gen.NORMAL, 2).a("num_groups", 2)
                .v("f32.num_groups=2.scale-per-group"));
        l.add(op("MeanVarianceNormalization", 13).in(F, 2, 3, 4, 4).v("f32"));
        l.add(op("LRN", 13).in(F, 1, 5, 4, 4).a("size", 3).v("f32.size=3"));
        l.add(op("RMSNormalization", 23).in(F, 2, 3, 8).c(F, Gen.NORMAL, 8).v("f32.axis=-1"));
    }

    private static void matmul(List<OpCase> l) {
        l.add(op("MatMul", 13).in(F, 3, 4).in(F, 4, 5).v("f32.2d"));
        l.add(op("MatMul", 13).in(F, 2, 3, 4).in(F, 2, 4, 5).v("f32.batched"));
        l.add(op("MatMul", 13).in(F, 2, 3, 4).c(F, Gen.NORMAL, 4, 5).v("f32.bcast.weight-const"));
        l.add(op("MatMul", 13).in(F, 4).in(F, 4, 5).v("f32.vector"));
        l.add(op("MatMul", 13).in(H, 3, 4).in(H, 4, 5).v("f16.2d"));
        l.add(op("MatMul", 13).in(I32, 3, 4).in(I32, 4, 5).v("i32.2d"));
        l.add(op("Gemm", 13).in(F, 3, 4).c(F, Gen.NORMAL, 4, 5).c(F, Gen.NORMAL, 5).v("f32.bias-bcast"));
        l.add(op("Gemm", 13).in(F, 3, 4).c(F, Gen.NORMAL, 5, 4).c(F, Gen.NORMAL, 3, 5).a("transB", 1).a("alpha", 0.5).a("beta", 2.0)
                .v("f32.transB=1.alpha=0.5.beta=2"));
        l.add(op("Gemm", 13).in(F, 4, 3).in(F, 4, 5).a("transA", 1).v("f32.transA=1.no-C"));
        l.add(op("Einsum", 12).in(F, 2, 3).in(F, 3).a("equation", "ij,j->i").v("f32.matvec"));
    }

    private static void quantized(List<OpCase> l) {
        Gen bytes = Gen.ints(0, 255);
        l.add(op("QuantizeLinear", 19).in(F, 2, 3, 4).scalar(F, 0.02).scalar(U8, 128).out(U8).v("f32-to-u8"));
        l.add(op("QuantizeLinear", 19).in(F, 2, 3, 4).scalar(F, 0.02).scalar(I8, 0).out(I8).v("f32-to-i8"));
        l.add(op("QuantizeLinear", 19).in(F, 2, 3, 4).c(F, Gen.fixed(0.01, 0.02, 0.05), 3).c(U8, Gen.fixed(120, 128, 136), 3).a("axis", 1)
                .out(U8).v("f32-to-u8.per-axis=1"));
        l.add(op("DequantizeLinear", 19).in(U8, bytes, 2, 3, 4).scalar(F, 0.02).scalar(U8, 128).out(F).v("u8-to-f32"));
        l.add(op("DequantizeLinear", 19).in(I8, Gen.ints(-128, 127), 2, 3, 4).scalar(F, 0.02).scalar(I8, 3).out(F).v("i8-to-f32"));
        l.add(op("DequantizeLinear", 19).in(U8, bytes, 2, 3, 4).c(F, Gen.fixed(0.01, 0.02, 0.05), 3).c(U8, Gen.fixed(120, 128, 136), 3)
                .a("axis", 1).out(F).v("u8-to-f32.per-axis=1"));
        l.add(op("DynamicQuantizeLinear", 11).in(F, 2, 3, 4).out(U8, F, U8).v("f32"));
        // a range of 0..255 makes the scale exactly 1, so x.5 values are ties: round half to even (ONNX) or away from zero
        l.add(op("DynamicQuantizeLinear", 11).in(F, Gen.fixed(0, 255, 0.5, 1.5, 2.5, 3.5, 100.5, 254.5), 2, 4).out(U8, F, U8).v("f32.ties"));
        // an activation's size (a sequence of 128 by 384): where two implementations' x / scale may round apart by a step
        l.add(op("DynamicQuantizeLinear", 11).in(F, 1, 128, 384).out(U8, F, U8).v("f32.1x128x384"));
        l.add(op("MatMulInteger", 10).in(U8, bytes, 3, 4).c(U8, bytes, 4, 5).scalar(U8, 128).scalar(U8, 100).out(I32).v("u8.zero-points"));
        l.add(op("ConvInteger", 10).in(U8, bytes, 1, 2, 5, 5).c(U8, bytes, 3, 2, 3, 3).scalar(U8, 128).scalar(U8, 100).out(I32).v("u8.zero-points"));
        l.add(op("QLinearMatMul", 10).in(U8, bytes, 3, 4).scalar(F, 0.02).scalar(U8, 128).c(U8, bytes, 4, 5).scalar(F, 0.03)
                .scalar(U8, 120).scalar(F, 0.5).scalar(U8, 128).out(U8).v("u8"));
        l.add(op("QLinearConv", 10).in(U8, bytes, 1, 2, 5, 5).scalar(F, 0.02).scalar(U8, 128).c(U8, bytes, 3, 2, 3, 3).scalar(F, 0.03)
                .scalar(U8, 120).scalar(F, 0.5).scalar(U8, 128).out(U8).v("u8"));
    }

    private static void vision(List<OpCase> l) {
        l.add(op("Resize", 19).in(F, 1, 2, 3, 4).none().c(F, Gen.fixed(1, 1, 2, 2), 4).a("mode", "nearest").v("f32.nearest.scales=2"));
        l.add(op("Resize", 19).in(F, 1, 2, 3, 4).none().c(F, Gen.fixed(1, 1, 2, 2), 4).a("mode", "linear").v("f32.linear.half_pixel"));
        l.add(op("Resize", 19).in(F, 1, 2, 3, 4).none().none().ints(1, 2, 5, 7).a("mode", "linear")
                .a("coordinate_transformation_mode", "align_corners").v("f32.linear.align_corners.sizes"));
        l.add(op("Resize", 19).in(F, 1, 2, 3, 4).none().c(F, Gen.fixed(1, 1, 2, 2), 4).a("mode", "cubic").v("f32.cubic"));
        l.add(op("Resize", 19).in(F, 1, 2, 3, 4).none().c(F, Gen.fixed(1, 1, 1.5, 1.5), 4).a("mode", "nearest").a("nearest_mode", "floor")
                .a("coordinate_transformation_mode", "asymmetric").v("f32.nearest.floor.asymmetric"));
        l.add(op("Resize", 13).in(F, 1, 2, 3, 4).none().c(F, Gen.fixed(1, 1, 2, 2), 4).a("mode", "nearest").v("f32.nearest.scales=2"));
        l.add(op("GridSample", 16).in(F, 1, 2, 4, 4).in(F, Gen.UNIT, 1, 3, 3, 2).v("f32.bilinear.zeros"));
        l.add(op("GridSample", 16).in(F, 1, 2, 4, 4).in(F, Gen.UNIT, 1, 3, 3, 2).a("mode", "nearest").a("align_corners", 1)
                .v("f32.nearest.align_corners=1"));
        l.add(op("GridSample", 20).in(F, 1, 2, 4, 4).in(F, Gen.NORMAL, 1, 3, 3, 2).a("mode", "linear").a("padding_mode", "border")
                .v("f32.linear.border"));
        l.add(op("AffineGrid", 20).in(F, 1, 2, 3).ints(1, 1, 3, 4).v("f32.2d"));
        l.add(op("AffineGrid", 20).in(F, 1, 2, 3).ints(1, 1, 3, 4).a("align_corners", 1).v("f32.2d.align_corners=1"));
        l.add(op("RoiAlign", 16).in(F, 1, 2, 6, 6).c(F, Gen.fixed(0, 0, 4, 4, 1, 1, 5, 5), 2, 4).c(I64, Gen.fixed(0), 2)
                .a("output_height", 2).a("output_width", 2).a("sampling_ratio", 2).v("f32.avg"));
        l.add(op("RoiAlign", 16).in(F, 1, 2, 6, 6).c(F, Gen.fixed(0, 0, 4, 4, 1, 1, 5, 5), 2, 4).c(I64, Gen.fixed(0), 2)
                .a("output_height", 2).a("output_width", 2).a("sampling_ratio", 2).a("mode", "max").v("f32.max"));
        l.add(op("MaxRoiPool", 1).in(F, 1, 1, 4, 4).c(F, Gen.fixed(0, 0, 0, 3, 3), 1, 5).as("pooled_shape", 2, 2).v("f32"));
        l.add(op("MaxUnpool", 11).in(F, 1, 1, 2, 2).c(I64, Gen.fixed(5, 2, 8, 15), 1, 1, 2, 2).as("kernel_shape", 2, 2).as("strides", 2, 2)
                .v("f32.k=2"));
        l.add(op("NonMaxSuppression", 11).in(F, Gen.fixed(0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, -0.1, 1, 0.9, 0, 10, 1, 11, 0, 10.1, 1, 11.1, 0, 100, 1, 101),
                1, 6, 4).in(F, Gen.fixed(0.9, 0.75, 0.6, 0.95, 0.5, 0.3), 1, 1, 6).ints(3).c(F, Gen.fixed(0.5), 1).c(F, Gen.fixed(0.0), 1)
                .out(I64).v("f32.max=3.iou=0.5"));
        l.add(op("Col2Im", 18).in(F, 1, 4, 4).ints(3, 3).ints(2, 2).v("f32.block=2"));
        l.add(op("Det", 11).in(F, 2, 3, 3).v("f32.batched"));
        l.add(op("NegativeLogLikelihoodLoss", 13).in(F, 3, 5).c(I64, Gen.ints(0, 4), 3).v("f32.reduction=mean"));
        l.add(op("SoftmaxCrossEntropyLoss", 13).in(F, 3, 5).c(I64, Gen.ints(0, 4), 3).v("f32.reduction=mean"));
        l.add(op("SoftmaxCrossEntropyLoss", 13).in(F, 3, 5).c(I64, Gen.ints(0, 4), 3).a("reduction", "none").v("f32.reduction=none"));
    }

    private static void signal(List<OpCase> l) {
        l.add(op("DFT", 17).in(F, 1, 8, 1).a("axis", 1).v("f32.real"));
        l.add(op("DFT", 17).in(F, 1, 8, 2).a("axis", 1).a("inverse", 1).v("f32.complex.inverse"));
        l.add(op("DFT", 17).in(F, 1, 8, 1).a("axis", 1).a("onesided", 1).v("f32.onesided"));
        l.add(op("DFT", 20).in(F, 1, 8, 1).none().scalar(I64, 1).v("f32.axis-input=1"));
        l.add(op("STFT", 17).in(F, 1, 16, 1).scalar(I64, 4).c(F, Gen.POSITIVE, 8).v("f32.step=4.window=8"));
        for (String w : List.of("HannWindow", "HammingWindow", "BlackmanWindow")) {
            l.add(op(w, 17).in(I64, Gen.fixed(8)).out(F).v("size=8.periodic"));
            l.add(op(w, 17).in(I64, Gen.fixed(8)).a("periodic", 0).out(F).v("size=8.symmetric"));
        }
        l.add(op("MelWeightMatrix", 17).in(I64, Gen.fixed(4)).scalar(I64, 16).scalar(I64, 8000).scalar(F, 0).scalar(F, 4000).out(F)
                .v("mel=4.dft=16"));
    }

    private static void recurrent(List<OpCase> l) {
        Gen w = Gen.UNIT;
        l.add(op("RNN", 14).in(F, 3, 2, 4).c(F, w, 1, 5, 4).c(F, w, 1, 5, 5).c(F, w, 1, 10).a("hidden_size", 5).out(F, F).v("f32.forward"));
        l.add(op("GRU", 14).in(F, 3, 2, 4).c(F, w, 1, 15, 4).c(F, w, 1, 15, 5).c(F, w, 1, 30).a("hidden_size", 5).out(F, F).v("f32.forward"));
        l.add(op("GRU", 14).in(F, 3, 2, 4).c(F, w, 1, 15, 4).c(F, w, 1, 15, 5).c(F, w, 1, 30).a("hidden_size", 5).a("linear_before_reset", 1)
                .out(F, F).v("f32.linear_before_reset=1"));
        l.add(op("LSTM", 14).in(F, 3, 2, 4).c(F, w, 1, 20, 4).c(F, w, 1, 20, 5).c(F, w, 1, 40).a("hidden_size", 5).out(F, F, F).v("f32.forward"));
        l.add(op("LSTM", 14).in(F, 3, 2, 4).c(F, w, 2, 20, 4).c(F, w, 2, 20, 5).c(F, w, 2, 40).a("hidden_size", 5)
                .a("direction", "bidirectional").out(F, F, F).v("f32.bidirectional"));
        l.add(op("Attention", 23).in(F, 1, 2, 4, 8).in(F, 1, 2, 4, 8).in(F, 1, 2, 4, 8).v("f32.4d"));
        l.add(op("Attention", 23).in(F, 1, 2, 4, 8).in(F, 1, 2, 4, 8).in(F, 1, 2, 4, 8).a("is_causal", 1).v("f32.4d.is_causal=1"));
    }
}
