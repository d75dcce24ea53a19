package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.StringStringEntryProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorShapeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What a case needs in memory, from the model file alone, before anything runs: the model file's bytes, its weights
 * (initializers, inside or as external data), the case's inputs, the outputs and intermediate values whose shapes the
 * model declares (graph outputs, {@code value_info}, symbolic dimensions resolved from the case's free-dimension
 * values). The largest activation is only as good as what the model declares: a model without {@code value_info} shows
 * its inputs, outputs and weights only (the estimate says so).
 *
 * @param modelFileBytes the {@code .onnx} file
 * @param weightBytes    every initializer's data, external files included
 * @param tensors        every tensor of known size: name, where it comes from and bytes, largest first
 * @param activationsDeclared whether the model declared intermediate shapes ({@code value_info})
 */
@PublicApi
public record ModelFootprint(long modelFileBytes, long weightBytes, List<Tensor> tensors, boolean activationsDeclared) {
    public ModelFootprint {
        tensors = List.copyOf(tensors);
    }

    /**
     * One tensor of known size.
     *
     * @param name  its name in the graph
     * @param kind  {@code input}, {@code output}, {@code weight} or {@code activation}
     * @param bytes its size
     */
    public record Tensor(String name, String kind, long bytes) {
    }

    /** The bytes of the case's inputs. */
    public long inputBytes() {
        return sum("input");
    }

    /** The bytes of the outputs whose shapes are declared. */
    public long outputBytes() {
        return sum("output");
    }

    /** The largest declared intermediate value, or null when none is declared. */
    public Tensor largestActivation() {
        return tensors.stream().filter(t -> t.kind().equals("activation")).findFirst().orElse(null);
    }

    /** The largest tensor of any kind, or null when the model has none of known size. */
    public Tensor largest() {
        return tensors.isEmpty() ? null : tensors.get(0);
    }

    private long sum(String kind) {
        return tensors.stream().filter(t -> t.kind().equals(kind)).mapToLong(Tensor::bytes).sum();
    }

    /**
     * The footprint of {@code mc}.
     *
     * @throws SuiteException when the model cannot be read
     */
    public static ModelFootprint of(ModelCase mc) {
        Path file = mc.model().path();
        ModelProto m = OnnxTensors.readModel(file);
        long fileBytes;
        try {
            fileBytes = Files.size(file);
        } catch (java.io.IOException e) {
            fileBytes = 0;
        }
        List<Tensor> tensors = new ArrayList<>();
        long weights = 0;
        GraphProto g = m.getGraph();
        for (TensorProto t : g.getInitializerList()) {
            long b = initializerBytes(t);
            weights += b;
            tensors.add(new Tensor(t.getName(), "weight", b));
        }
        java.util.Set<String> initializers = new java.util.HashSet<>();
        g.getInitializerList().forEach(t -> initializers.add(t.getName()));
        for (NamedTensor t : mc.inputs()) {
            tensors.add(new Tensor(t.name(), "input", t.data().length));
        }
        for (ValueInfoProto v : g.getOutputList()) {
            long b = declaredBytes(v, mc.freeDims());
            if (b >= 0) {
                tensors.add(new Tensor(v.getName(), "output", b));
            }
        }
        for (ValueInfoProto v : g.getValueInfoList()) {
            long b = declaredBytes(v, mc.freeDims());
            if (b >= 0 && !initializers.contains(v.getName())) {
                tensors.add(new Tensor(v.getName(), "activation", b));
            }
        }
        tensors.sort(Comparator.comparingLong(Tensor::bytes).reversed());
        return new ModelFootprint(fileBytes, weights, tensors, g.getValueInfoCount() > 0);
    }

    /** Bytes of a declared tensor value, -1 when a dimension is unknown or its type is not one Accelbridge knows. */
    static long declaredBytes(ValueInfoProto v, Map<String, Long> freeDims) {
        if (!v.getType().hasTensorType()) {
            return -1;
        }
        DType dt;
        try {
            dt = DType.fromOnnx(v.getType().getTensorType().getElemType());
        } catch (RuntimeException e) {
            return -1;
        }
        long n = dt.byteSize();
        for (TensorShapeProto.Dimension d : v.getType().getTensorType().getShape().getDimList()) {
            long x = d.hasDimValue() ? d.getDimValue() : freeDims.getOrDefault(d.getDimParam(), -1L);
            if (x < 0) {
                return -1;
            }
            n = multiply(n, x);
        }
        return n;
    }

    private static long initializerBytes(TensorProto t) {
        if (t.getDataLocation() == TensorProto.DataLocation.EXTERNAL) {
            for (StringStringEntryProto e : t.getExternalDataList()) {
                if (e.getKey().equals("length")) {
                    try {
                        return Long.parseLong(e.getValue());
                    } catch (NumberFormatException x) {
                        return 0;
                    }
                }
            }
        }
        if (!t.getRawData().isEmpty()) {
            return t.getRawData().size();
        }
        long n;
        try {
            n = DType.fromOnnx(t.getDataType()).byteSize();
        } catch (RuntimeException e) {
            n = 4;
        }
        for (long d : t.getDimsList()) {
            n = multiply(n, d);
        }
        return n;
    }

    private static long multiply(long a, long b) {
        return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }
}
