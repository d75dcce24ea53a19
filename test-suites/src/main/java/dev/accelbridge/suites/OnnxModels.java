package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.OperatorSetIdProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Reads what a model looks like: inputs, outputs, opset, ops, parameter count, SHA-256. */
@PublicApi
public final class OnnxModels {
    private OnnxModels() {
    }

    /**
     * Inspects an ONNX file.
     *
     * @param family the family, or null to infer it from the inputs ({@link #inferFamily(List)})
     * @param source where it came from ({@code generated} or the user's folder)
     * @throws SuiteException naming the file when it is missing or not a valid ONNX model
     */
    public static ModelSpec inspect(Path onnx, ModelFamily family, String name, String source) {
        return inspect(onnx, OnnxTensors.readModel(onnx), family, name, source);
    }

    /** Same, for a model already parsed from {@code onnx}. */
    public static ModelSpec inspect(Path onnx, ModelProto m, ModelFamily family, String name, String source) {
        return inspect(onnx, m, family, name, source, false); // a file's own word on its FLOPs is not believed
    }

    /** A model the suites authored ({@link SuiteCatalog}): its FLOPs a item, kept in its metadata when it was written, believed. */
    static ModelSpec inspectAuthored(Path onnx, ModelProto m, ModelFamily family, String name) {
        return inspect(onnx, m, family, name, GENERATED, true);
    }

    private static ModelSpec inspect(Path onnx, ModelProto m, ModelFamily family, String name, String source, boolean authored) {
        List<TensorSpec> inputs = graphInputs(m).stream().map(OnnxTensors::spec).toList();
        List<TensorSpec> outputs = m.getGraph().getOutputList().stream().map(OnnxTensors::spec).toList();
        ModelFamily f = family != null ? family : inferFamily(inputs);
        return new ModelSpec(f, name, onnx.toAbsolutePath(), sha256(onnx), opset(m), parameters(m.getGraph()),
                ops(m), inputs, outputs, source, f.defaultTolerance(), cost(m, authored));
    }

    /** The source of a model the suites authored. */
    static final String GENERATED = "generated";
    /** The metadata key under which an authored model keeps its FLOPs a item ({@link dev.accelbridge.core.ModelCost#flopsPerItem}). */
    static final String FLOPS_KEY = "accelbridge.flops";

    /**
     * A model's cost: the bytes of its initializers at their stored types (external data included: reckoned from the
     * shapes), and its FLOPs a item where Accelbridge authored it ({@code authored}; a user's file saying it is not believed).
     */
    static dev.accelbridge.core.ModelCost cost(ModelProto m, boolean authored) {
        long bytes = 0;
        for (dev.accelbridge.suites.onnx.proto.Onnx.TensorProto t : m.getGraph().getInitializerList()) {
            java.util.Optional<DType> dt = java.util.Arrays.stream(DType.values()).filter(d -> d.onnxCode() == t.getDataType()).findFirst();
            if (dt.isEmpty()) {
                return dev.accelbridge.core.ModelCost.of(Double.NaN, -1); // a type with no size known here: unknown, not a guess
            }
            long n = 1;
            for (long d : t.getDimsList()) {
                n *= d;
            }
            bytes += n * dt.get().byteSize();
        }
        double flops = !authored ? Double.NaN : m.getMetadataPropsList().stream().filter(p -> p.getKey().equals(FLOPS_KEY))
                .mapToDouble(p -> {
                    try {
                        return Double.parseDouble(p.getValue());
                    } catch (NumberFormatException e) {
                        return Double.NaN;
                    }
                }).findFirst().orElse(Double.NaN);
        return dev.accelbridge.core.ModelCost.of(flops, bytes);
    }

    /** Graph inputs that are not initializers (models before IR 4 list their weights as inputs too). */
    /**
     * The files a model keeps its weights in beside itself (ONNX external data: {@code model.onnx_data},
     * {@code weights.bin}), as the relative locations the model names, in first-use order. Empty for a model that
     * holds its weights inside.
     */
    public static List<String> externalData(ModelProto m) {
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        for (TensorProto t : m.getGraph().getInitializerList()) {
            if (t.getDataLocation() == TensorProto.DataLocation.EXTERNAL) {
                t.getExternalDataList().stream().filter(e -> e.getKey().equals("location")).forEach(e -> out.add(e.getValue()));
            }
        }
        return List.copyOf(out);
    }

    /** {@link #externalData(ModelProto)} of a model file, or empty when it cannot be read. */
    public static List<String> externalData(Path onnx) {
        try {
            return externalData(OnnxTensors.readModel(onnx));
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** The ops of a graph quantized to 8 bits (QDQ pairs, integer ops). */
    static final Set<String> QUANTIZED_OPS = Set.of("QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear",
            "MatMulInteger", "ConvInteger", "QLinearMatMul", "QLinearConv", "MatMulIntegerToFloat", "QGemm", "QLinearAdd");

    /**
     * The precision a model computes in, as shipped: int8 when it is quantized (QDQ pairs or integer ops), q4 when its
     * MatMuls are 4-bit ({@code MatMulNBits}; q4f16 when its float weights are mostly float16), fp16 when most of its float
     * weights are float16 (a model converted with float32 inputs and outputs kept), else fp32.
     */
    public static Precision precision(ModelProto m) {
        boolean fourBit = false;
        for (var n : m.getGraph().getNodeList()) {
            if (QUANTIZED_OPS.contains(n.getOpType())) {
                return Precision.INT8;
            }
            fourBit |= n.getOpType().equals("MatMulNBits");
        }
        if (fourBit) {
            return halfFloat(m) ? Precision.Q4F16 : Precision.Q4;
        }
        return halfFloat(m) ? Precision.FP16 : Precision.FP32;
    }

    /** Whether most of the model's float weights are float16. */
    private static boolean halfFloat(ModelProto m) {
        long half = 0;
        long single = 0;
        for (TensorProto t : m.getGraph().getInitializerList()) {
            long n = 1;
            for (long d : t.getDimsList()) {
                n *= d;
            }
            if (t.getDataType() == TensorProto.DataType.FLOAT16_VALUE) {
                half += n;
            } else if (t.getDataType() == TensorProto.DataType.FLOAT_VALUE) {
                single += n;
            }
        }
        return half > single;
    }

    public static List<ValueInfoProto> graphInputs(ModelProto m) {
        Set<String> inits = m.getGraph().getInitializerList().stream().map(TensorProto::getName).collect(Collectors.toSet());
        return m.getGraph().getInputList().stream().filter(v -> !inits.contains(v.getName())).toList();
    }

    /** The version of the default domain ("" or "ai.onnx") the model imports, or 0 when it imports none. */
    public static long opset(ModelProto m) {
        return m.getOpsetImportList().stream().filter(o -> o.getDomain().isEmpty() || o.getDomain().equals("ai.onnx"))
                .mapToLong(OperatorSetIdProto::getVersion).max().orElse(0);
    }

    /** Distinct op types of the graph and its sub-graphs, sorted; non-default domains as {@code domain:Op}. */
    public static List<String> ops(ModelProto m) {
        Set<String> out = new TreeSet<>();
        collectOps(m.getGraph(), out);
        return List.copyOf(out);
    }

    private static void collectOps(GraphProto g, Set<String> out) {
        for (NodeProto n : g.getNodeList()) {
            out.add(n.getDomain().isEmpty() || n.getDomain().equals("ai.onnx") ? n.getOpType() : n.getDomain() + ":" + n.getOpType());
            for (AttributeProto a : n.getAttributeList()) {
                if (a.hasG()) {
                    collectOps(a.getG(), out);
                }
                a.getGraphsList().forEach(sub -> collectOps(sub, out));
            }
        }
    }

    /** Elements in all initializers. */
    public static long parameters(GraphProto g) {
        long n = 0;
        for (TensorProto t : g.getInitializerList()) {
            long c = 1;
            for (long d : t.getDimsList()) {
                c *= d;
            }
            n += c;
        }
        return n;
    }

    /**
     * The family its inputs suggest: {@code past_key_values.N.key} means TEXT_GENERATION, {@code input_ids} beside
     * {@code pixel_values} MULTIMODAL (a two-tower export), an int64 {@code input_ids} TEXT, a 4-D float NCHW input VISION,
     * a 3-D float input with 80 or 128 mel bins AUDIO, anything else OTHER.
     */
    public static ModelFamily inferFamily(List<TensorSpec> inputs) {
        if (inputs.stream().anyMatch(s -> s.name().matches("past_key_values\\.\\d+\\.(key|value)"))) {
            return ModelFamily.TEXT_GENERATION; // a decoder with a KV cache, as Hugging Face exporters name one
        }
        if (inputs.stream().anyMatch(s -> s.name().equals("input_ids")) && inputs.stream().anyMatch(s -> s.name().equals("pixel_values"))) {
            return ModelFamily.MULTIMODAL;
        }
        for (TensorSpec s : inputs) {
            if (s.dtype() == DType.INT64 && s.name().contains("input_ids")) {
                return ModelFamily.TEXT;
            }
        }
        for (TensorSpec s : inputs) {
            long[] d = s.shape();
            if (s.dtype().isFloat() && d.length == 4 && (d[1] == 3 || d[1] == 1)) {
                return ModelFamily.VISION;
            }
            if (s.dtype().isFloat() && d.length == 3 && (d[1] == 80 || d[1] == 128)) {
                return ModelFamily.AUDIO;
            }
        }
        return ModelFamily.OTHER;
    }

    /** Hex SHA-256 of a file. */
    public static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            int r;
            while ((r = in.read(buf)) > 0) {
                md.update(buf, 0, r);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new SuiteException("Cannot read " + file + ": " + e, "check the file", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
