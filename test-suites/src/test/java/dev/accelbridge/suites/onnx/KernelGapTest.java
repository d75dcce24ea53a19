package dev.accelbridge.suites.onnx;

import dev.accelbridge.core.DType;
import dev.accelbridge.suites.HalfPrecisionModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The kernel gap read from the runtime's words and the model (pure: a written model, no runtime). */
class KernelGapTest {
    @TempDir
    Path dir;

    @Test
    void theRuntimesWordsAreCheckedAgainstTheModelAndUnstatedTypesAreUnknown() throws Exception {
        Path bf16 = HalfPrecisionModels.bfloat16MatMul(dir);
        String node = OnnxTensors.readModel(bf16).getGraph().getNodeList().stream().filter(n -> n.getOpType().equals("MatMul"))
                .findFirst().orElseThrow().getName();
        assertThat(KernelGap.describe(bf16, "Could not find an implementation for MatMul(13) node with name '" + node + "'"))
                .contains("no kernel for MatMul (opset 13, domain ai.onnx) at node '" + node + "', its inputs bfloat16, bfloat16");
        assertThat(KernelGap.describe(bf16, "Could not find an implementation for MatMul(13) node with name 'not-in-the-model'"))
                .as("a node the model does not have is not described").isEmpty();
        assertThat(KernelGap.describe(bf16, "Protobuf parsing failed")).isEmpty();
        assertThat(KernelGap.describe(dir.resolve("absent.onnx"), "Could not find an implementation for MatMul(13) node with name 'mm'"))
                .isEmpty();

        GraphBuilder g = new GraphBuilder("relu_of_relu", 1);
        String x = g.input("x", DType.FLOAT32, 4);
        String h = g.op("Relu", "first", List.of(x));
        g.opInto("Relu", "y", List.of(h));
        g.output("y", DType.FLOAT32, 4);
        assertThat(KernelGap.typeOf(g.build("r").getGraph(), h)).isEqualTo("of unknown type");
        assertThat(KernelGap.typeOf(g.build("r").getGraph(), x)).isEqualTo("float");
    }
}
