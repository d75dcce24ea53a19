package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.OperatorSetIdProto;
import dev.accelbridge.suites.onnx.proto.Onnx.SparseTensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorShapeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TypeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A generated corpus of odd but (mostly) legal models, the kind a published test suite or model zoo holds and an
 * authored suite never does: zero-size inputs and outputs (shipped as ONNX test data), rank-0 everything, an empty
 * graph, outputs that are inputs, duplicate value names, an unknown domain, sequence / optional / map types, sparse and
 * external initializers, If / Loop / Scan, opset 7 and the newest opset, a huge declared dimension, bool / int8 / uint8
 * / int32 / float64 I/O, odd names, an unnamed unknown dimension, an empty file and a file that is not ONNX. Each model is
 * a folder of its own; {@link #writeAll} writes every one and returns their names. What matters is not that each passes
 * but that a run over the folder gives every model a verdict, with the reason where it cannot run.
 */
public final class OddModels {
    private OddModels() {
    }

    /** Writes every odd model under {@code dir}, a folder each; returns their names. */
    public static List<String> writeAll(Path dir) {
        all().values().forEach(f -> f.apply(dir));
        return names();
    }

    private static Map<String, Function<Path, Path>> all() {
        Map<String, Function<Path, Path>> m = new java.util.LinkedHashMap<>();
        m.put("zero-size-axes", OddModels::zeroSizeAxes);
        m.put("zero-size-input", OddModels::zeroSizeInput);
        m.put("zero-size-output", OddModels::zeroSizeOutput);
        m.put("rank0-everything", OddModels::rankZero);
        m.put("empty-graph", OddModels::emptyGraph);
        m.put("output-is-input", OddModels::outputIsInput);
        m.put("constant-only", OddModels::constantOnly);
        m.put("duplicate-names", OddModels::duplicateNames);
        m.put("unknown-domain", OddModels::unknownDomain);
        m.put("sequence-output", OddModels::sequenceOutput);
        m.put("sequence-input", OddModels::sequenceInput);
        m.put("optional-output", OddModels::optionalOutput);
        m.put("map-output", OddModels::mapOutput);
        m.put("sparse-initializer", OddModels::sparseInitializer);
        m.put("external-initializer", OddModels::externalInitializer);
        m.put("if-branches", OddModels::ifBranches);
        m.put("loop-body", OddModels::loopBody);
        m.put("scan-body", OddModels::scanBody);
        m.put("opset-7", OddModels::opset7);
        m.put("opset-newest", OddModels::opsetNewest);
        m.put("huge-declared-dim", OddModels::hugeDim);
        m.put("bool-io", d -> typed(d, "bool-io", DType.BOOL, "Not"));
        m.put("int8-io", d -> typed(d, "int8-io", DType.INT8, "Neg"));
        m.put("uint8-io", d -> typed(d, "uint8-io", DType.UINT8, "Identity"));
        m.put("int32-io", d -> typed(d, "int32-io", DType.INT32, "Abs"));
        m.put("float64-io", d -> typed(d, "float64-io", DType.FLOAT64, "Sqrt"));
        m.put("odd-names", OddModels::oddNames);
        m.put("unnamed-unknown-dim", OddModels::unnamedUnknownDim);
        m.put("many-outputs", OddModels::manyOutputs);
        m.put("unused-input", OddModels::unusedInput);
        m.put("omitted-optional-input", OddModels::omittedOptionalInput);
        m.put("nan-outputs", OddModels::nanOutputs);
        m.put("empty-file", d -> raw(d, "empty-file", new byte[0]));
        m.put("not-onnx", d -> raw(d, "not-onnx", "this is not a protobuf\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return m;
    }

    /**
     * Relu over {@code X[N, 4]} shipped with a {@code [3, 4]} input and expected outputs deliberately 0.5 off: fed as
     * shipped, every backend is WRONG_OUTPUT against those expected outputs (the user's own reference is used).
     */
    public static Path offReference(Path dir) {
        GraphBuilder g = new GraphBuilder("offref", 10);
        String x = g.input("X", DType.FLOAT32, "N", 4);
        g.opInto("Relu", "Y", List.of(x));
        g.output("Y", DType.FLOAT32, "N", 4);
        Path f = write(dir, "off-reference", g.build("reference off by 0.5"));
        float[] in = new float[12];
        float[] out = new float[12];
        for (int i = 0; i < 12; i++) {
            in[i] = (i % 3 == 0 ? -1 : 1) * (i + 1) / 4f;
            out[i] = Math.max(0, in[i]) + 0.5f;
        }
        testData(f, List.of(NamedTensor.ofFloats("X", new long[]{3, 4}, in)), List.of(NamedTensor.ofFloats("Y", new long[]{3, 4}, out)));
        return f;
    }

    /**
     * Large I/O: {@code x[1, 50,000,000]} float32 in (200 MB), {@code doubled = 2x} and {@code magnitude = |x|} out (400 MB
     * together), declared exactly, so the job's budget is what the model declares. Not part of {@link #writeAll}.
     */
    public static Path largeIo(Path dir) {
        long n = 50_000_000L;
        GraphBuilder g = new GraphBuilder("large", 40);
        String x = g.input("x", DType.FLOAT32, 1, n);
        g.opInto("Mul", "doubled", List.of(x, g.scalar("two", 2f)));
        g.opInto("Abs", "magnitude", List.of(x));
        g.output("doubled", DType.FLOAT32, 1, n);
        g.output("magnitude", DType.FLOAT32, 1, n);
        return write(dir, "large-io", g.build("large inputs and outputs"));
    }

    /**
     * A declared 1.2 GB intermediate: {@code x[1, 1]} expanded to {@code h[1, 300,000,000]} (declared in
     * {@code value_info}) and reduced back by ReduceMax. It fits wasm32's 4 GiB but no WebGPU buffer of at most 1 GiB
     * (SwiftShader's limits here). Not part of {@link #writeAll}.
     */
    public static Path hugeActivation(Path dir) {
        GraphBuilder g = new GraphBuilder("hugeact", 41);
        String x = g.input("x", DType.FLOAT32, 1, 1);
        g.opInto("Expand", "h", List.of(x, g.vector("shape", 1, 300_000_000L)));
        g.valueInfo("h", DType.FLOAT32, 1, 300_000_000L);
        g.opInto("ReduceMax", "y", List.of("h"), GraphBuilder.ints("axes", 1), GraphBuilder.attr("keepdims", 1L));
        g.output("y", DType.FLOAT32, 1, 1);
        return write(dir, "huge-activation", g.build("a huge declared activation"));
    }

    // ---- zero-size data -------------------------------------------------------------------------------------------

    /** ReduceSum with an {@code axes} input declared {@code [N]} and shipped empty (ONNX backend-test style). */
    public static Path zeroSizeAxes(Path dir) {
        GraphBuilder g = new GraphBuilder("zaxes", 11);
        String x = g.input("data", DType.FLOAT32, 3, 2);
        String axes = g.input("axes", DType.INT64, "N");
        g.opInto("ReduceSum", "reduced", List.of(x, axes), GraphBuilder.attr("keepdims", 1L));
        g.output("reduced", DType.FLOAT32, 1, 1);
        Path f = write(dir, "zero-size-axes", opset(g.build("zero-size axes"), 13));
        NamedTensor data = NamedTensor.ofFloats("data", new long[]{3, 2}, new float[]{1, 2, 3, 4, 5, 6});
        testData(f, List.of(data, NamedTensor.ofLongs("axes", new long[]{0}, new long[0])),
                List.of(NamedTensor.ofFloats("reduced", new long[]{1, 1}, new float[]{21})));
        return f;
    }

    /** Relu over {@code x[N, 4]} shipped with N = 0. */
    static Path zeroSizeInput(Path dir) {
        GraphBuilder g = new GraphBuilder("zin", 12);
        String x = g.input("x", DType.FLOAT32, "N", 4);
        g.opInto("Relu", "y", List.of(x));
        g.output("y", DType.FLOAT32, "N", 4);
        Path f = write(dir, "zero-size-input", g.build("zero-size input"));
        testData(f, List.of(NamedTensor.ofFloats("x", new long[]{0, 4}, new float[0])),
                List.of(NamedTensor.ofFloats("y", new long[]{0, 4}, new float[0])));
        return f;
    }

    /** A Slice whose result is empty: {@code [0, 4]}, beside a normal output. */
    static Path zeroSizeOutput(Path dir) {
        GraphBuilder g = new GraphBuilder("zout", 13);
        String x = g.input("x", DType.FLOAT32, 2, 4);
        g.opInto("Slice", "empty", List.of(x, g.vector("st", 1), g.vector("en", 1), g.vector("ax", 0)));
        g.opInto("Relu", "y", List.of(x));
        g.output("empty", DType.FLOAT32, 0, 4);
        g.output("y", DType.FLOAT32, 2, 4);
        return write(dir, "zero-size-output", g.build("zero-size output"));
    }

    /** A scalar in, scalars through, a scalar out. */
    static Path rankZero(Path dir) {
        GraphBuilder g = new GraphBuilder("r0", 14);
        String x = g.input("x", DType.FLOAT32);
        String i = g.input("n", DType.INT64);
        String s = g.op("Mul", "m", List.of(x, g.scalar("two", 2f)));
        String nf = g.op("Cast", "c", List.of(i), GraphBuilder.attr("to", (long) DType.FLOAT32.onnxCode()));
        g.opInto("Add", "y", List.of(s, nf));
        g.output("y", DType.FLOAT32);
        return write(dir, "rank0-everything", g.build("rank 0"));
    }

    // ---- graphs of odd form ---------------------------------------------------------------------------------------

    /** No nodes at all: the output is an initializer. */
    static Path emptyGraph(Path dir) {
        GraphBuilder g = new GraphBuilder("empty", 15);
        g.floats("c", new float[]{1, 2, 3}, 3);
        g.output("c", DType.FLOAT32, 3);
        return write(dir, "empty-graph", g.build("empty graph"));
    }

    /** A graph output that is a graph input, beside a computed one. */
    static Path outputIsInput(Path dir) {
        GraphBuilder g = new GraphBuilder("passthrough", 16);
        String x = g.input("x", DType.FLOAT32, 1, 3);
        g.opInto("Neg", "y", List.of(x));
        g.output("x", DType.FLOAT32, 1, 3);
        g.output("y", DType.FLOAT32, 1, 3);
        return write(dir, "output-is-input", g.build("output is input"));
    }

    /** No inputs: one Constant node. */
    static Path constantOnly(Path dir) {
        GraphBuilder g = new GraphBuilder("const", 17);
        ModelProto.Builder b = g.build("constant only").toBuilder();
        TensorProto v = OnnxTensors.toProto(NamedTensor.ofFloats("v", new long[]{2, 2}, new float[]{1, 2, 3, 4}));
        b.getGraphBuilder().addNode(NodeProto.newBuilder().setOpType("Constant").setName("k").addOutput("y")
                .addAttribute(AttributeProto.newBuilder().setName("value").setType(AttributeProto.AttributeType.TENSOR).setT(v)));
        b.getGraphBuilder().addOutput(tensorInfo("y", DType.FLOAT32, 2, 2));
        return write(dir, "constant-only", b.build());
    }

    /** Two nodes write the same value name (not SSA: invalid ONNX). */
    static Path duplicateNames(Path dir) {
        GraphBuilder g = new GraphBuilder("dup", 18);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("Relu", "y", List.of(x));
        g.output("y", DType.FLOAT32, 1, 4);
        ModelProto.Builder b = g.build("duplicate names").toBuilder();
        b.getGraphBuilder().addNode(NodeProto.newBuilder().setOpType("Neg").setName("again").addInput(x).addOutput("y"));
        return write(dir, "duplicate-names", b.build());
    }

    /** An op of a domain no runtime knows. */
    static Path unknownDomain(Path dir) {
        GraphBuilder g = new GraphBuilder("dom", 19);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("Relu", "y", List.of(x));
        g.output("y", DType.FLOAT32, 1, 4);
        ModelProto.Builder b = g.build("unknown domain").toBuilder();
        b.getGraphBuilder().getNodeBuilder(0).setDomain("org.nowhere.ops");
        b.addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("org.nowhere.ops").setVersion(3));
        return write(dir, "unknown-domain", b.build());
    }

    // ---- non-tensor types -----------------------------------------------------------------------------------------

    /** SequenceConstruct: a sequence of tensors out. */
    static Path sequenceOutput(Path dir) {
        GraphBuilder g = new GraphBuilder("seqout", 20);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("SequenceConstruct", "seq", List.of(x, x));
        ModelProto.Builder b = g.build("sequence output").toBuilder();
        b.getGraphBuilder().addOutput(ValueInfoProto.newBuilder().setName("seq").setType(TypeProto.newBuilder()
                .setSequenceType(TypeProto.Sequence.newBuilder().setElemType(tensorType(DType.FLOAT32, 1, 4)))));
        return write(dir, "sequence-output", b.build());
    }

    /** A sequence of tensors in: nothing Accelbridge can feed. */
    static Path sequenceInput(Path dir) {
        GraphBuilder g = new GraphBuilder("seqin", 21);
        g.opInto("SequenceAt", "y", List.of("seq", g.vector("zero", 0)));
        ModelProto.Builder b = g.build("sequence input").toBuilder();
        b.getGraphBuilder().getNodeBuilder(0).setInput(1, "zero0");
        b.getGraphBuilder().addInitializer(OnnxTensors.toProto(NamedTensor.ofLongs("zero0", new long[0], new long[]{0})));
        b.getGraphBuilder().addInput(ValueInfoProto.newBuilder().setName("seq").setType(TypeProto.newBuilder()
                .setSequenceType(TypeProto.Sequence.newBuilder().setElemType(tensorType(DType.FLOAT32, 1, 4)))));
        b.getGraphBuilder().addOutput(tensorInfo("y", DType.FLOAT32, 1, 4));
        return write(dir, "sequence-input", opset(b.build(), 17));
    }

    /** An optional tensor out (opset 15's Optional). */
    static Path optionalOutput(Path dir) {
        GraphBuilder g = new GraphBuilder("opt", 22);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("Optional", "o", List.of(x));
        ModelProto.Builder b = g.build("optional output").toBuilder();
        b.getGraphBuilder().addOutput(ValueInfoProto.newBuilder().setName("o").setType(TypeProto.newBuilder()
                .setOptionalType(TypeProto.Optional.newBuilder().setElemType(tensorType(DType.FLOAT32, 1, 4)))));
        return write(dir, "optional-output", b.build());
    }

    /** ai.onnx.ml ZipMap: a sequence of maps out. */
    static Path mapOutput(Path dir) {
        GraphBuilder g = new GraphBuilder("map", 23);
        String x = g.input("x", DType.FLOAT32, 1, 3);
        g.opInto("ZipMap", "m", List.of(x));
        ModelProto.Builder b = g.build("map output").toBuilder();
        b.getGraphBuilder().getNodeBuilder(0).setDomain("ai.onnx.ml").addAttribute(AttributeProto.newBuilder()
                .setName("classlabels_int64s").setType(AttributeProto.AttributeType.INTS).addInts(0).addInts(1).addInts(2));
        b.addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("ai.onnx.ml").setVersion(3));
        TypeProto map = TypeProto.newBuilder().setMapType(TypeProto.Map.newBuilder().setKeyType(DType.INT64.onnxCode())
                .setValueType(tensorType(DType.FLOAT32))).build();
        b.getGraphBuilder().addOutput(ValueInfoProto.newBuilder().setName("m").setType(TypeProto.newBuilder()
                .setSequenceType(TypeProto.Sequence.newBuilder().setElemType(map))));
        return write(dir, "map-output", b.build());
    }

    // ---- initializers of odd kinds --------------------------------------------------------------------------------

    /** A sparse initializer (COO) added to the input. */
    static Path sparseInitializer(Path dir) {
        GraphBuilder g = new GraphBuilder("sparse", 24);
        String x = g.input("x", DType.FLOAT32, 2, 3);
        g.opInto("Add", "y", List.of(x, "s"));
        g.output("y", DType.FLOAT32, 2, 3);
        ModelProto.Builder b = g.build("sparse initializer").toBuilder();
        TensorProto values = OnnxTensors.toProto(NamedTensor.ofFloats("s", new long[]{2}, new float[]{5, 7}));
        TensorProto indices = OnnxTensors.toProto(NamedTensor.ofLongs("s_idx", new long[]{2}, new long[]{1, 4}));
        b.getGraphBuilder().addSparseInitializer(SparseTensorProto.newBuilder().setValues(values).setIndices(indices)
                .addDims(2).addDims(3));
        return write(dir, "sparse-initializer", b.build());
    }

    /** A weight in a file of its own ({@code weights.bin}, ONNX external data). */
    static Path externalInitializer(Path dir) {
        GraphBuilder g = new GraphBuilder("ext", 25);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("Mul", "y", List.of(x, g.uniform("w", 1.0, 1, 4)));
        g.output("y", DType.FLOAT32, 1, 4);
        ModelProto.Builder b = g.build("external initializer").toBuilder();
        TensorProto.Builder t = b.getGraphBuilder().getInitializerBuilder(0);
        byte[] raw = t.getRawData().toByteArray();
        t.clearRawData().setDataLocation(TensorProto.DataLocation.EXTERNAL)
                .addExternalData(kv("location", "weights.bin")).addExternalData(kv("offset", "0"))
                .addExternalData(kv("length", Integer.toString(raw.length)));
        Path f = write(dir, "external-initializer", b.build());
        try {
            Files.write(f.resolve("weights.bin"), raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return f;
    }

    // ---- control flow ---------------------------------------------------------------------------------------------

    /** If on a bool input: then-branch doubles x (an outer-scope value), else negates it. */
    public static Path ifBranches(Path dir) {
        GraphBuilder g = new GraphBuilder("if", 26);
        String c = g.input("cond", DType.BOOL);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("If", "y", List.of(c), graph("then_branch", body("then", b -> {
            b.opInto("Mul", "t_out", List.of(x, b.scalar("two", 2f)));
            b.output("t_out", DType.FLOAT32, 1, 4);
        })), graph("else_branch", body("else", b -> {
            b.opInto("Neg", "e_out", List.of(x));
            b.output("e_out", DType.FLOAT32, 1, 4);
        })));
        g.output("y", DType.FLOAT32, 1, 4);
        return write(dir, "if-branches", g.build("if"));
    }

    /** Loop 3 times, adding x (outer scope) to a carried value. */
    static Path loopBody(Path dir) {
        GraphBuilder g = new GraphBuilder("loop", 27);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        String trip = g.longs("trip", new long[]{3});
        String yes = "keep";
        GraphProto loopBody = body("loop_body", b -> {
            b.input("i", DType.INT64);
            b.input("cond_in", DType.BOOL);
            String acc = b.input("acc", DType.FLOAT32, 1, 4);
            b.opInto("Identity", "cond_out", List.of("cond_in"));
            b.opInto("Add", "acc_out", List.of(acc, x));
            b.output("cond_out", DType.BOOL);
            b.output("acc_out", DType.FLOAT32, 1, 4);
        });
        g.opInto("Loop", "y", List.of(trip, yes, x), graph("body", loopBody));
        g.output("y", DType.FLOAT32, 1, 4);
        ModelProto.Builder b = g.build("loop").toBuilder();
        b.getGraphBuilder().addInitializer(boolScalar(yes, true));
        return write(dir, "loop-body", b.build());
    }

    /** Scan: a running sum over 3 rows. */
    static Path scanBody(Path dir) {
        GraphBuilder g = new GraphBuilder("scan", 28);
        String init = g.input("init", DType.FLOAT32, 2);
        String seq = g.input("seq", DType.FLOAT32, 3, 2);
        GraphProto body = body("scan_body", b -> {
            String s = b.input("sum_in", DType.FLOAT32, 2);
            String v = b.input("row", DType.FLOAT32, 2);
            b.opInto("Add", "sum_out", List.of(s, v));
            b.opInto("Identity", "scan_out", List.of("sum_out"));
            b.output("sum_out", DType.FLOAT32, 2);
            b.output("scan_out", DType.FLOAT32, 2);
        });
        GraphBuilder.Attr n = GraphBuilder.attr("num_scan_inputs", 1L);
        g.opN("Scan", "scan", 2, List.of(init, seq), graph("body", body), n);
        ModelProto.Builder b = g.build("scan").toBuilder();
        // name the two outputs plainly
        NodeProto.Builder node = b.getGraphBuilder().getNodeBuilder(0);
        node.setOutput(0, "final").setOutput(1, "partials");
        b.getGraphBuilder().addOutput(tensorInfo("final", DType.FLOAT32, 2)).addOutput(tensorInfo("partials", DType.FLOAT32, 3, 2));
        return write(dir, "scan-body", b.build());
    }

    // ---- versions -------------------------------------------------------------------------------------------------

    /** IR 3, opset 7 (the oldest ONNX Runtime still loads). */
    static Path opset7(Path dir) {
        GraphBuilder g = new GraphBuilder("old", 29);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("Add", "y", List.of(x, g.uniform("b", 1.0, 1, 4)));
        g.output("y", DType.FLOAT32, 1, 4);
        return write(dir, "opset-7", opset(g.build("opset 7"), 7).toBuilder().setIrVersion(3).build());
    }

    /** The newest default-domain opset ONNX Runtime 1.29 knows (23), at IR 10. */
    static Path opsetNewest(Path dir) {
        GraphBuilder g = new GraphBuilder("new", 30);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("Relu", "y", List.of(x));
        g.output("y", DType.FLOAT32, 1, 4);
        return write(dir, "opset-newest", opset(g.build("newest opset"), 23).toBuilder().setIrVersion(10).build());
    }

    /** A declared dimension of 2^40 elements: nothing can feed it, and nothing may try to allocate it. */
    static Path hugeDim(Path dir) {
        GraphBuilder g = new GraphBuilder("huge", 31);
        String x = g.input("x", DType.FLOAT32, 1, 1L << 40);
        g.opInto("Relu", "y", List.of(x));
        g.output("y", DType.FLOAT32, 1, 1L << 40);
        return write(dir, "huge-declared-dim", g.build("huge dim"));
    }

    // ---- element types and names ----------------------------------------------------------------------------------

    private static Path typed(Path dir, String name, DType t, String op) {
        GraphBuilder g = new GraphBuilder(name, 32);
        String x = g.input("x", t, 2, 3);
        g.opInto(op, "y", List.of(x));
        g.output("y", t, 2, 3);
        return write(dir, name, g.build(name));
    }

    /** Names with spaces, slashes, dots, colons and non-ASCII letters. */
    static Path oddNames(Path dir) {
        GraphBuilder g = new GraphBuilder("names", 33);
        String x = g.input("input:0 /x.ü", DType.FLOAT32, 1, 4);
        g.opInto("Sigmoid", "out put/ÿ:0", List.of(x));
        g.output("out put/ÿ:0", DType.FLOAT32, 1, 4);
        return write(dir, "odd-names", g.build("odd names"));
    }

    /** An input whose second dimension has neither a value nor a name: it cannot be fed without --shape. */
    static Path unnamedUnknownDim(Path dir) {
        GraphBuilder g = new GraphBuilder("unk", 34);
        g.opInto("Relu", "y", List.of("x"));
        ModelProto.Builder b = g.build("unnamed unknown dim").toBuilder();
        b.getGraphBuilder().addInput(ValueInfoProto.newBuilder().setName("x").setType(TypeProto.newBuilder()
                .setTensorType(TypeProto.Tensor.newBuilder().setElemType(DType.FLOAT32.onnxCode()).setShape(
                        TensorShapeProto.newBuilder().addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(1))
                                .addDim(TensorShapeProto.Dimension.newBuilder())))));
        b.getGraphBuilder().addOutput(ValueInfoProto.newBuilder().setName("y").setType(TypeProto.newBuilder()
                .setTensorType(TypeProto.Tensor.newBuilder().setElemType(DType.FLOAT32.onnxCode()))));
        return write(dir, "unnamed-unknown-dim", b.build());
    }

    /** Forty outputs from one input. */
    static Path manyOutputs(Path dir) {
        GraphBuilder g = new GraphBuilder("many", 35);
        String x = g.input("x", DType.FLOAT32, 1, 2);
        for (int i = 0; i < 40; i++) {
            g.opInto("Mul", "y" + i, List.of(x, g.scalar("k" + i, i)));
            g.output("y" + i, DType.FLOAT32, 1, 2);
        }
        return write(dir, "many-outputs", g.build("many outputs"));
    }

    /** An input nothing reads. */
    static Path unusedInput(Path dir) {
        GraphBuilder g = new GraphBuilder("unused", 36);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.input("ignored", DType.FLOAT32, 2, 2);
        g.opInto("Tanh", "y", List.of(x));
        g.output("y", DType.FLOAT32, 1, 4);
        return write(dir, "unused-input", g.build("unused input"));
    }

    /** Clip with its optional {@code min} omitted (an empty input name). */
    static Path omittedOptionalInput(Path dir) {
        GraphBuilder g = new GraphBuilder("clip", 37);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("Clip", "y", List.of(x, "", g.scalar("hi", 0.25f)));
        g.output("y", DType.FLOAT32, 1, 4);
        return write(dir, "omitted-optional-input", g.build("omitted optional input"));
    }

    /** Log of values that are sometimes negative: NaN in every runtime's outputs. */
    static Path nanOutputs(Path dir) {
        GraphBuilder g = new GraphBuilder("nan", 38);
        String x = g.input("x", DType.FLOAT32, 1, 8);
        g.opInto("Log", "y", List.of(x));
        g.output("y", DType.FLOAT32, 1, 8);
        return write(dir, "nan-outputs", g.build("nan outputs"));
    }

    private static Path raw(Path dir, String name, byte[] bytes) {
        try {
            Path folder = Files.createDirectories(dir.resolve(name));
            Files.write(folder.resolve("model.onnx"), bytes);
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    private static GraphProto body(String name, java.util.function.Consumer<GraphBuilder> fill) {
        GraphBuilder b = new GraphBuilder(name, name.hashCode());
        fill.accept(b);
        return b.build(name).getGraph();
    }

    private static GraphBuilder.Attr graph(String attr, GraphProto g) {
        return new GraphBuilder.Attr(AttributeProto.newBuilder().setName(attr).setType(AttributeProto.AttributeType.GRAPH).setG(g).build());
    }

    private static TensorProto boolScalar(String name, boolean v) {
        return OnnxTensors.toProto(new NamedTensor(name, DType.BOOL, new long[0], new byte[]{(byte) (v ? 1 : 0)}));
    }

    private static TypeProto tensorType(DType t, long... dims) {
        TensorShapeProto.Builder s = TensorShapeProto.newBuilder();
        for (long d : dims) {
            s.addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        return TypeProto.newBuilder().setTensorType(TypeProto.Tensor.newBuilder().setElemType(t.onnxCode()).setShape(s)).build();
    }

    private static ValueInfoProto tensorInfo(String name, DType t, long... dims) {
        return ValueInfoProto.newBuilder().setName(name).setType(tensorType(t, dims)).build();
    }

    private static ModelProto opset(ModelProto m, long version) {
        ModelProto.Builder b = m.toBuilder().clearOpsetImport();
        b.addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(version));
        for (OperatorSetIdProto o : m.getOpsetImportList()) {
            if (!o.getDomain().isEmpty()) {
                b.addOpsetImport(o);
            }
        }
        return b.build();
    }

    private static dev.accelbridge.suites.onnx.proto.Onnx.StringStringEntryProto kv(String k, String v) {
        return dev.accelbridge.suites.onnx.proto.Onnx.StringStringEntryProto.newBuilder().setKey(k).setValue(v).build();
    }

    private static Path write(Path dir, String name, ModelProto m) {
        return raw(dir, name, m.toByteArray());
    }

    private static void testData(Path folder, List<NamedTensor> inputs, List<NamedTensor> outputs) {
        try {
            Path ds = Files.createDirectories(folder.resolve("test_data_set_0"));
            for (int i = 0; i < inputs.size(); i++) {
                Files.write(ds.resolve("input_" + i + ".pb"), OnnxTensors.toProto(inputs.get(i)).toByteArray());
            }
            for (int i = 0; i < outputs.size(); i++) {
                Files.write(ds.resolve("output_" + i + ".pb"), OnnxTensors.toProto(outputs.get(i)).toByteArray());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names {@link #writeAll} writes, in order. */
    public static List<String> names() {
        return new ArrayList<>(all().keySet());
    }
}
