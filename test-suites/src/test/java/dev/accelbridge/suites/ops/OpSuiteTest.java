package dev.accelbridge.suites.ops;

import dev.accelbridge.core.OpVariant;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The op suite's own rules, without I/O: names read back, one guard per op, and coverage of what onnxruntime-web declares. */
class OpSuiteTest {
    @Test
    void everyCaseHasAUniqueNameThatReadsBackAndEachOpOneGuard() {
        Set<String> names = new HashSet<>();
        Set<String> ops = new TreeSet<>();
        for (OpCase c : OpSuite.cases()) {
            assertThat(names.add(c.variant().modelName())).as(c.variant().modelName()).isTrue();
            assertThat(OpVariant.parse(c.variant().modelName())).contains(c.variant());
            ops.add(c.variant().qualifiedType());
        }
        assertThat(ops).hasSize(164 + 14 + 22);
        // one guard per op, and every variant of the contrib ops onnxruntime-web runs on WebGPU
        Set<String> webgpu = OpKernels.declared("webgpu");
        long gpuContribVariants = OpSuite.cases().stream().filter(c -> c.variant().contrib() && webgpu.contains(c.variant().qualifiedType())).count();
        long gpuContribOps = ops.stream().filter(o -> o.startsWith(OpVariant.MS_DOMAIN) && webgpu.contains(o)).count();
        assertThat(OpSuite.guardModelNames()).hasSize((int) (ops.size() - gpuContribOps + gpuContribVariants));
        assertThat(OpVariant.parse("bert-mini")).isEmpty();
        assertThat(OpVariant.parse("com.microsoft.MatMulNBits-1-f16.k=4096.block=32"))
                .contains(new OpVariant("MatMulNBits", 1, "f16.k=4096.block=32", OpVariant.MS_DOMAIN));
        assertThat(OpVariant.parse("org.other.MatMulNBits-1-f16")).isEmpty();
    }

    @Test
    void contribCasesImportTheirDomainAndTheDefaultOne() {
        OpCase gqa = OpSuite.cases().stream().filter(c -> c.variant().modelName().equals("com.microsoft.GroupQueryAttention-1-f32.decode.past=16"))
                .findFirst().orElseThrow();
        var model = OpModels.build(gqa, 1).model();
        assertThat(model.getGraph().getNode(0).getDomain()).isEqualTo(OpVariant.MS_DOMAIN);
        assertThat(model.getGraph().getNode(0).getOpType()).isEqualTo("GroupQueryAttention");
        assertThat(model.getOpsetImportList()).extracting(o -> o.getDomain() + "@" + o.getVersion())
                .containsExactly("@17", OpVariant.MS_DOMAIN + "@1");
        // the cache's length and the sequence lengths agree: 16 past + 1 new
        assertThat(OpModels.inputs(gqa, 1)).extracting(t -> t.name() + "=" + java.util.Arrays.toString(t.shape()))
                .containsExactly("x0=[1, 1, 64]", "x1=[1, 1, 32]", "x2=[1, 1, 32]", "x3=[1, 2, 16, 16]", "x4=[1, 2, 16, 16]", "x5=[1]",
                        "x6=[]");
    }

    @Test
    void everyOpOnnxRuntimeWebDeclaresIsInTheSuiteOrSaysWhyNot() {
        Set<String> covered = new TreeSet<>();
        OpSuite.cases().forEach(c -> covered.add(c.variant().qualifiedType()));
        for (String backend : new String[] {"webgpu", "webnn", "wasm"}) {
            assertThat(OpKernels.declared(backend)).as(backend).hasSizeGreaterThan(60);
            assertThat(OpKernels.sources(backend)).isNotEmpty();
            Set<String> missing = new TreeSet<>(OpKernels.declared(backend));
            missing.removeAll(covered);
            missing.removeAll(OpSuite.NOT_COVERED.keySet());
            missing.remove("RotaryEmbedding"); // declared by WebNN's op_map; its ai.onnx form (opset 23) is not in the suite yet
            assertThat(missing).as("declared for %s but neither in the suite nor in NOT_COVERED", backend).isEmpty();
        }
    }
}
