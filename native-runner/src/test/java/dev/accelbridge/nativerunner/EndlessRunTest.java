package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.onnx.proto.Onnx.AttributeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.OperatorSetIdProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorShapeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TypeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Found when tried: a model whose one run never ends (a Loop of 10^12 iterations, a few hundred bytes) held
 * {@code observe}'s native judging for ever, since a case's deadline was checked only between runs. ONNX Runtime is now
 * told to stop the run at the case's deadline, and the case fails with its timeout.
 */
class EndlessRunTest {
    @TempDir
    Path dir;

    private static ValueInfoProto value(String name, int type, long... dims) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (long d : dims) {
            shape.addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(type).setShape(shape))).build();
    }

    /** y = x after a Loop of 10^12 iterations whose body passes its value through. */
    static Path endlessLoop(Path dir) throws Exception {
        int f32 = TensorProto.DataType.FLOAT_VALUE;
        GraphProto body = GraphProto.newBuilder().setName("body")
                .addInput(value("i", TensorProto.DataType.INT64_VALUE)).addInput(value("c", TensorProto.DataType.BOOL_VALUE))
                .addInput(value("v", f32, 1))
                .addNode(NodeProto.newBuilder().setOpType("Identity").setName("keep").addInput("c").addOutput("c_out"))
                .addNode(NodeProto.newBuilder().setOpType("Identity").setName("pass").addInput("v").addOutput("v_out"))
                .addOutput(value("c_out", TensorProto.DataType.BOOL_VALUE)).addOutput(value("v_out", f32, 1)).build();
        GraphProto g = GraphProto.newBuilder().setName("endless")
                .addInitializer(TensorProto.newBuilder().setName("M").setDataType(TensorProto.DataType.INT64_VALUE).addInt64Data(1_000_000_000_000L))
                .addInitializer(TensorProto.newBuilder().setName("go").setDataType(TensorProto.DataType.BOOL_VALUE).addInt32Data(1))
                .addInput(value("x", f32, 1))
                .addNode(NodeProto.newBuilder().setOpType("Loop").setName("loop").addInput("M").addInput("go").addInput("x").addOutput("y")
                        .addAttribute(AttributeProto.newBuilder().setName("body").setType(AttributeProto.AttributeType.GRAPH).setG(body)))
                .addOutput(value("y", f32, 1)).build();
        ModelProto m = ModelProto.newBuilder().setIrVersion(8).addOpsetImport(OperatorSetIdProto.newBuilder().setVersion(13)).setGraph(g).build();
        return Files.write(dir.resolve("endless.onnx"), m.toByteArray());
    }

    @Test
    void aRunThatWouldNotEndStopsAtTheCasesTimeout() throws Exception {
        Path model = endlessLoop(dir);
        assertThat(Files.size(model)).isLessThan(400);
        ModelCase mc = new ModelCase(OnnxModels.inspect(model, ModelFamily.OTHER, "endless", "test"), "x",
                List.of(NamedTensor.ofFloats("x", new long[] {1}, new float[] {1})), Optional.empty());
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofSeconds(3))))
                .isInstanceOf(ExecutionFailedException.class).hasMessageContaining("did not finish a run within its timeout of 3 s");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("stopped at its deadline, not at the loop's end").isLessThan(Duration.ofSeconds(30));
    }
}
