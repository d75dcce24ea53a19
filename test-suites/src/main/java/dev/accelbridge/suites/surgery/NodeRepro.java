package dev.accelbridge.suites.surgery;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.SuiteException;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorShapeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TypeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One node of a model cut out as a single-node model, with the tensors it actually received and the reference's
 * outputs, in the ONNX test-data layout: {@code model.onnx}, {@code test_data_set_0/input_K.pb},
 * {@code test_data_set_0/output_K.pb}. Accelbridge (or onnxruntime's own test runner) run on the folder compares a
 * backend with those outputs, so the folder is a bug report's attachment.
 *
 * <p>Values computed upstream become graph inputs; initializers, and values a {@code Constant} node made, stay
 * initializers (some execution providers need e.g. a Reshape's shape or a Pad's pads constant).
 */
@PublicApi
public final class NodeRepro {
    private NodeRepro() {
    }

    /**
     * The single-node model for node {@code index} of {@code source}.
     *
     * @param values every value the reference computed by name (graph inputs included)
     */
    public static Cut cut(ModelProto source, int index, Map<String, NamedTensor> values) {
        GraphProto g = source.getGraph();
        NodeProto node = g.getNode(index);
        Map<String, Integer> producers = Taps.producers(g);
        GraphProto.Builder out = GraphProto.newBuilder().setName("repro_" + Taps.nodeName(g, index).replaceAll("[^A-Za-z0-9_]", "_"));
        List<NamedTensor> inputs = new ArrayList<>();
        List<NamedTensor> outputs = new ArrayList<>();
        java.util.Set<String> done = new java.util.HashSet<>();
        // a control-flow node's bodies read values of the graph around them without naming them as inputs: the repro
        // carries each as an input of its own (or as the initializer it is), or it would not load
        List<String> reads = new ArrayList<>(node.getInputList());
        reads.addAll(ControlFlow.outerReads(node));
        for (String in : reads) {
            if (in.isEmpty() || !done.add(in)) {
                continue;
            }
            TensorProto init = Taps.initializer(g, in);
            Integer producer = producers.get(in);
            boolean constant = producer != null && g.getNode(producer).getOpType().equals("Constant");
            if (init != null) {
                out.addInitializer(init);
            } else if (constant && values.containsKey(in)) {
                out.addInitializer(OnnxTensors.toProto(values.get(in).withName(in)));
            } else {
                NamedTensor v = value(values, in);
                out.addInput(valueInfo(in, v));
                inputs.add(v.withName(in));
            }
        }
        for (String o : node.getOutputList()) {
            if (o.isEmpty()) {
                continue;
            }
            NamedTensor v = value(values, o);
            out.addOutput(valueInfo(o, v));
            outputs.add(v.withName(o));
        }
        out.addNode(node);
        ModelProto m = ModelProto.newBuilder().setIrVersion(source.getIrVersion()).addAllOpsetImport(source.getOpsetImportList())
                .setProducerName("accelbridge bisect").setDocString("Node " + Taps.nodeName(g, index) + " (" + node.getOpType()
                        + ") of " + (source.getGraph().getName().isEmpty() ? "a model" : source.getGraph().getName())
                        + ", with the inputs it received in the run that diverged").setGraph(out).build();
        return new Cut(m, inputs, outputs);
    }

    /**
     * Nodes {@code nodes} of {@code source} together as a model of their own ({@link SubgraphCut#cut}), fed the values
     * they read that other nodes computed, and the reference's values of what they compute as its outputs.
     *
     * @param values every value the reference computed by name (graph inputs included)
     */
    public static Cut cutTogether(ModelProto source, java.util.Collection<Integer> nodes, Map<String, NamedTensor> values, String doc) {
        Map<String, TypeProto> types = new LinkedHashMap<>();
        values.forEach((name, v) -> types.put(name, valueInfo(name, v).getType()));
        ModelProto m = SubgraphCut.cut(source, nodes, types, doc);
        List<NamedTensor> inputs = m.getGraph().getInputList().stream().map(v -> value(values, v.getName()).withName(v.getName())).toList();
        List<NamedTensor> outputs = m.getGraph().getOutputList().stream().map(v -> value(values, v.getName()).withName(v.getName())).toList();
        return new Cut(m, inputs, outputs);
    }

    /**
     * A single-node model and its test data.
     *
     * @param model   the model
     * @param inputs  the graph inputs' values, in order
     * @param outputs the reference's outputs, in order
     */
    public record Cut(ModelProto model, List<NamedTensor> inputs, List<NamedTensor> outputs) {
        /**
         * Writes the folder: {@code model.onnx}, {@code test_data_set_0/}, {@code accelbridge.json} with the tolerance the
         * divergence was found at (when one was given), and {@code README.md}.
         */
        public Path write(Path dir, Double tolerance, String readme) {
            try {
                Files.createDirectories(dir.resolve("test_data_set_0"));
                OnnxTensors.writeAtomically(dir.resolve("model.onnx"), model.toByteArray(), "repro model");
                for (int k = 0; k < inputs.size(); k++) {
                    Files.write(dir.resolve("test_data_set_0").resolve("input_" + k + ".pb"), OnnxTensors.toProto(inputs.get(k)).toByteArray());
                }
                for (int k = 0; k < outputs.size(); k++) {
                    Files.write(dir.resolve("test_data_set_0").resolve("output_" + k + ".pb"), OnnxTensors.toProto(outputs.get(k)).toByteArray());
                }
                if (tolerance != null) {
                    Files.writeString(dir.resolve("accelbridge.json"), String.format(Locale.ROOT, "{\"tolerance\": %s}%n", tolerance));
                }
                Files.writeString(dir.resolve("README.md"), readme, StandardCharsets.UTF_8);
                return dir;
            } catch (IOException e) {
                throw new SuiteException("Cannot write the repro folder " + dir + ": " + e.getMessage(),
                        "check that the reports folder (--out) is writable", e);
            }
        }
    }

    /** A node's attributes as ONNX text, by name. */
    public static Map<String, String> attributes(NodeProto n) {
        Map<String, String> m = new LinkedHashMap<>();
        for (AttributeProto a : n.getAttributeList()) {
            m.put(a.getName(), text(a));
        }
        return m;
    }

    /** One attribute's value as text: {@code 1}, {@code [1, 1, 0, 0]}, {@code "SAME_LOWER"}, {@code tensor float32[4]}. */
    static String text(AttributeProto a) {
        return switch (a.getType()) {
            case INT -> Long.toString(a.getI());
            case FLOAT -> Float.toString(a.getF());
            case STRING -> "\"" + a.getS().toStringUtf8() + "\"";
            case INTS -> a.getIntsList().toString();
            case FLOATS -> a.getFloatsList().toString();
            case STRINGS -> a.getStringsList().stream().map(s -> "\"" + s.toStringUtf8() + "\"").collect(Collectors.joining(", ", "[", "]"));
            case TENSOR -> "tensor " + TensorProto.DataType.forNumber(a.getT().getDataType()) + a.getT().getDimsList();
            case GRAPH -> "graph " + a.getG().getName();
            default -> a.getType().name();
        };
    }

    private static NamedTensor value(Map<String, NamedTensor> values, String name) {
        NamedTensor v = values.get(name);
        if (v == null) {
            throw new SuiteException("No reference value for '" + name + "': it was not among the exposed outputs",
                    "report this model to Accelbridge: its value could not be exposed", null);
        }
        return v;
    }

    private static ValueInfoProto valueInfo(String name, NamedTensor v) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (long d : v.shape()) {
            shape.addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(v.dtype().onnxCode()).setShape(shape))).build();
    }
}
