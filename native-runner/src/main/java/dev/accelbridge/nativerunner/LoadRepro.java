package dev.accelbridge.nativerunner;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorShapeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TypeProto;
import dev.accelbridge.suites.surgery.SubgraphCut;
import dev.accelbridge.suites.surgery.Taps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A single-graph repro of a load an optimizer breaks: the nodes around the one the rejected node was made from, cut out
 * ({@link SubgraphCut}) a step wider at a time towards the inputs (and one step towards the outputs) until ONNX Runtime
 * refuses the cut alone at the level that failed, naming the same optimizer, and loads it at the level that loaded the
 * model. The smallest such cut is the repro; none is claimed when no cut of up to {@link #MAX_STEPS} steps does both.
 */
final class LoadRepro {
    /** The widest cut tried, in steps from the node the rejected one was made from. */
    static final int MAX_STEPS = 12;

    private LoadRepro() {
    }

    /** The repro of {@code d} for {@code model}, or empty when its message named no node or no cut reproduces it. */
    static Optional<LoadDiagnosis.Repro> cut(Path model, LoadDiagnosis d) {
        if (d.optimizer() == null || d.rejectedFrom() == null) {
            return Optional.empty();
        }
        Path work = null;
        try {
            ModelProto m = OnnxTensors.readModel(model);
            GraphProto g = m.getGraph();
            int anchor = -1;
            for (int i = 0; i < g.getNodeCount() && anchor < 0; i++) {
                anchor = g.getNode(i).getName().equals(d.rejectedFrom()) ? i : -1;
            }
            if (anchor < 0) {
                return Optional.empty();
            }
            work = Files.createTempDirectory("accelbridge-load-repro");
            Map<String, TypeProto> types = types(m, exposed(m, anchor), work.resolve("exposed.onnx"), LoadDiagnostician.LEVELS.get(d.loadsAt()));
            Set<Set<Integer>> tried = new HashSet<>();
            for (int up = 1; up <= MAX_STEPS; up++) {
                for (int down = 0; down <= 1; down++) {
                    Set<Integer> nodes = SubgraphCut.around(g, anchor, up, down);
                    if (!tried.add(nodes)) {
                        continue;
                    }
                    ModelProto cut = SubgraphCut.cut(m, nodes, types, "The nodes around '" + d.rejectedFrom() + "', which "
                            + d.optimizer() + " makes a node of that " + d.runtime() + " rejects at optimization=" + d.failsAt().get(0)
                            + "; it loads at optimization=" + d.loadsAt());
                    if (reproduces(cut, work.resolve("cut.onnx"), d)) {
                        return Optional.of(new LoadDiagnosis.Repro(cut.toByteArray(), cut.getGraph().getNodeCount()));
                    }
                }
            }
            return Optional.empty();
        } catch (IOException | OrtException | RuntimeException e) {
            return Optional.empty(); // no repro: the diagnosis stands without one
        } finally {
            delete(work);
        }
    }

    /** Whether {@code cut} alone fails at the level that failed, naming the optimizer, and loads at the level that loaded. */
    private static boolean reproduces(ModelProto cut, Path file, LoadDiagnosis d) throws IOException {
        Files.write(file, cut.toByteArray());
        String refused = LoadDiagnostician.refusal(file, LoadDiagnostician.LEVELS.get(d.failsAt().get(0)));
        return refused != null && refused.contains(d.optimizer()) && LoadDiagnostician.loadsAt(file, LoadDiagnostician.LEVELS.get(d.loadsAt()));
    }

    /**
     * The values a cut can hold: those of the nodes of the widest cut tried, whatever the graph's size (found when tried:
     * with every value of a 20,000-node graph exposed, the diagnosis took 184 s).
     */
    static List<String> exposed(ModelProto m, int anchor) {
        GraphProto g = m.getGraph();
        Set<String> near = new java.util.LinkedHashSet<>();
        for (int i : SubgraphCut.around(g, anchor, MAX_STEPS, 1)) {
            near.addAll(g.getNode(i).getInputList());
            near.addAll(g.getNode(i).getOutputList());
        }
        return Taps.values(m).stream().map(Taps.Value::name).filter(near::contains).toList();
    }

    /** The types of {@code names} as ONNX Runtime infers them: the model with them exposed, loaded at {@code level}. */
    private static Map<String, TypeProto> types(ModelProto m, List<String> names, Path file, OrtSession.SessionOptions.OptLevel level)
            throws IOException, OrtException {
        Files.write(file, Taps.expose(m, names).model().toByteArray());
        Map<String, TypeProto> out = new HashMap<>();
        try (OrtSession.SessionOptions so = new OrtSession.SessionOptions()) {
            so.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_FATAL);
            so.setOptimizationLevel(level);
            try (OrtSession s = OrtEnvironment.getEnvironment().createSession(file.toString(), so)) {
                Map<String, NodeInfo> all = new HashMap<>(s.getInputInfo());
                all.putAll(s.getOutputInfo());
                all.forEach((name, info) -> {
                    if (info.getInfo() instanceof TensorInfo t) {
                        out.put(name, type(t));
                    }
                });
            }
        }
        return out;
    }

    private static TypeProto type(TensorInfo t) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        long[] dims = t.getShape();
        String[] names = t.getDimensionNames();
        for (int i = 0; i < dims.length; i++) {
            shape.addDim(dims[i] >= 0 ? TensorShapeProto.Dimension.newBuilder().setDimValue(dims[i])
                    : TensorShapeProto.Dimension.newBuilder().setDimParam(names != null && i < names.length && !names[i].isEmpty() ? names[i] : "d" + i));
        }
        // ONNX Runtime's Java enum numbers its element types its own way; their names are ONNX's
        String name = t.onnxType.name().replace("ONNX_TENSOR_ELEMENT_DATA_TYPE_", "");
        return TypeProto.newBuilder().setTensorType(TypeProto.Tensor.newBuilder().setElemType(TensorProto.DataType.valueOf(name).getNumber())
                .setShape(shape)).build();
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary folder left behind
        }
    }
}
