package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.surgery.NodeRepro;
import dev.accelbridge.suites.surgery.Taps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Exposing intermediates and cutting a node out, checked on the real ONNX Runtime. */
class SurgeryTest {

    /** conv → AveragePool (explicit pads) → relu → ArgMax(select_last_index) with a Shape branch (int64 values). */
    static ModelProto model() {
        GraphBuilder g = new GraphBuilder("pool-net", 7);
        String x = g.input("x", DType.FLOAT32, 1, 2, 6, 6);
        String c = g.op("Conv", "conv", List.of(x, g.uniform("w", 0.5, 4, 2, 3, 3)), GraphBuilder.ints("pads", 1, 1, 1, 1));
        String p = g.op("AveragePool", "pool", List.of(c), GraphBuilder.ints("kernel_shape", 3, 3),
                GraphBuilder.ints("pads", 1, 1, 1, 1));
        String r = g.op("Relu", "relu", List.of(p));
        String a = g.op("ArgMax", "argmax", List.of(r), GraphBuilder.attr("axis", 1L), GraphBuilder.attr("select_last_index", 1L));
        String s = g.op("Shape", "shape", List.of(r));
        g.output(a, DType.INT64, 1, 1, 6, 6);
        g.output(s, DType.INT64, 4);
        g.output(r, DType.FLOAT32, 1, 4, 6, 6);
        return g.build("surgery test");
    }

    static NamedTensor input() {
        float[] v = new float[72];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) Math.sin(i * 0.37);
        }
        return NamedTensor.ofFloats("x", new long[] {1, 2, 6, 6}, v);
    }

    @Test
    void exposesEveryIntermediateInNodeOrderWithoutChangingTheOutputs(@TempDir Path dir) throws Exception {
        ModelProto m = model();
        List<Taps.Value> values = Taps.values(m);
        assertThat(values).extracting(Taps.Value::node).isSorted();
        assertThat(values).hasSize(m.getGraph().getNodeCount());
        Taps.Exposed e = Taps.expose(m, values.stream().map(Taps.Value::name).toList());
        assertThat(e.outputs()).startsWith(m.getGraph().getOutputList().stream().map(v -> v.getName()).toArray(String[]::new));
        assertThat(e.outputs()).containsAll(values.stream().map(Taps.Value::name).toList());
        Path orig = dir.resolve("m.onnx");
        Path tapped = dir.resolve("t.onnx");
        Files.write(orig, m.toByteArray());
        Files.write(tapped, e.model().toByteArray());
        Map<String, NamedTensor> a = Ort.run(orig, List.of(input()));
        // the exposed outputs declare no type: ONNX Runtime infers them, int64 ones included
        Map<String, NamedTensor> b = Ort.run(tapped, List.of(input()));
        assertThat(b.keySet()).containsExactlyElementsOf(e.outputs());
        for (String k : a.keySet()) {
            assertThat(b.get(k).toDoubles()).containsExactly(a.get(k).toDoubles());
        }
        assertThat(b.get(values.get(0).name()).shape()).containsExactly(1, 4, 6, 6);
    }

    @Test
    void cutsANodeWithItsActualInputsIntoTheOnnxTestDataLayout(@TempDir Path dir) throws Exception {
        ModelProto m = model();
        Taps.Exposed e = Taps.expose(m, Taps.values(m).stream().map(Taps.Value::name).toList());
        Path tapped = dir.resolve("t.onnx");
        Files.write(tapped, e.model().toByteArray());
        Map<String, NamedTensor> values = new HashMap<>(Ort.run(tapped, List.of(input())));
        values.put("x", input());
        int pool = 1;
        assertThat(m.getGraph().getNode(pool).getOpType()).isEqualTo("AveragePool");
        assertThat(NodeRepro.attributes(m.getGraph().getNode(pool)))
                .containsEntry("pads", "[1, 1, 1, 1]").containsEntry("kernel_shape", "[3, 3]");
        NodeRepro.Cut cut = NodeRepro.cut(m, pool, values);
        assertThat(cut.model().getGraph().getNodeCount()).isEqualTo(1);
        assertThat(cut.inputs()).singleElement().satisfies(t -> assertThat(t.shape()).containsExactly(1, 4, 6, 6));
        Path repro = cut.write(dir.resolve("repro"), 1e-9, "# repro\n");
        assertThat(repro.resolve("model.onnx")).exists();
        assertThat(repro.resolve("accelbridge.json")).content().contains("1.0E-9");
        TensorProto in = TensorProto.parseFrom(Files.readAllBytes(repro.resolve("test_data_set_0/input_0.pb")));
        TensorProto out = TensorProto.parseFrom(Files.readAllBytes(repro.resolve("test_data_set_0/output_0.pb")));
        // the repro computes what the reference computed at that node, from what the node actually received
        Map<String, NamedTensor> again = Ort.run(repro.resolve("model.onnx"), List.of(OnnxTensors.fromProto(in, null)));
        assertThat(again.values().iterator().next().toDoubles()).containsExactly(OnnxTensors.fromProto(out, null).toDoubles());
        // and the folder loads as a user's model with its expected outputs
        var loaded = ModelDirectory.loadAll(repro, java.util.Optional.empty(), FeedOptions.none());
        assertThat(loaded).singleElement().satisfies(l -> {
            assertThat(l.broken()).isFalse();
            assertThat(l.cases().get(0).expected()).isPresent();
            assertThat(l.cases().get(0).model().tolerance()).isEqualTo(1e-9);
        });
    }

    @Test
    void aControlFlowReproCarriesTheOuterValuesItsBranchesReadAndLoads(@TempDir Path dir) throws Exception {
        // If(cond) { x * 2 } else { -x }: both branches read x from the graph around them
        ModelProto m = OnnxTensors.readModel(OddModels.ifBranches(dir).resolve("model.onnx"));
        NamedTensor cond = new NamedTensor("cond", DType.BOOL, new long[0], new byte[]{1});
        NamedTensor x = NamedTensor.ofFloats("x", new long[]{1, 4}, new float[]{1, -2, 3, -4});
        assertThat(dev.accelbridge.suites.surgery.ControlFlow.outerReads(m.getGraph().getNode(0))).containsExactly("x");
        Map<String, NamedTensor> values = new HashMap<>(Ort.run(dir.resolve("if-branches").resolve("model.onnx"), List.of(cond, x)));
        values.put("cond", cond);
        values.put("x", x);
        NodeRepro.Cut cut = NodeRepro.cut(m, 0, values);
        assertThat(cut.model().getGraph().getInputList()).extracting(v -> v.getName()).containsExactly("cond", "x");
        Path repro = cut.write(dir.resolve("repro"), null, "# repro");
        Map<String, NamedTensor> again = Ort.run(repro.resolve("model.onnx"), cut.inputs());
        assertThat(again.get("y").toFloats()).containsExactly(2, -4, 6, -8);
    }

    @Test
    void anIfWhoseConditionIsKnownIsInlinedAsItsTakenBranchAndComputesTheSame(@TempDir Path dir) throws Exception {
        Path file = OddModels.ifBranches(dir).resolve("model.onnx");
        ModelProto m = OnnxTensors.readModel(file);
        NamedTensor x = NamedTensor.ofFloats("x", new long[]{1, 4}, new float[]{1, -2, 3, -4});
        for (boolean c : new boolean[]{true, false}) {
            NamedTensor cond = new NamedTensor("cond", DType.BOOL, new long[0], new byte[]{(byte) (c ? 1 : 0)});
            ModelProto inlined = dev.accelbridge.suites.surgery.ControlFlow.inlineIfs(m, Map.of("cond", c));
            assertThat(inlined.getGraph().getNodeList()).noneMatch(n -> n.getOpType().equals("If"));
            assertThat(inlined.getGraph().getNodeList()).extracting(n -> n.getName())
                    .contains(c ? "y/If/then/t_out/Mul" : "y/If/else/e_out/Neg");
            Path p = dir.resolve("inlined-" + c + ".onnx");
            Files.write(p, inlined.toByteArray());
            assertThat(Ort.run(p, List.of(cond, x)).get("y").toFloats()).containsExactly(Ort.run(file, List.of(cond, x)).get("y").toFloats());
            // every value inside the branch is now an ordinary value of the graph, so bisection can expose it
            assertThat(Taps.values(inlined)).extracting(Taps.Value::name).contains(c ? "y/If/then/t_out" : "y/If/else/e_out");
        }
    }
}
