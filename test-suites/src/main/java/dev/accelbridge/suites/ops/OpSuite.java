package dev.accelbridge.suites.ops;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.OpVariant;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.suites.onnx.GeneratedModel;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.accelbridge.suites.ops.Op.op;

/**
 * The op suite's cases: the elementwise, reduction and shape operators here, the neural-network, quantized, signal
 * and recurrent ones in {@link OpSuiteNn}, ONNX Runtime's contrib operators ({@code com.microsoft}) in
 * {@link OpSuiteContrib}. Each op is at its newest opset (the version ONNX Runtime registers last)
 * and, where the semantics changed, at the older one too (axes as an attribute before opset 13/18, Softmax's 2-D
 * coercion before 13, Clip's attributes before 11); then its attribute variants and data types. The first case of each
 * op, and every contrib case, is a guard case ({@code ./setup.sh test} runs those).
 */
@PublicApi
public final class OpSuite {
    static final DType F = DType.FLOAT32;
    static final DType H = DType.FLOAT16;
    static final DType I64 = DType.INT64;
    static final DType I32 = DType.INT32;
    static final DType I8 = DType.INT8;
    static final DType U8 = DType.UINT8;
    static final DType B = DType.BOOL;

    /**
     * Operators the suite leaves out, and why: what Accelbridge cannot feed or compare (strings, sequences, optionals),
     * what has no inputs to feed, what is random by definition, and the contrib operators (qualified by their domain)
     * it does not run yet or cannot judge.
     */
    public static final Map<String, String> NOT_COVERED = notCovered();

    private OpSuite() {
    }

    /**
     * One model of the suite, as the catalog takes it.
     *
     * @param name    the model name ({@link OpVariant#modelName()})
     * @param summary one line: the op, its opset and variant
     * @param guard   whether it is its op's guard case
     * @param builder authors the model from a seed (the seed draws its constant weights)
     * @param inputs  makes its fed inputs (deterministic, independent of the seed)
     */
    public record Model(String name, String summary, boolean guard, java.util.function.LongFunction<GeneratedModel> builder,
                        java.util.function.Supplier<List<NamedTensor>> inputs) {
    }

    /** Every case as a model of the catalog. */
    public static List<Model> models() {
        return cases().stream().map(c -> new Model(c.variant().modelName(), "single " + c.variant() + " node",
                c.guard(), seed -> OpModels.build(c, seed), () -> OpModels.inputs(c, INPUT_SEED))).toList();
    }

    /** The op variants of every case, in the suite's order. */
    public static List<OpVariant> variants() {
        return cases().stream().map(OpCase::variant).toList();
    }

    /**
     * The model names of the guard cases, what {@code ./setup.sh test} runs in every browser: one variant per op, and
     * every variant of the contrib operators.
     */
    public static List<String> guardModelNames() {
        return cases().stream().filter(OpCase::guard).map(c -> c.variant().modelName()).toList();
    }

    /** The seed of every fed input: inputs do not change with {@code --seed}, weights do. */
    private static final long INPUT_SEED = 20261123L;

    /** Every case, ops in a stable order, the first case of each op marked as its guard. */
    static List<OpCase> cases() {
        List<OpCase> all = new ArrayList<>();
        all.addAll(unary());
        all.addAll(binary());
        all.addAll(reductions());
        all.addAll(OpSuiteShapes.cases());
        all.addAll(OpSuiteNn.cases());
        all.addAll(OpSuiteContrib.cases());
        all.addAll(OpSuiteContribCpu.cases());
        Set<String> seen = new HashSet<>();
        Set<String> webgpu = OpKernels.declared("webgpu");
        List<OpCase> out = new ArrayList<>();
        for (OpCase c : all) {
            // every variant of a contrib op onnxruntime-web runs on WebGPU guards: their regions (past lengths, block sizes,
            // fp16) are where optimized models break; the CPU-only ones guard once each, like the default domain's
            boolean everyVariant = c.variant().contrib() && webgpu.contains(c.variant().qualifiedType());
            out.add(seen.add(c.variant().qualifiedType()) || everyVariant ? c.asGuard() : c);
        }
        return out;
    }

    private static List<OpCase> unary() {
        List<OpCase> l = new ArrayList<>();
        for (String t : List.of("Abs", "Neg", "Floor", "Ceil", "Exp", "Erf", "Sigmoid", "Tanh", "Sign")) {
            l.add(op(t, 13).in(F, 2, 3, 4).v("f32"));
        }
        l.add(op("Abs", 13).in(I32, 2, 3, 4).v("i32"));
        l.add(op("Neg", 13).in(I64, 2, 3, 4).v("i64"));
        l.add(op("Exp", 13).in(H, 2, 3, 4).v("f16"));
        l.add(op("Sigmoid", 13).in(H, 2, 3, 4).v("f16"));
        l.add(op("Sign", 13).in(I32, 2, 3, 4).v("i32"));
        l.add(op("Abs", 13).in(F, 0, 3).v("f32.empty"));
        l.add(op("Neg", 13).in(F).v("f32.scalar"));
        l.add(op("Round", 11).in(F, 2, 3, 4).v("f32"));
        for (String t : List.of("Reciprocal", "Sqrt", "Log")) {
            l.add(op(t, 13).in(F, Gen.POSITIVE, 2, 3, 4).v("f32"));
        }
        l.add(op("Sqrt", 13).in(H, Gen.POSITIVE, 2, 3, 4).v("f16"));
        l.add(op("Relu", 14).in(F, 2, 3, 4).v("f32"));
        l.add(op("Relu", 14).in(H, 2, 3, 4).v("f16"));
        l.add(op("Relu", 14).in(I32, 2, 3, 4).v("i32"));
        for (String t : List.of("Sin", "Cos", "Atan")) {
            l.add(op(t, 7).in(F, 2, 3, 4).v("f32"));
        }
        for (String t : List.of("Tan", "Asin", "Acos")) {
            l.add(op(t, 7).in(F, Gen.UNIT, 2, 3, 4).v("f32"));
        }
        for (String t : List.of("Sinh", "Cosh", "Asinh")) {
            l.add(op(t, 9).in(F, 2, 3, 4).v("f32"));
        }
        l.add(op("Acosh", 9).in(F, Gen.GE1, 2, 3, 4).v("f32"));
        l.add(op("Atanh", 9).in(F, Gen.UNIT, 2, 3, 4).v("f32"));
        l.add(op("Softplus", 1).in(F, 2, 3, 4).v("f32"));
        l.add(op("Softsign", 1).in(F, 2, 3, 4).v("f32"));
        l.add(op("HardSwish", 14).in(F, 2, 3, 4).v("f32"));
        l.add(op("Mish", 18).in(F, 2, 3, 4).v("f32"));
        l.add(op("IsNaN", 13).in(F, Gen.fixed(1, Double.NaN, Double.POSITIVE_INFINITY, -1, 0, Double.NEGATIVE_INFINITY), 2, 3).out(B).v("f32.nan-inf"));
        l.add(op("IsInf", 10).in(F, Gen.fixed(1, Double.NaN, Double.POSITIVE_INFINITY, -1, 0, Double.NEGATIVE_INFINITY), 2, 3).out(B).v("f32.nan-inf"));
        l.add(op("IsInf", 10).in(F, Gen.fixed(1, Double.NaN, Double.POSITIVE_INFINITY, -1, 0, Double.NEGATIVE_INFINITY), 2, 3)
                .a("detect_negative", 0).out(B).v("f32.detect_negative=0"));
        l.add(op("Identity", 16).in(F, 2, 3, 4).v("f32"));
        l.add(op("Identity", 16).in(I64, 2, 3).v("i64"));
        l.add(op("Identity", 16).in(B, Gen.BOOL, 2, 3).v("bool"));
        l.add(op("Elu", 6).in(F, 2, 3, 4).a("alpha", 0.5).v("f32.alpha=0.5"));
        l.add(op("Selu", 6).in(F, 2, 3, 4).v("f32"));
        l.add(op("LeakyRelu", 16).in(F, 2, 3, 4).a("alpha", 0.1).v("f32.alpha=0.1"));
        l.add(op("LeakyRelu", 16).in(H, 2, 3, 4).v("f16"));
        l.add(op("ThresholdedRelu", 10).in(F, 2, 3, 4).a("alpha", 0.5).v("f32.alpha=0.5"));
        l.add(op("HardSigmoid", 6).in(F, 2, 3, 4).v("f32"));
        l.add(op("Celu", 12).in(F, 2, 3, 4).a("alpha", 2.0).v("f32.alpha=2"));
        l.add(op("Gelu", 20).in(F, 2, 3, 4).v("f32"));
        l.add(op("Gelu", 20).in(F, 2, 3, 4).a("approximate", "tanh").v("f32.approximate=tanh"));
        l.add(op("Shrink", 9).in(F, 2, 3, 4).a("lambd", 0.5).a("bias", 0.2).v("f32.lambd=0.5.bias=0.2"));
        l.add(op("Not", 1).in(B, Gen.BOOL, 2, 3, 4).v("bool"));
        l.add(op("BitwiseNot", 18).in(I32, Gen.ints(-100, 100), 2, 3, 4).v("i32"));
        l.add(op("Dropout", 13).in(F, 2, 3, 4).v("f32.inference"));
        l.add(op("Clip", 13).in(F, 2, 3, 4).scalar(F, -0.5).scalar(F, 0.5).v("f32.min.max"));
        l.add(op("Clip", 13).in(F, 2, 3, 4).scalar(F, -0.5).v("f32.min-only"));
        l.add(op("Clip", 13).in(I32, 2, 3, 4).scalar(I32, -1).scalar(I32, 1).v("i32.min.max"));
        l.add(op("Clip", 6).in(F, 2, 3, 4).a("min", -0.5).a("max", 0.5).v("f32.attrs"));
        // the same ops at their newest opset: onnxruntime-web places some of them differently by the model's opset
        for (String t : List.of("Elu", "Selu", "HardSigmoid", "Softplus", "Softsign")) {
            l.add(op(t, 22).in(F, 2, 3, 4).v("f32"));
        }
        return l;
    }

    private static List<OpCase> binary() {
        List<OpCase> l = new ArrayList<>();
        l.add(op("Add", 14).in(F, 2, 3, 4).in(F, 2, 3, 4).v("f32"));
        l.add(op("Add", 14).in(F, 2, 3, 4).in(F, 4).v("f32.bcast"));
        l.add(op("Add", 14).in(F, 2, 3).in(F).v("f32.scalar"));
        l.add(op("Add", 14).in(F, 0, 3).in(F, 3).v("f32.empty"));
        l.add(op("Add", 14).in(H, 2, 3, 4).in(H, 2, 3, 4).v("f16"));
        l.add(op("Add", 14).in(I32, 2, 3, 4).in(I32, 2, 3, 4).v("i32"));
        l.add(op("Add", 14).in(I64, 2, 3, 4).in(I64, 1, 3, 1).v("i64.bcast"));
        l.add(op("Add", 7).in(F, 2, 3, 4).in(F, 3, 1).v("f32.bcast"));
        l.add(op("Sub", 14).in(F, 2, 3, 4).in(F, 3, 4).v("f32.bcast"));
        l.add(op("Sub", 14).in(I32, 2, 3, 4).in(I32, 2, 3, 4).v("i32"));
        l.add(op("Mul", 14).in(F, 2, 3, 4).in(F, 2, 1, 4).v("f32.bcast"));
        l.add(op("Mul", 14).in(H, 2, 3, 4).in(H, 4).v("f16.bcast"));
        l.add(op("Mul", 14).in(I64, 2, 3, 4).in(I64, 2, 3, 4).v("i64"));
        l.add(op("Div", 14).in(F, 2, 3, 4).in(F, Gen.POSITIVE, 2, 3, 4).v("f32"));
        l.add(op("Div", 14).in(I32, Gen.ints(-20, 20), 2, 3, 4).in(I32, Gen.POSITIVE, 2, 3, 4).v("i32.trunc"));
        l.add(op("Pow", 15).in(F, Gen.POSITIVE, 2, 3, 4).in(F, 2, 3, 4).v("f32"));
        l.add(op("Pow", 15).in(F, 2, 3, 4).in(I64, Gen.ints(0, 3), 4).v("f32.exponent=i64"));
        l.add(op("Pow", 15).in(F, 2, 3, 4).scalar(F, 2).v("f32.square"));
        for (String t : List.of("Max", "Min", "Mean", "Sum")) {
            l.add(op(t, 13).in(F, 2, 3, 4).in(F, 3, 4).in(F, 4).v("f32.three.bcast"));
        }
        l.add(op("Max", 13).in(I32, 2, 3).in(I32, 2, 3).v("i32"));
        l.add(op("Min", 13).in(F, 2, 3).v("f32.one-input"));
        l.add(op("Mod", 13).in(I32, Gen.ints(-20, 20), 2, 3, 4).in(I32, Gen.ints(1, 6), 2, 3, 4).v("i32.fmod=0.negatives"));
        l.add(op("Mod", 13).in(F, 2, 3, 4).in(F, Gen.POSITIVE, 2, 3, 4).a("fmod", 1).v("f32.fmod=1"));
        l.add(op("Equal", 19).in(F, Gen.TIES, 2, 3, 4).in(F, Gen.TIES, 2, 3, 4).out(B).v("f32.ties"));
        l.add(op("Equal", 19).in(I64, Gen.TIES, 2, 3, 4).in(I64, Gen.TIES, 4).out(B).v("i64.bcast"));
        l.add(op("Greater", 13).in(F, 2, 3, 4).in(F, 2, 3, 4).out(B).v("f32"));
        l.add(op("Greater", 13).in(I32, 2, 3, 4).in(I32, 4).out(B).v("i32.bcast"));
        l.add(op("Less", 13).in(F, 2, 3, 4).in(F, 4).out(B).v("f32.bcast"));
        l.add(op("GreaterOrEqual", 16).in(F, Gen.TIES, 2, 3, 4).in(F, Gen.TIES, 2, 3, 4).out(B).v("f32.ties"));
        l.add(op("LessOrEqual", 16).in(F, Gen.TIES, 2, 3, 4).in(F, Gen.TIES, 2, 3, 4).out(B).v("f32.ties"));
        for (String t : List.of("And", "Or", "Xor")) {
            l.add(op(t, 7).in(B, Gen.BOOL, 2, 3, 4).in(B, Gen.BOOL, 2, 3, 4).v("bool"));
        }
        l.add(op("And", 7).in(B, Gen.BOOL, 2, 3, 4).in(B, Gen.BOOL, 4).v("bool.bcast"));
        l.add(op("BitShift", 11).in(U8, Gen.ints(0, 255), 2, 3, 4).in(U8, Gen.ints(0, 7), 2, 3, 4).a("direction", "LEFT").v("u8.direction=LEFT"));
        l.add(op("BitShift", 11).in(U8, Gen.ints(0, 255), 2, 3, 4).in(U8, Gen.ints(0, 7), 2, 3, 4).a("direction", "RIGHT").v("u8.direction=RIGHT"));
        for (String t : List.of("BitwiseAnd", "BitwiseOr", "BitwiseXor")) {
            l.add(op(t, 18).in(I32, Gen.ints(-100, 100), 2, 3, 4).in(I32, Gen.ints(-100, 100), 2, 3, 4).v("i32"));
        }
        l.add(op("PRelu", 16).in(F, 2, 3, 4).in(F, 4).v("f32.slope-bcast"));
        l.add(op("Where", 16).in(B, Gen.BOOL, 2, 3, 4).in(F, 2, 3, 4).in(F, 4).out(F).v("f32.bcast"));
        l.add(op("Where", 16).in(B, Gen.BOOL, 2, 3, 4).in(I64, 2, 3, 4).in(I64, 2, 3, 4).out(I64).v("i64"));
        return l;
    }

    private static List<OpCase> reductions() {
        List<OpCase> l = new ArrayList<>();
        List<String> r18 = List.of("ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSumExp",
                "ReduceSumSquare", "ReduceLogSum");
        l.add(op("ReduceSum", 13).in(F, 2, 3, 4).ints(1).v("f32.axes=1.keepdims=1"));
        l.add(op("ReduceSum", 13).in(F, 2, 3, 4).ints(1).a("keepdims", 0).v("f32.axes=1.keepdims=0"));
        l.add(op("ReduceSum", 13).in(F, 2, 3, 4).v("f32.all"));
        l.add(op("ReduceSum", 13).in(F, 2, 3, 4).ints(-1, 0).a("keepdims", 0).v("f32.axes=-1+0.keepdims=0"));
        l.add(op("ReduceSum", 13).in(F, 2, 3, 4).a("noop_with_empty_axes", 1).v("f32.noop_with_empty_axes=1"));
        l.add(op("ReduceSum", 13).in(I64, 2, 3, 4).ints(2).v("i64.axes=2"));
        l.add(op("ReduceSum", 11).in(F, 2, 3, 4).as("axes", 1).v("f32.axes-attr=1"));
        for (String t : r18) {
            Gen g = t.equals("ReduceLogSum") || t.equals("ReduceProd") ? Gen.POSITIVE : Gen.NORMAL;
            l.add(op(t, 18).in(F, g, 2, 3, 4).ints(1).v("f32.axes=1.keepdims=1"));
            l.add(op(t, 18).in(F, g, 2, 3, 4).ints(2).a("keepdims", 0).v("f32.axes=2.keepdims=0"));
            l.add(op(t, 18).in(F, g, 2, 3, 4).v("f32.all"));
        }
        l.add(op("ReduceMean", 13).in(F, 2, 3, 4).as("axes", 1).v("f32.axes-attr=1"));
        l.add(op("ReduceMax", 18).in(I64, 2, 3, 4).ints(1).v("i64.axes=1"));
        l.add(op("ReduceMax", 18).in(H, 2, 3, 4).ints(1).v("f16.axes=1"));
        l.add(op("ReduceMean", 18).in(F, 2, 0, 4).ints(2).v("f32.empty"));
        l.add(op("ArgMax", 13).in(F, Gen.DISTINCT, 2, 3, 4).a("axis", 1).out(I64).v("f32.axis=1.keepdims=1"));
        l.add(op("ArgMax", 13).in(F, Gen.DISTINCT, 2, 3, 4).a("axis", -1).a("keepdims", 0).out(I64).v("f32.axis=-1.keepdims=0"));
        l.add(op("ArgMax", 13).in(F, Gen.TIES, 2, 3, 4).a("axis", 2).a("select_last_index", 1).out(I64).v("f32.ties.select_last_index=1"));
        l.add(op("ArgMax", 13).in(F, Gen.TIES, 2, 3, 4).a("axis", 2).out(I64).v("f32.ties.select_last_index=0"));
        l.add(op("ArgMax", 13).in(I32, Gen.DISTINCT, 2, 3, 4).a("axis", 1).out(I64).v("i32.axis=1"));
        l.add(op("ArgMin", 13).in(F, Gen.DISTINCT, 2, 3, 4).a("axis", 1).out(I64).v("f32.axis=1.keepdims=1"));
        l.add(op("ArgMin", 13).in(F, Gen.TIES, 2, 3, 4).a("axis", 0).a("select_last_index", 1).a("keepdims", 0).out(I64)
                .v("f32.ties.select_last_index=1.keepdims=0"));
        l.add(op("TopK", 11).in(F, Gen.DISTINCT, 2, 3, 5).ints(2).out(F, I64).v("f32.k=2.largest=1"));
        l.add(op("TopK", 11).in(F, Gen.DISTINCT, 2, 3, 5).ints(3).a("largest", 0).a("axis", 1).out(F, I64).v("f32.k=3.largest=0.axis=1"));
        l.add(op("TopK", 11).in(I64, Gen.DISTINCT, 2, 6).ints(2).out(I64, I64).v("i64.k=2"));
        l.add(op("CumSum", 14).in(F, 2, 3, 4).scalar(I64, 1).v("f32.axis=1"));
        l.add(op("CumSum", 14).in(F, 2, 3, 4).scalar(I64, -1).a("exclusive", 1).a("reverse", 1).v("f32.axis=-1.exclusive=1.reverse=1"));
        l.add(op("CumSum", 14).in(I32, 2, 3, 4).scalar(I64, 0).v("i32.axis=0"));
        l.add(op("Softmax", 13).in(F, 2, 3, 4).v("f32.axis=-1"));
        l.add(op("Softmax", 13).in(F, 2, 3, 4).a("axis", 0).v("f32.axis=0"));
        l.add(op("Softmax", 13).in(H, 2, 3, 4).v("f16.axis=-1"));
        l.add(op("Softmax", 11).in(F, 2, 3, 4).a("axis", 1).v("f32.axis=1.coerced-2d"));
        l.add(op("LogSoftmax", 13).in(F, 2, 3, 4).v("f32.axis=-1"));
        l.add(op("LogSoftmax", 13).in(F, 2, 3, 4).a("axis", 1).v("f32.axis=1"));
        l.add(op("Hardmax", 13).in(F, Gen.DISTINCT, 2, 3, 4).v("f32.axis=-1"));
        return l;
    }

    /** ONNX Runtime's contrib operators the suite leaves out (qualified names, as {@link OpKernels#declared} has them). */
    private static void contribNotCovered(Map<String, String> m) {
        String ms = OpVariant.MS_DOMAIN + ".";
        String noReference = "no kernel on ONNX Runtime's CPU provider (only CUDA's and WebGPU's): nothing native to judge it against";
        m.put(ms + "BiasAdd", noReference);
        m.put(ms + "BiasSplitGelu", noReference);
        for (String op : List.of("BeamSearch", "WhisperBeamSearch", "GreedySearch", "Sampling")) {
            m.put(ms + op, "a whole generation loop over sub-graphs, not one op (generation is its own scenario)");
        }
        m.put(ms + "Tokenizer", "string tensors: Accelbridge feeds and compares numeric tensors only");
        m.put(ms + "Unique", "outputs of data-dependent shape in an order the op leaves open");
        String cpuOnly = "registered only on the CPU provider (wasm): not yet in the suite (it has the fused and quantized "
                + "matrix products, the QLinear family and EmbedLayerNormalization of these)";
        for (String op : List.of("AttnLSTM", "BifurcationDetector", "ConvTransposeWithDynamicPads", "CropAndResize",
                "DecoderMaskedMultiHeadAttention", "DynamicQuantizeLSTM", "DynamicTimeWarping", "GridSample",
                "Inverse", "MatMulBnb4", "MatMulFpQ4", "MatMulInteger16", "MaxpoolWithMask", "MurmurHash3",
                "NGramRepeatBlock", "NhwcMaxPool", "QAttention", "QEmbedLayerNormalization", "QLinearAveragePool",
                "QLinearConv", "QLinearWhere", "SparseAttention", "SparseToDenseMatMul", "UnfoldTensor",
                "WordConvEmbedding")) {
            m.put(ms + op, cpuOnly);
        }
        m.put(ms + "SimplifiedLayerNormalization", "the same kernel as the default domain's SimplifiedLayerNormalization, which the "
                + "suite runs");
    }

    private static Map<String, String> notCovered() {
        Map<String, String> m = new LinkedHashMap<>();
        String strings = "string tensors: Accelbridge feeds and compares numeric tensors only";
        for (String op : List.of("StringNormalizer", "StringConcat", "StringSplit", "RegexFullMatch", "TfIdfVectorizer")) {
            m.put(op, strings);
        }
        String seq = "sequence types: the page's and the native runner's inputs and outputs are plain tensors";
        for (String op : List.of("SequenceAt", "SequenceConstruct", "SequenceEmpty", "SequenceErase", "SequenceInsert",
                "SequenceLength", "SequenceMap", "SplitToSequence", "ConcatFromSequence")) {
            m.put(op, seq);
        }
        for (String op : List.of("Optional", "OptionalGetElement", "OptionalHasElement")) {
            m.put(op, "optional types: not a plain tensor");
        }
        for (String op : List.of("If", "Loop", "Scan")) {
            m.put(op, "control flow: a sub-graph is not a single op (models that use it are tested as whole models; bisection "
                    + "reaches inside)");
        }
        for (String op : List.of("RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Bernoulli", "Multinomial")) {
            m.put(op, "random by definition: no reference to compare with");
        }
        m.put("Constant", "takes no input: a model of it alone has nothing to feed");
        m.put("ImageDecoder", "decodes encoded image bytes: not a numeric tensor op");
        m.put("Upsample", "deprecated since opset 10 (Resize replaces it)");
        m.put("Scatter", "deprecated since opset 11 (ScatterElements replaces it)");
        contribNotCovered(m);
        return m;
    }
}
